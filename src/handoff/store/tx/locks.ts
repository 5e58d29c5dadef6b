// What a git lock file that stopped an update is: its age, and whether a live git process here may hold it.
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../../../errors';
import { lockFileNamed } from '../../../git/messages';
import { worktreesOf } from '../../../git/refs-read';
import type { Storage } from '../../../git/storage';
import { readTextOr, statOr } from '../../../read-file';
import { AGAIN, LOCK_HELD, LOCK_WAIT_MS, retrying } from '../../../retry';
import { shellQuote } from '../../../terminal-text';
import { parentOf } from '../../state/lineage-record';

/** Where a lock's repository is (a repository on this machine that is not this one too). */
export type LockPlace = Pick<Storage, 'worktree' | 'gitDir' | 'commonDir'>;

interface LockState {
  lockFile: string;
  /** milliseconds since the lock file was last written; null: it is gone */
  ageMs: number | null;
  /** a live git process working in this repository (it may hold the lock); null: none found; undefined: cannot tell */
  holder: { pid: number; command: string } | null | undefined;
}

// A git process holds a ref lock for milliseconds (plus a hook's run): older than this with no git running, it was left behind.
const STALE_AFTER_MS = 2_000;

const within = (p: string, dir: string | null) => !!dir && (p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep));

/** This process and its ancestors, from /proc: `git handoff` runs under a git process that waits for it and holds no lock. */
function selfAndAncestors(): Set<number> {
  const out = new Set([process.pid]);
  for (let pid: number | null = process.ppid; pid !== null && pid > 1 && !out.has(pid); pid = parentOf(pid)) out.add(pid);
  return out;
}

/** The repository directories git's argv or environment names for a process (-C, --git-dir, GIT_DIR…), resolved against its cwd. */
function namedDirs(argv: string[], environ: string[], cwd: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if ((a === '-C' || a === '--git-dir' || a === '--work-tree') && argv[i + 1]) out.push(argv[++i]);
    else if (a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) out.push(a.slice(a.indexOf('=') + 1));
    else if (!a.startsWith('-')) break; // the subcommand: what follows is its own
  }
  for (const e of environ) if (/^GIT_(DIR|COMMON_DIR|WORK_TREE)=/.test(e)) out.push(e.slice(e.indexOf('=') + 1));
  return out.map((d) => path.resolve(cwd, d));
}

/**
 * A live git process working in this repository (by cwd, arguments or environment, from /proc), not counting this
 * process's ancestors, which wait for it. undefined: cannot tell; null only when every git process is provably elsewhere.
 */
function gitProcessIn(repo: LockPlace): { pid: number; command: string } | null | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  const mine = selfAndAncestors();
  // every worktree shares the refs: a git process in any of them may hold the lock
  const dirs = [repo.worktree, repo.gitDir, repo.commonDir, ...worktreesOf(repo.commonDir)];
  let unreadable = false;
  for (const p of pids) {
    const pid = Number(p);
    if (mine.has(pid)) continue;
    // no command line: gone meanwhile
    const argv = readTextOr(`/proc/${p}/cmdline`)?.split('\0').filter(Boolean);
    if (!argv?.length || !/^git(-|$)/.test(path.basename(argv[0]))) continue;
    try {
      const cwd = readlinkSync(`/proc/${p}/cwd`);
      // unreadable environment: the cwd and arguments still say where it works
      const environ = readTextOr(`/proc/${p}/environ`)?.split('\0') ?? [];
      if ([cwd, ...namedDirs(argv, environ, cwd)].some((c) => dirs.some((d) => within(c, d)))) return { pid, command: argv.slice(0, 4).join(' ') };
    } catch (e) {
      // gone meanwhile (ENOENT), or a process whose directory this user cannot read: it may be the holder
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') unreadable = true;
    }
  }
  return unreadable ? undefined : null;
}

