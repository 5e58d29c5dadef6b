// What sync keeps of a remote lives under refs/handoff-remotes/<R>/ (SPEC 7), out of git's own namespaces: branch lists,
// pickers and log decorations never show handoffs, claims, receipts or records, and a pruning fetch or pull of the code
// remote never removes them (issue 53).
import { describe, expect, it } from 'vitest';
import { json, refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'sess-ns-1' };
const REF = 'refs/handoffs/main/auth-refactor';

/** Every ref of a family the product keeps, whatever namespace holds it. */
const productRefs = (r: TestRepo) =>
  r.git(['for-each-ref', '--format=%(refname)']).stdout.split('\n').filter((l) => /handoff|claims|handoff-reads/.test(l));

/** A clone that wrote, archived, read, claimed and synced: every family sync carries is there. */
async function synced() {
  const w = await makeWorld('file');
  const { a } = w;
  a.git(['push', '-q', 'origin', 'main']);
  await ok(a, ['write', 'auth-refactor', '-m', 'Goal: one'], 0, S);
  await ok(a, ['write', 'old-spike-notes', '-m', 'Goal: two'], 0, S);
  await ok(a, ['archive', 'old-spike-notes'], 0, S);
  await ok(a, ['show', 'auth-refactor'], 0, { GIT_HANDOFF_SESSION: 'reader-1' });
  await ok(a, ['claim', 'src/auth/', '--session', 'sess-ns-1']);
  await ok(a, ['sync'], 0, S);
  return w;
}

describe('the tracking namespace', () => {
  it('after sync, git branch -r / -a, log decorations and switch see no handoff, archive, claims, receipts or record', async () => {
    const { a } = await synced();
    // everything sync keeps of the remote is there, under the product's own namespace
    const kept = productRefs(a).filter((r) => r.startsWith('refs/handoff-remotes/origin/'));
    for (const family of ['handoffs/main/auth-refactor', 'handoff-archive/main/old-spike-notes/', 'notes/handoff-reads', 'claims/main', 'handoff-records/']) {
      expect(kept.some((r) => r.includes(`/origin/${family}`)), `${family} in ${kept.join(' ')}`).toBe(true);
    }
    expect(a.git(['for-each-ref', 'refs/remotes/']).stdout.trim()).toBe(a.git(['for-each-ref', 'refs/remotes/origin/main']).stdout.trim());
    for (const args of [['branch', '-r'], ['branch', '-a'], ['branch', '-a', '--list', '*handoff*']]) {
      const out = a.git(args).stdout;
      expect(out, args.join(' ')).not.toMatch(/handoff|claims/);
    }
    expect(a.git(['branch', '-r']).stdout.trim()).toBe('origin/main');
    // git log --all walks every ref, but its default decorations name branches, tags and remote branches only
    const decorations = a.git(['log', '--all', '--format=%D']).stdout;
    expect(decorations).not.toMatch(/handoff|claims/);
    expect(decorations).toContain('origin/main');
    // a picker's guess finds no remote branch to make a local branch of (before: `git switch claims/main` made one)
    for (const name of ['claims/main', 'handoffs/main/auth-refactor', 'notes/handoff-reads']) expect(a.git(['switch', '-q', name], { allowFail: true }).status, name).not.toBe(0);
    expect(a.git(['branch', '--list']).stdout.trim()).toBe('* main');
  });

  it('git pull with fetch.prune=true leaves list, drop and sync right (and so does a plain git fetch --prune)', async () => {
    const { a, b } = await synced();
    a.git(['config', 'fetch.prune', 'true']);
    b.git(['fetch', '-q', 'origin', 'main']);
    b.git(['reset', '-q', '--hard', 'FETCH_HEAD']);
    b.commit('code', { 'a.txt': 'x\n' });
    b.git(['push', '-q', 'origin', 'HEAD:main']);
    a.git(['pull', '-q', '--no-rebase', 'origin', 'main']);
    a.git(['fetch', '-q', '--prune', 'origin']);
    expect(refOf(a, 'refs/handoff-remotes/origin/handoffs/main/auth-refactor')).toBe(refOf(a, REF));
    const rows = json(await ok(a, ['list', '--json'], 0, S));
    expect(rows.find((r: { topic: string }) => r.topic === 'auth-refactor').sync).toBe('synced');
    // drop refuses a handoff that is on the remote (archive it instead)
    const drop = await a.cli(['drop', 'auth-refactor'], { env: S });
    expect(drop.exitCode, String(drop.stderr)).toBe(2);
    expect(refOf(a, REF)).not.toBeNull();
    // and sync has nothing new to bring or push
    const s = json(await ok(a, ['sync', '--json'], 0, S));
    expect(s.fetch.counts.new).toBe(0);
    expect(s.push.updates.filter((u: { status: string }) => u.status === 'pushed')).toEqual([]);
  }, 120_000);

  it('with install --remote, a plain git fetch fills the same namespace, and a pruning pull still leaves sync right', async () => {
    const { a, b, bare } = await synced();
    await ok(b, ['install', '--remote', 'origin']);
    expect(b.git(['config', '--get-all', 'remote.origin.fetch']).stdout).toContain('+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*');
    b.git(['config', 'fetch.prune', 'true']);
    b.git(['fetch', '-q']);
    // b's first commit is its own (made apart from a's, the same only when both fell in one second): b starts from a's
    b.git(['reset', '-q', '--hard', 'origin/main']);
    b.git(['branch', '-q', '--set-upstream-to=origin/main']);
    b.git(['pull', '-q', '--no-rebase']);
    expect(refOf(b, 'refs/handoff-remotes/origin/handoffs/main/auth-refactor')).toBe(refOf(bare, REF));
    expect(b.git(['branch', '-a']).stdout).not.toMatch(/handoff|claims/);
    // the remote archives it (a's owner), b's pruning pull removes the tracking copy, and b's sync takes the archive in
    await ok(b, ['fetch'], 0, S);
    await ok(a, ['archive', 'auth-refactor'], 0, S);
    await ok(a, ['sync'], 0, S);
    b.git(['pull', '-q', '--no-rebase']);
    expect(refOf(b, 'refs/handoff-remotes/origin/handoffs/main/auth-refactor')).toBeNull();
    const s = json(await ok(b, ['sync', '--json'], 0, S));
    expect(s.push.updates.filter((u: { ref: string; status: string }) => u.ref === REF && u.status === 'pushed')).toEqual([]);
    expect(refOf(bare, REF)).toBeNull();
    expect(refOf(b, REF)).toBeNull();
  }, 120_000);
});
