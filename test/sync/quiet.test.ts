// A sync with nothing to do costs about its fetch (issue 57): after a sync that ended clean, when no local ref moved
// and the fetch changed nothing, no ref is read and nothing is planned; anything that moved on either side since (a
// write, a plain `git fetch` through the refspecs, a pruning pull) takes the whole way.
import { describe, expect, it } from 'vitest';
import { json, refOf, tempDir } from '../helpers/repo';
import { gitRecorder, makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'sess-quiet-1' };
const readsHandoffs = (calls: string[][]) => calls.filter((c) => c[0] === 'for-each-ref' && c.some((x) => x.startsWith('refs/handoffs')));

describe('sync with nothing to do', () => {
  it('reads no ref after a clean sync, and takes the whole way again as soon as anything moved', async () => {
    const { a, b, bare } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: one'], 0, S);
    await ok(a, ['sync'], 0, S);
    await ok(b, ['sync'], 0, S);
    const quiet = async (repo: typeof a) => {
      const r = gitRecorder(tempDir());
      // GIT_REF_PARANOIA: every listing through git (none read in-process), so the recorder sees each
      const out = await ok(repo, ['sync', '--json'], 0, { ...S, ...r.env, GIT_REF_PARANOIA: '1' });
      return { out: json(out), calls: r.calls() };
    };
    const idle = await quiet(a);
    expect(readsHandoffs(idle.calls)).toEqual([]);
    expect(idle.calls.filter((c) => c[0] === 'push')).toEqual([]);
    // the claims tables, here and as fetched, are read once: for what changed outside, what to publish and the state file
    expect(idle.calls.filter((c) => c[0] === 'for-each-ref' && c.some((x) => x.startsWith('refs/claims')))).toHaveLength(1);
    expect(idle.out.fetch.counts).toEqual({ new: 0, same: 0, 'local-ahead': 0, 'remote-ahead': 0, diverged: 0 });

    // a local write: pushed
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: two'], 0, S);
    const after = await quiet(a);
    expect(after.out.push.updates.filter((u: { status: string }) => u.status === 'pushed').map((u: { ref: string }) => u.ref)).toContain('refs/handoffs/main/auth-refactor');
    expect(refOf(bare, 'refs/handoffs/main/auth-refactor')).toBe(refOf(a, 'refs/handoffs/main/auth-refactor'));

    // a plain git fetch through the refspecs install --remote adds: the next sync still takes the new version in
    await ok(b, ['install', '--remote', 'origin']);
    expect(readsHandoffs((await quiet(b)).calls)).not.toEqual([]); // b's first sync after a's write fetched it
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: three'], 0, S);
    await ok(a, ['sync'], 0, S);
    b.git(['fetch', '-q', 'origin']);
    const taken = await quiet(b);
    expect(taken.out.fetch.counts['remote-ahead']).toBe(1);
    expect(refOf(b, 'refs/handoffs/main/auth-refactor')).toBe(refOf(a, 'refs/handoffs/main/auth-refactor'));
    // and a sync that ends with something left (a divergence) never takes the short way after it
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: a side'], 0, S);
    await ok(b, ['write', 'auth-refactor', '-m', 'Goal: b side'], 0, S);
    await ok(a, ['sync'], 0, S);
    await ok(b, ['sync'], 4, S);
    const again = await b.cli(['sync', '--json'], { env: S });
    expect(again.exitCode).toBe(4);
    expect(json(again).push.skipped.map((s: { state: string }) => s.state)).toEqual(['diverged']);
  }, 120_000);
});