export function inspectLock(repo: LockPlace, lockFile: string): LockState {
  const before = statOr(lockFile);
  if (!before) return { lockFile, ageMs: null, holder: null };
  const holder = gitProcessIn(repo);
  if (holder === null) {
    // only the same lock file, still there after the scan, was left behind (another writer may have taken a new one)
    const after = statOr(lockFile);
    if (!after) return { lockFile, ageMs: null, holder: null };
    if (after.ino !== before.ino || after.mtimeMs !== before.mtimeMs) return { lockFile, ageMs: Math.max(0, Date.now() - after.mtimeMs), holder: undefined };
  }
  return { lockFile, ageMs: Math.max(0, Date.now() - before.mtimeMs), holder };
}

/** Left behind: old enough, and no git process runs here (or, without /proc to tell, much older). */
export const isStale = (s: LockState) => s.ageMs !== null && (s.holder === null ? s.ageMs >= STALE_AFTER_MS : s.holder === undefined && s.ageMs >= 60_000);

/** Not waited out further: left behind, this lock file LOCK_WAIT_MS old (not the wait: others' turns lengthen it), or `deadline` passed. */
export const heldTooLong = (s: LockState, deadline = Infinity) => isStale(s) || (s.ageMs ?? 0) >= LOCK_WAIT_MS || Date.now() >= deadline;

function describeAge(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

/** The one error for a ref update stopped by a lock (exit 4, ref-locked); only a lock nothing holds comes with its `rm`. */
export function lockError(ref: string, s: LockState, waitedMs: number): HandoffError {
  const age = s.ageMs === null ? 'gone by now' : `${describeAge(s.ageMs)} old`;
  const data = { ref, lockFile: s.lockFile, lockAgeMs: s.ageMs, holder: s.holder ?? null, liveHolder: !!s.holder };
  const who = s.holder ? `git process ${s.holder.pid} (${s.holder.command}) is working in this repository and may hold it` : s.holder === null ? 'it was just taken' : 'another process may hold it';
  const message = isStale(s)
    ? `${ref} cannot be updated: its lock file ${s.lockFile} is ${age} and ${s.holder === null ? 'no git process is running in this repository' : 'nothing says a process still holds it'}:\n` +
      `a crashed git process left it behind; nothing was written. Check that no git command is running here, then remove it:\n  rm ${shellQuote(s.lockFile)}\n` +
      `(git-handoff never deletes a lock itself)`
    : `${ref} stayed locked for ${describeAge(waitedMs)} of waiting: ${s.lockFile} (${age}); ${who}. Nothing was written; try again when it is done.`;
  return new HandoffError('concurrent', 'ref-locked', message, data);
}

/** The ref a lock file in this repository guards (the path itself when it is not one of the repository's). */
export function refOfLock(repo: LockPlace, lockFile: string): string {
  for (const dir of [repo.commonDir, repo.gitDir]) {
    if (lockFile.startsWith(dir + '/')) return lockFile.slice(dir.length + 1).replace(/\.lock$/, '');
  }
  return lockFile;
}

/** Waits out a lock that stopped a git command taking its own locks (a fetch) until it is gone; else throws lockError. */
export function waitOutLock(repo: LockPlace, ref: string, lockFile: string): void {
  const started = Date.now();
  retrying((wait) => {
    const lock = inspectLock(repo, lockFile);
    if (lock.ageMs === null) return;
    if (heldTooLong(lock, started + LOCK_WAIT_MS)) throw lockError(ref, lock, Date.now() - started);
    wait(LOCK_HELD);
    return AGAIN;
  });
}

/** The lock file in this repository git named in `stderr` as in its way ("Unable to create '…lock': File exists"), else null. */
export function localLockIn(repo: Storage, stderr: string): string | null {
  const file = lockFileNamed(repo.cwd, stderr);
  return file && [repo.commonDir, repo.gitDir].some((d) => within(file, d)) ? file : null;
}
