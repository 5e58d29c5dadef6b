// Archives travel both ways, and a handoff restored from the archive is not archived again by the next fetch.
import { describe, expect, it } from 'vitest';
import { json, refOf } from '../helpers/repo';
import { handoffRefs, makeWorld, ok } from './world';

const REF = 'refs/handoffs/main/auth-refactor';

describe('archive across clones', () => {
  it('an archive made here is pushed with the deletion; a restore over there comes back, and stays live', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    await ok(a, ['archive', 'auth-refactor', '--session', 'sess-a']);
    // Before A pushes, B's sync does not bring the handoff back into A, and A's fetch does not re-create it.
    expect(json(await ok(a, ['fetch', '--json'])).handoffs[0]).toMatchObject({ case: 'local-ahead', local: null, archivedAs: expect.stringMatching(/^refs\/handoff-archive\/main\/auth-refactor\//) });
    expect(refOf(a, REF)).toBeNull();
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    expect(refOf(b, REF)).toBeNull();
    const [entry] = json(await ok(b, ['list', '--archived', '--json']));

    await ok(b, ['restore', entry.ref, '--session', 'sess-b', '--take-over', '--reason', 'still needed']);
    const restored = refOf(b, REF);
    const r = json(await ok(b, ['sync', '--json']));
    expect(r.fetch.handoffs[0]).toMatchObject({ ref: REF, case: 'local-ahead', action: 'none' });
    expect(refOf(b, REF)).toBe(restored);
    expect(refOf(bare, REF)).toBe(restored);
    await ok(a, ['sync']);
    expect(refOf(a, REF)).toBe(restored);
    await ok(b, ['sync']);
    expect(refOf(b, REF)).toBe(restored);
    expect(handoffRefs(a)).toContain(REF);
    // The archive entry the restore removed over there is kept on the server and here: nothing is deleted.
    expect(refOf(bare, entry.ref)).toBe(entry.oid);
  });

  it("an owner's restore wins over the older archive in both clones and on the remote (issue 15 bug 1)", async () => {
    const { a: c1, b: c2, bare } = await makeWorld('file', { server: true });
    await ok(c1, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(c1, ['sync']);
    await ok(c2, ['sync']);
    await ok(c2, ['archive', 'auth-refactor', '--session', 'sess-a']);
    await ok(c2, ['sync']);
    expect(refOf(bare, REF)).toBeNull();
    await ok(c1, ['sync']);
    expect(refOf(c1, REF)).toBeNull();
    // the owner restores it by topic, in the clone that did not archive it
    const back = await ok(c1, ['restore', 'auth-refactor', '--session', 'sess-a']);
    expect(String(back.stdout)).toMatch(/^restored refs\/handoff-archive\/main\/auth-refactor\/\d+-[0-9a-f]{12} to refs\/handoffs\/main\/auth-refactor/);
    const restored = refOf(c1, REF)!;
    await ok(c1, ['sync']);
    expect(refOf(bare, REF)).toBe(restored);
    // the clone that archived it takes the restore as a later version, and pushes no deletion
    const r = json(await ok(c2, ['sync', '--json']));
    expect(r.fetch.handoffs[0]).toMatchObject({ ref: REF, case: 'new', action: 'created' });
    expect(r.push.updates.filter((u: any) => u.kind === 'archive')).toEqual([]);
    expect(refOf(c2, REF)).toBe(restored);
    expect(refOf(bare, REF)).toBe(restored);
    for (const c of [c1, c2, c1]) {
      await ok(c, ['sync']);
      expect(refOf(c, REF)).toBe(restored);
    }
    expect(refOf(bare, REF)).toBe(restored);
    // the restore is a version on top of the archived tip, by the owner, and the archive entry is kept everywhere
    expect(c1.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', REF]).stdout.trim()).toBe('sess-a');
    const entries = json(await ok(c2, ['list', '--archived', '--json']));
    expect(entries).toHaveLength(1);
    expect(c1.git(['rev-parse', `${REF}^`]).stdout.trim()).toBe(entries[0].oid);
    for (const c of [c1, c2, bare]) expect(refOf(c, entries[0].ref)).toBe(entries[0].oid);
  });
});
