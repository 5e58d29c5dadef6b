// Shared by the fault tests: the product run the way a person and a hook run it (`git handoff …`, git's own
// dispatch to git-handoff on PATH, so a git process is this command's parent), and lock files aged by hand.
import { utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { execa, type Result } from 'execa';
import { BIN, type TestRepo } from './repo';

const BIN_DIR = path.dirname(BIN);

/** `git handoff <args>` through git's dispatch (PATH holds the built bin), never throws. */
export function viaGit(repo: TestRepo, args: string[], o: { env?: Record<string, string | undefined>; cwd?: string; input?: string; timeout?: number } = {}): Promise<Result> {
  const env = { ...repo.env, PATH: `${BIN_DIR}:${repo.env.PATH ?? ''}`, ...o.env };
  return execa('git', ['handoff', ...args], { cwd: o.cwd ?? repo.dir, env, extendEnv: false, input: o.input ?? '', reject: false, timeout: o.timeout ?? 120_000 });
}

/** Leaves a lock file at `rel` under the repository's .git, as a crashed git would, `ageS` seconds old. */
export function leaveLock(repo: TestRepo, rel: string, ageS = 10): string {
  const file = path.join(repo.dir, '.git', rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  const t = Date.now() / 1000 - ageS;
  utimesSync(file, t, t);
  return file;
}
