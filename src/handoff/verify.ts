// Checks a handoff against the repository now: branch movement since Handoff-Head, files gone, dirty tree.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Repo } from '../git/repo';
import { readRef } from '../git/refs';

export interface Verify {
  head: 'same' | 'ahead' | 'behind' | 'rewritten' | 'unknown';
  commitsSince: number;
  missingFiles: string[];
  dirty: boolean;
}

/** Paths of uncommitted changes (staged, unstaged, untracked) in this worktree. */
export function dirtyPaths(repo: Repo, limit = 1000): string[] {
  if (!repo.worktree) return [];
  const r = repo.git(['status', '--porcelain=v1', '-z', '--no-renames'], { allowFail: true });
  if (r.status !== 0) return [];
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((e) => e.slice(3))
    .slice(0, limit);
}

/** Of the given paths, those present in the branch now: in the worktree when it is checked out here, else in its tree. */
export function existingPaths(repo: Repo, branch: string, paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  if (repo.worktree && repo.branch === branch) {
    return new Set(paths.filter((p) => existsSync(path.join(repo.worktree!, p))));
  }
  const r = repo.git(['ls-tree', '-r', '--name-only', `refs/heads/${branch}`, '--', ...paths], { allowFail: true });
  const files = r.stdout.split('\n').filter(Boolean);
  return new Set(paths.filter((p) => files.some((f) => f === p || f.startsWith(p + '/'))));
}

export function verifyHandoff(repo: Repo, branch: string, head: string | null, files: string[]): Verify {
  const here = repo.branch === branch && !!repo.worktree;
  const existing = existingPaths(repo, branch, files);
  const v: Verify = {
    head: 'unknown',
    commitsSince: 0,
    missingFiles: files.filter((f) => !existing.has(f)),
    dirty: here ? dirtyPaths(repo, 1).length > 0 : false,
  };
  const current = readRef(repo, `refs/heads/${branch}`);
  if (!head || !current) return v;
  if (head === current) return { ...v, head: 'same' };
  const r = repo.git(['rev-list', '--left-right', '--count', `${head}...${current}`], { allowFail: true });
  if (r.status !== 0) return { ...v, head: 'rewritten' };
  const [onlyHandoff, onlyNow] = r.stdout.trim().split(/\s+/).map(Number);
  if (onlyHandoff === 0) return { ...v, head: 'ahead', commitsSince: onlyNow };
  if (onlyNow === 0) return { ...v, head: 'behind', commitsSince: 0 };
  return { ...v, head: 'rewritten', commitsSince: onlyNow };
}
