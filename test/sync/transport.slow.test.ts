// Round trips between two clones through a real remote: create, fast-forward, archive travelling.
import { describe, expect, it } from 'vitest';
import { json, refOf } from '../helpers/repo';
import { bodyOf, handoffRefs, makeWorld, ok, type Transport } from './world';

const REF = 'refs/handoffs/main/auth-refactor';

describe.each<Transport>(['file', 'git', 'http'])('sync over %s', (transport) => {
  it('carries a new handoff, a new version and an archive from one clone to the other', async () => {
    const { a, b, bare } = await makeWorld(transport);

    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: first version', '--session', 'sess-a']);
    const first = json(await ok(a, ['sync', '--json']));
    expect(first.push.updates).toEqual([expect.objectContaining({ ref: REF, kind: 'create', status: 'pushed' })]);
    expect(refOf(bare, REF)).toBe(refOf(a, REF));

    const got = json(await ok(b, ['fetch', '--json']));
    expect(got.handoffs).toEqual([expect.objectContaining({ ref: REF, case: 'new', action: 'created', local: null, remote: refOf(a, REF) })]);
    expect(refOf(b, REF)).toBe(refOf(a, REF));
    expect(await bodyOf(b, 'auth-refactor')).toBe('Goal: first version');
    expect(json(await ok(b, ['list', '--json']))[0]).toMatchObject({ topic: 'auth-refactor', session: 'sess-a', sync: 'synced' });

    const v1 = refOf(a, REF);
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: second version', '--session', 'sess-a']);
    expect(json(await ok(a, ['list', '--json']))[0].sync).toBe('ahead');
    expect(json(await ok(a, ['push', '--json'])).updates[0]).toMatchObject({ kind: 'fast-forward', status: 'pushed', oldOid: v1 });
    const ff = json(await ok(b, ['sync', '--json']));
    expect(ff.fetch.handoffs[0]).toMatchObject({ case: 'remote-ahead', action: 'fast-forwarded', local: v1, remote: refOf(a, REF) });
    expect(await bodyOf(b, 'auth-refactor')).toBe('Goal: second version');

    await ok(a, ['archive', 'auth-refactor', '--session', 'sess-a']);
    await ok(a, ['sync']);
    expect(refOf(bare, REF)).toBeNull();
    const arch = json(await ok(b, ['sync', '--json']));
    expect(arch.fetch.handoffs[0]).toMatchObject({ ref: REF, action: 'archived' });
    expect(refOf(b, REF)).toBeNull();
    const archived = json(await ok(b, ['list', '--archived', '--json']));
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({ topic: 'auth-refactor', oid: refOf(a, archived[0].ref) });
    // All three hold the same handoff refs.
    expect(handoffRefs(b)).toBe(handoffRefs(a));
    expect(handoffRefs(bare)).toBe(handoffRefs(a));
  });
});
