// Refs read in this process (src/git/refs-read.ts) against git's for-each-ref: the leases as leases.ts writes them,
// loose, packed in packed-refs, a loose ref over its packed value, none at all, a session start's globs and branches;
// and each state where only git can say (objects packed, a symbolic ref, a name git would not take, GIT_DIR) is left
// to git (null).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRefsInProcess } from '../../src/git/refs-read';
import { openRepo } from '../../src/git/repo';
import { listLeases, touchLease } from '../../src/handoff/store/leases';
import { LEASE_PREFIX } from '../../src/handoff/store/names';
import { makeRepo, type TestRepo } from '../helpers/repo';

/** git's own listing of `patterns`, as listRefs reads it. */
function gitListing(repo: TestRepo, patterns: string[]) {
  const f = repo.git(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00', ...patterns]).stdout.split('\0');
  return Array.from({ length: Math.floor(f.length / 4) }, (_, i) => ({ ref: f[4 * i].replace(/^\n/, ''), oid: f[4 * i + 1], time: Number(f[4 * i + 2]), block: f[4 * i + 3] }));
}
const same = (repo: TestRepo, patterns = [LEASE_PREFIX]) => {
  const own = listRefsInProcess(openRepo(repo.dir), patterns);
  expect(own).not.toBeNull();
  expect(own!.map((r) => ({ ref: r.ref, oid: r.oid, time: r.time, block: r.block }))).toEqual(gitListing(repo, patterns));
  return own!;
};

/** Two leases, as the guard takes them, for two worktrees (one path with a space and a tab). */
function leased(): TestRepo {
  const repo = makeRepo({ commit: true });
  const r = openRepo(repo.dir);
  touchLease(r, 'session-a', r.worktree!, { minIntervalMs: 0 });
  touchLease(r, 'session-b', path.join(path.dirname(repo.dir), 'other wt\there'), { minIntervalMs: 0 });
  return repo;
}

describe('the leases read in this process', () => {
  const saved = process.env.GIT_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved;
  });

  it('none at all: an empty listing, as git gives', () => {
    const repo = makeRepo({ commit: true });
    expect(same(repo)).toEqual([]);
  });

  it('loose leases: the same records, and listLeases reads the same holders from them', () => {
    const repo = leased();
    const own = same(repo);
    expect(own).toHaveLength(2);
    const r = openRepo(repo.dir);
    expect(listLeases(r, own)).toEqual(listLeases(r));
    expect(listLeases(r, own).map((l) => l.session).sort()).toEqual(['session-a', 'session-b']);
  });

  it('packed in packed-refs (objects still loose), and a loose ref over its packed value', () => {
    const repo = leased();
    repo.git(['pack-refs', '--all']);
    same(repo);
    // a lease moved after packing: its loose file stands over the packed value
    const [a, b] = gitListing(repo, [LEASE_PREFIX]);
    repo.git(['update-ref', a.ref, b.oid, a.oid]);
    const own = same(repo);
    expect(own.find((x) => x.ref === a.ref)?.oid).toBe(b.oid);
  });

  it("a session start's listing: a branch's handoffs, each remote's by a glob, the branches", () => {
    const repo = leased();
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    for (const ref of ['refs/handoffs/main/a', 'refs/handoffs/mainx/b', 'refs/handoff-remotes/origin/handoffs/main/a', 'refs/handoff-remotes/up/handoffs/main/c', 'refs/handoff-remotes/up/handoffs/other/d', 'refs/heads/topic']) {
      repo.git(['update-ref', ref, head]);
    }
    repo.git(['pack-refs', '--all']);
    repo.git(['update-ref', 'refs/handoff-remotes/origin/handoffs/main/e', head]);
    const patterns = ['refs/handoffs/main/', 'refs/handoff-remotes/*/handoffs/main/*', 'refs/heads/'];
    expect(same(repo, patterns).map((r) => r.ref)).toEqual(['refs/handoff-remotes/origin/handoffs/main/a', 'refs/handoff-remotes/origin/handoffs/main/e', 'refs/handoff-remotes/up/handoffs/main/c', 'refs/handoffs/main/a', 'refs/heads/main', 'refs/heads/topic']);
    // a ref by its name (and what lies below it), one that is not there
    expect(same(repo, ['refs/heads/main', 'refs/handoffs/main', 'refs/notes/none']).map((r) => r.ref)).toEqual(['refs/handoffs/main/a', 'refs/heads/main']);
    // a worktree's own refs and a bracket glob are git's to list
    for (const p of [['refs/bisect/'], ['refs/heads/[a-z]*']]) expect(listRefsInProcess(openRepo(repo.dir), p), p[0]).toBeNull();
  });

  it('leaves to git what only git reads: packed objects, a symbolic ref, a name git would not take, trailer rules, GIT_DIR', () => {
    const packed = leased();
    packed.git(['gc', '-q', '--prune=now']);
    expect(listRefsInProcess(openRepo(packed.dir), [LEASE_PREFIX])).toBeNull();

    const symbolic = leased();
    symbolic.git(['symbolic-ref', `${LEASE_PREFIX}sym`, 'refs/heads/main']);
    expect(listRefsInProcess(openRepo(symbolic.dir), [LEASE_PREFIX])).toBeNull();

    const odd = leased();
    const dir = path.join(odd.dir, '.git', 'refs', 'handoff-leases');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'x.lock'), `${odd.git(['rev-parse', 'HEAD']).stdout.trim()}\n`);
    expect(listRefsInProcess(openRepo(odd.dir), [LEASE_PREFIX])).toBeNull();

    // git's trailer rules or comment character changed: its %(trailers) is not the default block
    const rules = leased();
    rules.git(['config', 'trailer.separators', '=']);
    expect(listRefsInProcess(openRepo(rules.dir), [LEASE_PREFIX])).toBeNull();

    const plain = leased();
    process.env.GIT_DIR = path.join(plain.dir, '.git');
    expect(listRefsInProcess(openRepo(plain.dir), [LEASE_PREFIX])).toBeNull();
  });
});
