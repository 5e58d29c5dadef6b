// Spellings of an attack, each driven through the real sh front (bin/git-handoff-guard, as the clients run it:
// `sh -c 'git-handoff-guard --client=<id>'`, the payload on stdin) in one client's shape, the client taken in turn, and
// in-process through every client's shape (Claude Code, Gemini CLI, Codex, Copilot CLI, Qwen Code); and the attacker's
// world they run in.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { detectClient, namedClient } from '../../src/clients/index';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import type { GuardClient } from '../../src/clients/event';
import { foreignWorld, verdict } from './world';
import { ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { ME, payload } from './helpers';

export const FRONT = path.join(ROOT, 'bin', 'git-handoff-guard');

/** A shell tool call in each client's own shape (Qwen Code and Copilot CLI as their native hooks give it). */
export const SHELLS: Array<{ client: GuardClient; make: (repo: TestRepo, command: string) => Record<string, unknown> }> = [
  { client: 'claude-code', make: (repo, command) => payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command, description: 'run' } }) },
  { client: 'gemini-cli', make: (repo, command) => payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command } }) },
  { client: 'codex', make: (repo, command) => payload(repo, 'codex/pre-tool-use-bash.json', { tool_input: { command } }) },
  { client: 'copilot', make: (repo, command) => ({ ...payload(repo, 'copilot/real-pre-tool-use-bash.json', { sessionId: ME }, null), toolArgs: { command, description: 'run' } }) },
  { client: 'qwen-code', make: (repo, command) => payload(repo, 'qwen-code/real-pre-tool-use-run-shell-command.json', { tool_input: { command, description: 'run' } }) },
];

const ENV = { ...process.env, GIT_HANDOFF_SESSION: ME };

/** The decision on a payload in-process, as the client named in the wiring (`--client=<id>`) reads it. */
export async function inProcess(client: GuardClient, p: Record<string, unknown>): Promise<{ verdict: string; reason: string }> {
  const adapter = detectClient(p, namedClient(['guard', `--client=${client}`]));
  const event = adapter.parse(p);
  const d = await decide(new GuardContext(event, ENV));
  return { verdict: verdict(adapter.render(event, d) ?? ''), reason: d.deny ?? '' };
}

/** The decision of the real front (and the node guard it hands over to) on a payload. */
export function throughFront(repo: TestRepo, client: GuardClient, p: Record<string, unknown>): { verdict: string; out: string } {
  const r = spawnSync('sh', ['-c', `"${FRONT}" --client=${client}`], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_SESSION: ME }, input: JSON.stringify(p), encoding: 'utf8', timeout: 60_000 });
  const out = r.stdout.trim();
  if (r.status !== 0) return { verdict: `exit ${r.status}: ${r.stderr.slice(0, 200)}`, out };
  try {
    return { verdict: verdict(out), out };
  } catch {
    return { verdict: `not an answer: ${out.slice(0, 200)}`, out };
  }
}

/**
 * Every command gets `expected` in every client's shape in-process and through the real front in one client's shape
 * (the client taken in turn); the commands not as expected are listed. `$EVIL`, `$EMPTY`, `$EVILREPO` name the world's
 * attacker-made directories.
 */
export async function expectShell(w: World, commands: string[], expected: 'deny' | 'allow', repo: TestRepo = w.repo): Promise<void> {
  const wrong: string[] = [];
  for (const [i, raw] of commands.entries()) {
    const command = w.fill(raw);
    for (const s of SHELLS) {
      const r = await inProcess(s.client, s.make(repo, command));
      if (r.verdict !== expected) wrong.push(`${s.client} in-process ${JSON.stringify(raw)}: ${r.verdict} ${r.reason.slice(0, 160)}`);
    }
    const s = SHELLS[i % SHELLS.length];
    const f = throughFront(repo, s.client, s.make(repo, command));
    if (f.verdict !== expected) wrong.push(`${s.client} front ${JSON.stringify(raw)}: ${f.verdict} ${f.out.slice(0, 160)}`);
  }
  expect(wrong).toEqual([]);
}

export interface World {
  repo: TestRepo;
  /** a directory outside the repository with a file named like the other session's handoff file, and a memory/ tree */
  evil: string;
  empty: string;
  /** a repository whose refs an attacker controls */
  evilRepo: string;
  fill: (command: string) => string;
}

/** foreignWorld (another session's handoff ref and protected file) and the attacker's material beside it. */
export async function attackWorld(): Promise<World> {
  const repo = await foreignWorld();
  const root = tempDir('gh-attack3-');
  const evil = path.join(root, 'evil');
  const empty = path.join(root, 'empty');
  const evilRepo = path.join(root, 'evilrepo');
  mkdirSync(path.join(evil, 'memory'), { recursive: true });
  mkdirSync(empty);
  writeFileSync(path.join(evil, 'handoff-main-auth-refactor.md'), 'overwritten\n');
  writeFileSync(path.join(evil, 'memory', 'handoff-main-auth-refactor.md'), 'overwritten\n');
  spawnSync('git', ['init', '-q', evilRepo], { env: repo.env });
  const fill = (c: string) => c.split('$EVILREPO').join(evilRepo).split('$EVIL').join(evil).split('$EMPTY').join(empty);
  return { repo, evil, empty, evilRepo, fill };
}
