// What the loss record's tests share: a repository with handoffs the record has verified, and raw git with no hooks.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { unchangedSinceCheck } from '../../../src/handoff/record/record-check';
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';

export const REF = 'refs/handoffs/main/login-redirect-loop';
export const OTHER_REF = 'refs/handoffs/main/cache-warmup-plan';
export const RECORD = 'refs/handoff-record';

/** raw git with no hooks at all: nothing of the product runs */
export const raw = (repo: TestRepo, args: string[], input?: string) => repo.git(['-c', 'core.hooksPath=/dev/null', ...args], { input });

/** Two versions of login-redirect-loop by sess-owner, cache-warmup-plan by sess-other; a `list` found them in place. */
export async function seeded(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
  await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner']);
  await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warm', '--session', 'sess-other']);
  await ok(repo, ['list']);
  return repo;
}

/** Writes `oid` into the loose ref file itself: same inode, same size, its mtime put back with touch -r. */
export function rewriteInPlace(repo: TestRepo, oid: string) {
  const file = path.join(repo.dir, '.git', REF);
  const stamp = path.join(repo.home, 'stamp');
  const before = statSync(file);
  execFileSync('touch', ['-r', file, stamp]);
  expect(readFileSync(file, 'utf8')).toHaveLength(oid.length + 1);
  writeFileSync(file, `${oid}\n`);
  execFileSync('touch', ['-r', stamp, file]);
  const after = statSync(file);
  expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
  // what the check at command start sees is unchanged: only the ref's content tells
  expect(unchangedSinceCheck(openRepo(repo.dir).commonDir)).toBe(true);
}

/** A version by another session on top of `parent`, with the handoff's tree. */
export function rogueCommit(repo: TestRepo, parent: string): string {
  const tree = repo.git(['rev-parse', `${REF}^{tree}`]).stdout.trim();
  const msg = `handoff(login-redirect-loop): mine now\n\nClaude-Session-Id: sess-rogue\nHandoff-Branch: main\nHandoff-Topic: login-redirect-loop\nHandoff-Head: none\nHandoff-Client: cli\n`;
  return repo.git(['commit-tree', tree, '-p', parent, '-F', '-'], { input: msg }).stdout.trim();
}

/** The record's shelves of `spec` read by git, one after the other: every line it holds. */
export const recordText = (repo: TestRepo, spec = RECORD) =>
  repo
    .git(['ls-tree', '--name-only', spec])
    .stdout.split('\n')
    .filter(Boolean)
    .map((name) => repo.git(['cat-file', 'blob', `${spec}:${name}`]).stdout)
    .join('');

/** The tree of the record at `spec` with its shelf of branch main edited by `edit` (made with raw git), its other shelves kept. */
export function recordTreeWith(repo: TestRepo, spec: string, edit: (text: string) => string): string {
  const blob = raw(repo, ['hash-object', '-w', '--stdin'], edit(repo.git(['cat-file', 'blob', `${spec}:main`]).stdout)).stdout.trim();
  const others = repo.git(['ls-tree', spec]).stdout.split('\n').filter((l) => l && !l.endsWith('\tmain'));
  return raw(repo, ['mktree'], [...others, `100644 blob ${blob}\tmain`].map((l) => `${l}\n`).join('')).stdout.trim();
}
