// src/clients/event.ts (unknownShape) and src/guard/rules/pre-tool.ts (toolPathSpellings): an MCP or unknown tool's
// path argument is judged in every spelling the tool may take it in — `~/`, `$HOME/`, `${HOME}/`, a `file://` URI
// (percent-encoded, `localhost`), a line end after it, any length (`./././…`, `//`), relative to a `cwd` argument —
// in-process in each client's shape and through the real sh front; a reading tool and ordinary paths stay allowed.
import { describe, expect, it } from 'vitest';
import { inWorld, world5 } from './world-wired';
import { throughFront } from './spellings';
import { ME } from './helpers';
import { FOREIGN_FILE } from './world';

describe("an unknown tool's path arguments, in every spelling", () => {
  it('refuses protected paths however spelled, and allows reads and ordinary paths', async () => {
    const w = await world5();
    const call = (tool: string, input: Record<string, unknown>) => ({ hook_event_name: 'PreToolUse', session_id: ME, cwd: w.repo.dir, tool_name: tool, tool_input: input });
    const write = (input: Record<string, unknown>) => call('mcp__fs__write_file', { content: 'x', ...input });
    const D = w.repo.dir;
    const refused = [
      write({ path: '~/.gitconfig' }),
      write({ path: '$HOME/.gitconfig' }),
      write({ path: '${HOME}/.claude/settings.json' }),
      write({ path: `file://${D}/${FOREIGN_FILE}` }),
      write({ path: `file://localhost${D}/.git/config` }),
      write({ path: `file://${D}/.git/%63onfig` }),
      write({ uri: `file://${D}/.git/hooks/pre-commit` }),
      write({ path: `${D}/${FOREIGN_FILE}\n` }),
      write({ path: `.git/config\r\n` }),
      write({ path: `${'./'.repeat(2100)}${FOREIGN_FILE}` }),
      write({ path: `${D}${'//'.repeat(3000)}.git/config` }),
      write({ path: `./././${FOREIGN_FILE}` }),
      write({ path: `.//memory//handoff-main-auth-refactor.md` }),
      write({ cwd: `${D}/memory/scratch`, path: '../../.claude/settings.json' }),
      write({ working_directory: `${D}/memory`, file: 'handoff-main-auth-refactor.md' }),
      call('mcp__fs__move_file', { source: 'b.txt', destination: '~/.gitconfig' }),
    ];
    const allowed = [
      call('mcp__fs__read_file', { path: '~/.gitconfig' }),
      call('mcp__fs__read_text_file', { path: `file://${D}/${FOREIGN_FILE}` }),
      write({ path: '~/notes.txt' }),
      write({ path: 'src/a.ts', data: 'line one\n.git/config' }),
      write({ cwd: `${D}/src`, path: 'b.ts' }),
    ];
    const wrong: string[] = [];
    for (const [i, p] of [...refused, ...allowed].entries()) {
      const expected = i < refused.length ? 'deny' : 'allow';
      const r = await inWorld(w, 'claude-code', p);
      if (r.verdict !== expected) wrong.push(`in-process ${JSON.stringify(p.tool_input).slice(0, 160)}: ${r.verdict}`);
      if (i % 3 === 0) {
        const f = throughFront(w.repo, 'claude-code', p);
        if (f.verdict !== expected) wrong.push(`front ${JSON.stringify(p.tool_input).slice(0, 160)}: ${f.verdict}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a tool's name words: a reading tool of a handoff file passes, a writing one is judged on every path argument", async () => {
    const w = await world5();
    const call = (tool: string, input: Record<string, unknown>) => ({ hook_event_name: 'PreToolUse', session_id: ME, cwd: w.repo.dir, tool_name: tool, tool_input: input });
    const wrong: string[] = [];
    for (const tool of ['mcp__fs__read_file', 'mcp__fs__read_text_file', 'mcp__fs__readFile', 'mcp__fs__get_file_info', 'mcp__fs__list_directory']) {
      if ((await inWorld(w, 'claude-code', call(tool, { path: FOREIGN_FILE }))).verdict !== 'allow') wrong.push(`refused ${tool}`);
    }
    for (const tool of ['write_file', 'edit', 'create', 'move', 'rename', 'delete', 'append', 'patch', 'replace', 'read_write_file']) {
      for (const input of [{ path: FOREIGN_FILE }, { source: 'b.txt', destination: FOREIGN_FILE }, { from: FOREIGN_FILE, to: 'x.md' }]) {
        if ((await inWorld(w, 'claude-code', call(`mcp__fs__${tool}`, input))).verdict !== 'deny') wrong.push(`allowed ${tool} ${JSON.stringify(input)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
