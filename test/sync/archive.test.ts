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
});
