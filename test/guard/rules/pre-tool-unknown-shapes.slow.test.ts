// src/guard/rules/pre-tool.ts against an attacker: a file tool in an argument shape the guard does not know (Copilot
// CLI's {path, file_text}, an MCP tool naming a path) is judged on every path-like argument; reads stay unexamined.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectClient } from '../../../src/clients/index';
import { GuardContext } from '../../../src/guard/context';
import { decide } from '../../../src/guard/entry';
import { FOREIGN_FILE, foreignWorld, verdict } from '../world';
import { denial, guard, ME, payload } from '../helpers';

const ENV = { ...process.env, GIT_HANDOFF_SESSION: ME };

describe('Copilot CLI and other unknown argument shapes: judged on every path-like argument', () => {
  it('a Write or Edit with {path, file_text}, an MCP tool naming a path; reads stay unexamined', async () => {
    const repo = await foreignWorld();
    const call = async (tool: string, input: Record<string, unknown>) => {
      const p = payload(repo, 'claude-code/pre-tool-use-write.json', { tool_name: tool, tool_input: input });
      const adapter = detectClient(p);
      const event = adapter.parse(p);
      return verdict(adapter.render(event, await decide(new GuardContext(event, ENV))) ?? '');
    };
    expect(await call('Write', { path: '.git/refs/handoffs/main/forged', file_text: '0'.repeat(40) })).toBe('deny');
    expect(await call('Edit', { path: FOREIGN_FILE, old_str: 'their', new_str: 'mine' })).toBe('deny');
    expect(await call('create', { path: path.join(repo.dir, FOREIGN_FILE), file_text: 'x' })).toBe('deny');
    expect(await call('mcp__fs__write_file', { target: { file: FOREIGN_FILE }, text: 'x' })).toBe('deny');
    expect(await call('Read', { path: FOREIGN_FILE })).toBe('allow');
    expect(await call('Write', { path: 'src/app.ts', file_text: 'x' })).toBe('allow');
    expect(await call('mcp__fs__write_file', { path: 'src/app.ts', text: 'x' })).toBe('allow');
    const real = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_name: 'Write', tool_input: { path: '.git/refs/handoffs/main/forged', file_text: 'x' } }));
    expect(denial(real)).toMatch(/ref store/);
  });
});
