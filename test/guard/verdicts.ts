// The guard's decision on a shell command in every client's payload shape, in-process (detectClient → decide →
// render), for tests that list many commands with the verdict each must get.
import { expect } from 'vitest';
import { detectClient } from '../../src/clients/index';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { SHELL_CLIENTS, verdict } from '../fuzz/world';
import type { TestRepo } from '../helpers/repo';
import { ME } from './helpers';

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
