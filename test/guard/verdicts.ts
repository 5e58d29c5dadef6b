// The guard's decision on a shell command in every client's payload shape, in-process (detectClient → decide →
// render), for tests that list many commands with the verdict each must get.
import { expect } from 'vitest';
import { detectClient } from '../../src/clients/index';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { SHELL_CLIENTS, verdict } from './world';
import type { TestRepo } from '../helpers/repo';
import { guard, ME, payload } from './helpers';

const ENV = { ...process.env, GIT_HANDOFF_SESSION: ME };

/** 'deny' or 'allow' when every client shape agrees (else the disagreement), and the first shape's reason. */
export async function shellVerdict(repo: TestRepo, command: string, clients = SHELL_CLIENTS): Promise<{ verdict: string; reason: string }> {
  const seen: Array<{ verdict: string; reason: string }> = [];
  for (const { make } of clients) {
    const p = make(repo, command);
    const adapter = detectClient(p);
    const event = adapter.parse(p);
    const d = await decide(new GuardContext(event, ENV));
    seen.push({ verdict: verdict(adapter.render(event, d) ?? ''), reason: d.deny ?? '' });
  }
  const verdicts = new Set(seen.map((s) => s.verdict));
  return { verdict: verdicts.size === 1 ? seen[0].verdict : `clients disagree: ${seen.map((s) => s.verdict).join(',')}`, reason: seen[0].reason };
}

/** Every command gets `expected` in every client shape (and, for a refusal, a reason matching `reason`). */
export async function expectAll(repo: TestRepo, commands: string[], expected: 'deny' | 'allow', reason?: RegExp, clients = SHELL_CLIENTS): Promise<void> {
  const wrong: string[] = [];
  for (const c of commands) {
    const r = await shellVerdict(repo, c, clients);
    if (r.verdict !== expected) wrong.push(`${JSON.stringify(c)}: ${r.verdict} ${r.reason.slice(0, 160)}`);
    else if (reason && !reason.test(r.reason)) wrong.push(`${JSON.stringify(c)}: reason ${r.reason.slice(0, 200)}`);
  }
  expect(wrong).toEqual([]);
}

/** The shell shapes the attack-class tests run in: every client's but Cursor's. */
export const NOT_CURSOR = SHELL_CLIENTS.filter((c) => c.client !== 'cursor');

/** shellVerdict in those shapes. */
export const shellNotCursor = (repo: TestRepo, command: string) => shellVerdict(repo, command, NOT_CURSOR);

/** expectAll in those shapes. */
export const expectAllNotCursor = (repo: TestRepo, commands: string[], expected: 'deny' | 'allow') => expectAll(repo, commands, expected, undefined, NOT_CURSOR);

/** The real `git-handoff guard` on a shell call in the shape of NOT_CURSOR[client]. */
export const realShell = (repo: TestRepo, command: string, client = 0, env: Record<string, string> = {}) => guard(repo, NOT_CURSOR[client].make(repo, command), { GIT_HANDOFF_SESSION: ME, ...env });

/** A file tool call in each client's shape (Write, Gemini write_file, and Edit), in-process. */
export async function fileTool(repo: TestRepo, file: string, content = `<!-- claude-session: ${ME} -->\nmine\n`): Promise<string[]> {
  const calls = [
    payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content } }),
    payload(repo, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: file, content } }),
    payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: file, old_string: 'their', new_string: 'mine' } }),
  ];
  const out: string[] = [];
  for (const p of calls) {
    const adapter = detectClient(p);
    const event = adapter.parse(p);
    out.push(verdict(adapter.render(event, await decide(new GuardContext(event, ENV))) ?? ''));
  }
  return out;
}
