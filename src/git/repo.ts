// Repository discovery: where the git directories are, which branch is checked out, the object format.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { git, gitOut, type GitOptions, type GitResult } from './run';

export interface Repo {
  /** where git commands run (the worktree top, or the git dir of a bare repository) */
  cwd: string;
  gitDir: string;
  commonDir: string;
  /** null in a bare repository */
  worktree: string | null;
  bare: boolean;
  objectFormat: 'sha1' | 'sha256';
  /** the checked-out branch (short name), null when HEAD is detached */
  branch: string | null;
  git(args: string[], opts?: GitOptions): GitResult;
  out(args: string[], opts?: GitOptions): string;
}

export function openRepo(start: string = process.cwd()): Repo {
  const r = git(
    ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format', '--show-toplevel'],
    { cwd: start, allowFail: true },
  );
  const lines = r.stdout.split('\n');
  if (lines.length < 5 || !lines[0]) {
    throw new HandoffError('environment', 'not-a-repository', `not a git repository: ${start}`, { path: start, stderr: r.stderr.trim() });
  }
  const [gitDir, commonDir, bareFlag, fmt, top] = lines;
  const bare = bareFlag === 'true';
  const worktree = bare || !top ? null : top;
  const cwd = worktree ?? gitDir;
  return {
    cwd,
    gitDir,
    commonDir,
    worktree,
    bare,
    objectFormat: fmt === 'sha256' ? 'sha256' : 'sha1',
    branch: readHeadBranch(gitDir),
    git: (args, opts = {}) => git(args, { cwd, ...opts }),
    out: (args, opts = {}) => gitOut(args, { cwd, ...opts }),
  };
}

/** Reads HEAD directly: one file read instead of a process, and it works on an unborn branch. */
function readHeadBranch(gitDir: string): string | null {
  try {
    // only the final newline goes: a branch name may hold (or end in) U+2028 and similar, which trim() and '.' drop
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').replace(/\r?\n$/, '');
    const m = /^ref: refs\/heads\/(.+)$/s.exec(head);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

/** The all-zero object id of this repository's hash. */
export const zeroOid = (repo: Pick<Repo, 'objectFormat'>) => '0'.repeat(repo.objectFormat === 'sha256' ? 64 : 40);
