// Checks a handoff against the repository now: branch movement since Handoff-Head, files gone, dirty tree.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Storage } from '../../git/storage';
import { installWrittenFiles, onlyInstallWritten } from '../state/install-record';

export interface Verify {
  head: 'same' | 'ahead' | 'behind' | 'rewritten' | 'unknown';
  /** commits on the branch now that the handoff's head does not contain */
  commitsSince: number;
  missingFiles: string[];
  dirty: boolean;
  /** Handoff-Ref paths and commits not there now (only when the version has references) */
  missingRefs?: string[];
  /** behind: a remote-tracking branch that has the commit it describes (the clone is merely not pulled) */
  pullFrom?: string;
}

/** Paths of uncommitted changes (staged, unstaged, untracked) in a worktree (default: this one). */
export function dirtyPaths(repo: Storage, limit = 1000, worktree: string | null = repo.worktree): string[] {
  if (!worktree) return [];
  const changed = repo.changedPaths(worktree);
  if (!changed) return [];
  // the agent settings and notes `install --agent` wrote, unchanged since, are not a session's work
  const installed = installWrittenFiles(repo.commonDir);
  return changed
    .filter((p) => !onlyInstallWritten(path.resolve(worktree, p), installed))
    .slice(0, limit);
}

/** The worktree that has `branch` checked out: this one first, else a linked one; null when none. */
export function worktreeOf(repo: Storage, branch: string): string | null {
  if (repo.worktree && repo.branch === branch) return repo.worktree;
  return repo.worktrees()?.find((w) => w.branch === branch && existsSync(w.path))?.path ?? null;
}

/** Of the given paths, those in the branch now (its worktree, else its committed tree); null without the branch. */
export function existingPaths(repo: Storage, branch: string, paths: string[], worktree = worktreeOf(repo, branch)): Set<string> | null {
  if (paths.length === 0) return new Set();
  if (worktree) return new Set(paths.filter((p) => existsSync(path.join(worktree, p))));
  const tip = repo.readRef(`refs/heads/${branch}`);
  if (!tip) return null;
  const found = repo.objectInfo(paths.map((p) => `${tip}:${p}`));
  return new Set(paths.filter((_, i) => found[i] !== null));
}

/** A Handoff-Head value git may be given: an object name in hex (SPEC 2: `<oid or "none">`), never an option or a revision expression. */
const OID_HEX = /^[0-9a-f]{4,64}$/;

/** Where the branch stands now against the commit the handoff describes (`head`, null for an unborn branch). */
function headState(repo: Storage, branch: string, head: string | null, tip?: string | null): Pick<Verify, 'head' | 'commitsSince' | 'pullFrom'> {
  const current = tip !== undefined ? tip : repo.readRef(`refs/heads/${branch}`);
  if (!current) return { head: head ? 'unknown' : 'same', commitsSince: 0 };
  if (!head) return { head: 'ahead', commitsSince: repo.revCount(current) ?? 0 };
  if (head === current) return { head: 'same', commitsSince: 0 };
  // the trailer is anyone's data: anything but hex never reaches git's command line
  if (!OID_HEX.test(head)) return { head: 'unknown', commitsSince: 0 };
  // a head this repository has never seen says nothing about the branch
  const counts = repo.leftRight(head, current);
  if (!counts) return { head: 'unknown', commitsSince: 0 };
  const [onlyHandoff, onlyNow] = counts;
  if (onlyHandoff === 0) return { head: 'ahead', commitsSince: onlyNow };
  if (onlyNow === 0) {
    // behind: merely not pulled when a remote-tracking branch has the commit (else it was reset away)
    const from = repo.firstRef(['refs/remotes/'], { contains: head, short: true });
    return { head: 'behind', commitsSince: 0, ...(from ? { pullFrom: from } : {}) };
  }
  return { head: 'rewritten', commitsSince: onlyNow };
}

// One `git status` per worktree per process: boot verifies many handoffs of one branch at once.
const dirtyCache = new WeakMap<Storage, Map<string, boolean>>();
function isDirty(repo: Storage, worktree: string): boolean {
  const cache = dirtyCache.get(repo) ?? new Map<string, boolean>();
  dirtyCache.set(repo, cache);
  if (!cache.has(worktree)) cache.set(worktree, dirtyPaths(repo, 1, worktree).length > 0);
  return cache.get(worktree)!;
}

/** The verification of SPEC 4; `branchTip`: the branch's commit when the caller read it (null: no such branch). */
export function verifyHandoff(repo: Storage, branch: string, head: string | null, files: string[], branchTip?: string | null): Verify {
  const worktree = worktreeOf(repo, branch);
  const existing = existingPaths(repo, branch, files, worktree);
  return {
    ...headState(repo, branch, head, branchTip),
    missingFiles: existing ? files.filter((f) => !existing.has(f)) : [],
    dirty: worktree ? isDirty(repo, worktree) : false,
  };
}

/** One line a person or an agent reads: how far the branch moved, what is gone, whether work is uncommitted. */
export function describeVerify(v: Verify): string {
  const head =
    v.head === 'same' ? 'branch unchanged since written'
    : v.head === 'ahead' ? `branch ${v.commitsSince} commit${v.commitsSince === 1 ? '' : 's'} ahead of what it describes`
    : v.head === 'behind' ? (v.pullFrom ? `branch is behind what it describes: not pulled? (${v.pullFrom} has it: git pull)` : 'branch is behind what it describes (reset?)')
    : v.head === 'rewritten' ? `branch rewritten since written (${v.commitsSince} commit${v.commitsSince === 1 ? '' : 's'} on another line)`
    : 'branch state unknown (no such branch here, or the commit it describes was never fetched)';
  const parts = [head];
  // the names came from a handoff's state.json and trailers: each one line, bounded
  const clean = (n: string) => [...n.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')].slice(0, 120).join('');
  const named = (what: string, list: string[]) => `${what}: ${list.slice(0, 5).map(clean).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`;
  if (v.missingFiles.length) parts.push(named('missing', v.missingFiles));
  if (v.missingRefs?.length) parts.push(named('missing refs', v.missingRefs));
  if (v.dirty) parts.push('worktree has uncommitted changes');
  return parts.join(' · ');
}
