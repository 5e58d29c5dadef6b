// src/guard/rules/pre-tool.ts against an attacker: a tool in a shape the guard does not know, given a directory or a
// pattern, is judged on what the pattern matches, the handoff files in the directory, and every one under it for a
// tool that deletes or moves; in-process and through the real sh front.
import { describe, expect, it } from 'vitest';
import { attackWorld, inProcess, throughFront } from '../spellings';
import { payload } from '../helpers';

describe('a tool in a shape the guard does not know, given a directory or a pattern', () => {
  it('judges what a pattern matches, the handoff files in a directory, and every one under it for a tool that deletes or moves', async () => {
    const w = await attackWorld();
    const call = (tool: string, input: Record<string, unknown>) => payload(w.repo, 'claude-code/pre-tool-use-write.json', { tool_name: tool, tool_input: input });
    const cases: Array<[string, Record<string, unknown>, 'deny' | 'allow']> = [
      ['mcp__fs__delete_directory', { dir: 'memory', recursive: true }, 'deny'],
      ['mcp__fs__delete', { path: '.' }, 'deny'],
      ['mcp__fs__move_file', { source: 'memory', destination: '/tmp/elsewhere' }, 'deny'],
      ['mcp__fs__delete', { pattern: 'memory/h*' }, 'deny'],
      ['mcp__notes__save', { target: { dir: 'memory' }, text: 'x' }, 'deny'],
      ['mcp__serena__list_dir', { relative_path: '.' }, 'allow'],
      ['mcp__fs__create_directory', { path: 'memory/scratch/new' }, 'allow'],
      ['mcp__fs__delete', { path: 'memory/scratch/tmp.txt' }, 'allow'],
      ['mcp__fs__delete_directory', { dir: 'memory/scratch' }, 'allow'],
    ];
    const wrong: string[] = [];
    for (const [i, [tool, input, expected]] of cases.entries()) {
      const p = call(tool, input);
      const r = await inProcess('claude-code', p);
      if (r.verdict !== expected) wrong.push(`in-process ${tool} ${JSON.stringify(input)}: ${r.verdict}`);
      if (i % 2 === 0) {
        const f = throughFront(w.repo, 'claude-code', p);
        if (f.verdict !== expected) wrong.push(`front ${tool} ${JSON.stringify(input)}: ${f.verdict}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
