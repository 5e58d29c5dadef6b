// src/guard/rules/files.ts against an attacker on the file tools: a second name of a handoff file planted outside the
// worktree, a path spelled in another case (one file on a case-insensitive filesystem), and an unknown tool whose path
// hides deep in its arguments or past the first 64 of them — through every client's file tool shape, in-process and
// through the real sh front.
import { linkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GuardClient } from '../../../src/clients/event';
import { tempDir, type TestRepo } from '../../helpers/repo';
import { ME, payload } from '../helpers';
import { attackWorld, inProcess, throughFront } from '../spellings';

const content = 'overwritten\n';

/** A file tool call writing `file`, in each client's own shape. */
const FILE_TOOLS: Array<{ client: GuardClient; make: (repo: TestRepo, file: string) => Record<string, unknown> }> = [
  { client: 'claude-code', make: (r, f) => payload(r, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: f, content } }) },
  { client: 'claude-code', make: (r, f) => payload(r, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: f, old_string: 'their', new_string: 'mine' } }) },
  { client: 'claude-code', make: (r, f) => payload(r, 'claude-code/pre-tool-use-multiedit.json', { tool_input: { file_path: f, edits: [{ old_string: 'their', new_string: 'mine' }] } }) },
  { client: 'gemini-cli', make: (r, f) => payload(r, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: f, content } }) },
  { client: 'gemini-cli', make: (r, f) => payload(r, 'gemini-cli/before-tool-replace.json', { tool_input: { file_path: f, old_string: 'their', new_string: 'mine' } }) },
  { client: 'codex', make: (r, f) => payload(r, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n*** Update File: ${f}\n@@\n-their note\n+mine\n*** End Patch` } }) },
  { client: 'copilot', make: (r, f) => ({ ...payload(r, 'copilot/real-pre-tool-use-create.json', { sessionId: ME }, null), toolArgs: { path: f, file_text: content } }) },
  { client: 'claude-code', make: (r, f) => payload(r, 'copilot/real-claude-pre-tool-use-write.json', { tool_input: { path: f, file_text: content } }) },
  { client: 'qwen-code', make: (r, f) => payload(r, 'qwen-code/real-pre-tool-use-write-file.json', { tool_input: { file_path: f, content } }) },
  { client: 'qwen-code', make: (r, f) => payload(r, 'qwen-code/real-pre-tool-use-edit.json', { tool_input: { file_path: f, old_string: 'their', new_string: 'mine' } }) },
];

/** Every file's decision in every shape in-process, and in one shape (taken in turn) through the real front. */
async function expectFiles(repo: TestRepo, files: string[], expected: 'deny' | 'allow'): Promise<void> {
  const wrong: string[] = [];
  for (const [i, f] of files.entries()) {
    for (const [k, t] of FILE_TOOLS.entries()) {
      const r = await inProcess(t.client, t.make(repo, f));
      if (r.verdict !== expected) wrong.push(`${t.client}#${k} in-process ${f}: ${r.verdict} ${r.reason.slice(0, 120)}`);
    }
    const t = FILE_TOOLS[i % FILE_TOOLS.length];
    const r = throughFront(repo, t.client, t.make(repo, f));
    if (r.verdict !== expected) wrong.push(`${t.client} front ${f}: ${r.verdict} ${r.out.slice(0, 120)}`);
  }
  expect(wrong).toEqual([]);
}

describe('file tools', () => {
  it('refuse writing through a hard link of another session\'s handoff file planted outside the worktree', async () => {
    const w = await attackWorld();
    const outside = path.join(tempDir('gh-attack3-link-'), 'notes.md');
    linkSync(path.join(w.repo.dir, 'memory', 'handoff-main-auth-refactor.md'), outside);
    await expectFiles(w.repo, [outside], 'deny');
  });

  it('refuse git\'s directory and handoff files spelled in another case', async () => {
    const w = await attackWorld();
    await expectFiles(w.repo, ['.GIT/refs/handoffs/main/forged', `${w.repo.dir}/.Git/packed-refs`, '.git/REFS/HANDOFFS/main/forged', '.git/Config', 'memory/HANDOFF-main-auth-refactor.MD'], 'deny');
    await expectFiles(w.repo, ['docs/handoff.md', 'src/GIT.md', `${w.empty}/x.md`], 'allow');
  });

  it('an unknown tool: a path nested deep in its arguments is judged, and past the bound the call is refused, never cut', async () => {
    const w = await attackWorld();
    const call = (input: Record<string, unknown>) => payload(w.repo, 'claude-code/pre-tool-use-write.json', { tool_name: 'mcp__fs__write', tool_input: input });
    let deep: Record<string, unknown> = { target: 'memory/handoff-main-auth-refactor.md' };
    for (let i = 0; i < 6; i++) deep = { inner: deep };
    const decoys = Array.from({ length: 70 }, (_, i) => `src/file-${i}.ts`);
    let tooDeep: Record<string, unknown> = { path: 'x' };
    for (let i = 0; i < 40; i++) tooDeep = { inner: tooDeep };
    const many = Array.from({ length: 1100 }, (_, i) => `src/f${i}.ts`);
    const cases: Array<[Record<string, unknown>, 'deny' | 'allow']> = [
      [deep, 'deny'],
      [{ files: [...decoys, 'memory/handoff-main-auth-refactor.md'] }, 'deny'],
      [tooDeep, 'deny'],
      [{ files: many }, 'deny'],
      [{ files: decoys }, 'allow'],
      [{ a: { b: { c: { d: { path: 'src/new.ts' } } } } }, 'allow'],
    ];
    const wrong: string[] = [];
    for (const [input, expected] of cases) {
      const r = await inProcess('claude-code', call(input));
      const f = throughFront(w.repo, 'claude-code', call(input));
      if (r.verdict !== expected || f.verdict !== expected) wrong.push(`${JSON.stringify(input).slice(0, 80)}: ${r.verdict}/${f.verdict} ${r.reason.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
