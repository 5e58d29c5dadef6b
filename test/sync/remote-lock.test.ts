// A push whose remote, a repository on this machine, has a ref locked by a push killed there (its receive-pack died
// with the lock taken): the lock is waited out while it may be held; one left behind is exit 4 naming it with its rm
// (as for a lock of this repository), never "the server refused for its own reasons"; once it is removed, sync goes on.
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf } from '../helpers/repo';
import { makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'lock-owner-1' };

describe('a lock left in a remote on this machine', () => {
  it('sync says exit 4 with the rm of the remote lock, and goes on once it is removed', async () => {
    const { a, bare } = await makeWorld('file');
    await ok(a, ['write', 'locked-topic', '-m', 'Goal: one'], 0, S);
    await ok(a, ['sync'], 0, S);
    await ok(a, ['write', 'locked-topic', '-m', 'Goal: two'], 0, S);
    const lock = path.join(bare.dir, 'refs', 'handoffs', 'main', 'locked-topic.lock');
    mkdirSync(path.dirname(lock), { recursive: true });
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const r = await a.cli(['sync'], { env: S });
    expect(r.exitCode, String(r.stderr)).toBe(4);
    expect(String(r.stderr)).toContain(`rm '${lock}'`);
    expect(String(r.stderr)).not.toMatch(/for its own reasons/);
    rmSync(lock);
    await ok(a, ['sync'], 0, S);
    expect(refOf(bare, 'refs/handoffs/main/locked-topic')).toBe(refOf(a, 'refs/handoffs/main/locked-topic'));
  });
});
