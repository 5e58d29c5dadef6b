// Shared by the hook tests: a repository with the stubs installed through the real CLI, and ways to
// record what another session did (ledger entries, leases) at a chosen time.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { openRepo } from '../../src/git/repo';
import { appendLedger } from '../../src/handoff/state/ledger';
import { touchLease } from '../../src/handoff/store/leases';
import { makeRepo, tempDir, type RepoOptions, type TestRepo } from '../helpers/repo';

export const A = 'aaaaaaaa-1111-session-a';
export const B = 'bbbbbbbb-2222-session-b';

/** A repository with a first commit and `git handoff install --hooks` done. */
export async function hookedRepo(o: RepoOptions = {}): Promise<TestRepo> {
  const repo = makeRepo({ commit: true, ...o });
  const r = await repo.cli(['install', '--hooks']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return repo;
}

/** Runs git as `session` (GIT_HANDOFF_SESSION), or as a person when null; never throws. */
export const gitAs = (repo: TestRepo, session: string | null, args: string[], extra: Record<string, string> = {}) =>
  repo.git(args, { allowFail: true, env: { ...(session ? { GIT_HANDOFF_SESSION: session } : {}), ...extra } });

export const head = (repo: TestRepo) => repo.git(['rev-parse', 'HEAD']).stdout.trim();
export const messageOf = (repo: TestRepo, rev = 'HEAD') => repo.git(['log', '-1', '--format=%B', rev]).stdout;

/** Records that `session` wrote `paths` in the repository's worktree, `agoMs` ago (as the guard does). */
export function ledgerWrite(repo: TestRepo, session: string, paths: string[], agoMs = 0, worktree?: string): void {
  const r = openRepo(repo.dir);
  appendLedger(r.commonDir, { t: Date.now() - agoMs, session, worktree: worktree ?? r.worktree!, paths });
}

/** Gives `session` the worktree's lease with a heartbeat `agoMs` ago. */
export function lease(repo: TestRepo, session: string, agoMs = 0): void {
  const r = openRepo(repo.dir);
  const saved = process.env.GIT_COMMITTER_DATE;
  process.env.GIT_COMMITTER_DATE = `@${Math.floor((Date.now() - agoMs) / 1000)} +0000`;
  try {
    touchLease(r, session, r.worktree!, { now: Date.now() - agoMs, minIntervalMs: 0 });
  } finally {
    if (saved === undefined) delete process.env.GIT_COMMITTER_DATE;
    else process.env.GIT_COMMITTER_DATE = saved;
  }
}

/** An executable script. */
export function script(file: string, text: string): string {
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

export const hooksDir = (repo: TestRepo) => path.join(repo.dir, '.git', 'hooks');

/** A hooked repository where live session A wrote and staged shared.txt, so B's commit of it is refused. */
export async function blockedByA(): Promise<TestRepo> {
  const repo = await hookedRepo();
  repo.write('shared.txt', 'A wrote this\n');
  ledgerWrite(repo, A, ['shared.txt']);
  lease(repo, A);
  repo.git(['add', '-A']);
  expect(gitAs(repo, B, ['commit', '-q', '-m', 'blocked']).status).toBe(1);
  return repo;
}

/**
 * shared.txt committed as v1 by a person, then changed by session A's commit (v2), and staged as v1 again: what takes
 * A's commit back. Returns HEAD (A's commit).
 */
export function stagedTakeBack(repo: TestRepo): string {
  repo.write('shared.txt', 'v1\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'base']);
  repo.write('shared.txt', 'v2 by A\n');
  repo.git(['add', '-A']);
  expect(gitAs(repo, A, ['commit', '-q', '-m', 'A changes it']).status).toBe(0);
  const at = head(repo);
  repo.write('shared.txt', 'v1\n');
  repo.git(['add', '-A']);
  return at;
}

/** A `node` first on PATH that notes each start's arguments, then runs the real node: which git-handoff processes ran. */
export function nodeSpy(): { env: Record<string, string>; starts: () => string[] } {
  const dir = tempDir('gh-node-spy-');
  const log = path.join(dir, 'starts');
  script(path.join(dir, 'node'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  return { env: { PATH: `${dir}:${process.env.PATH}` }, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}
