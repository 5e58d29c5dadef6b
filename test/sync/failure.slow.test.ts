// When the remote cannot be reached or another clone got there first: nothing local changes, nothing is forced.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, refOf, tempDir } from '../helpers/repo';
import { freePort } from '../helpers/servers';
import { gitRecorder, handoffRefs, makeWorld, ok } from './world';

const REF = 'refs/handoffs/main/auth-refactor';
const allRefs = (repo: { git: (a: string[]) => { stdout: string } }) => repo.git(['for-each-ref', '--format=%(refname) %(objectname)']).stdout;

describe('sync failures', () => {
  it('an unreachable remote exits 7, says what to do, and changes nothing locally', async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    await ok(b, ['write', 'auth-refactor', '-m', 'y', '--session', 'sess-a']);
    const port = await freePort();
    for (const url of [`git://127.0.0.1:${port}/repo`, `file://${tempDir()}/missing.git`]) {
      b.git(['remote', 'set-url', 'origin', url]);
      const before = allRefs(b);
      for (const cmd of ['fetch', 'push', 'sync']) {
        const r = await b.cli([cmd]);
        expect(r.exitCode, `${cmd} ${url}`).toBe(7);
        expect(r.stderr).toMatch(new RegExp(`cannot (fetch|push) handoffs (from|to) origin \\(${url.replace(/[/.]/g, '\\$&')}\\)`));
        expect(r.stderr).toMatch(/No local handoff was changed/);
        expect(allRefs(b)).toBe(before);
      }
      const j = await b.cli(['sync', '--json']);
      expect(j.exitCode).toBe(7);
      expect(json(j).error.code).toBe('remote-unreachable');
    }
  });

  it('a push race ends in a re-fetch and a clear report, never a force', async () => {
    const { a, b, bare } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'v1', '--session', 'sess-a']);
    await ok(a, ['write', 'cache-warmup', '-m', 'w1', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    // The same session goes on from two machines; B has not fetched when A pushes.
    await ok(a, ['write', 'auth-refactor', '-m', 'v2 from A', '--session', 'sess-a']);
    await ok(a, ['push']);
    const won = refOf(a, REF);
    await ok(b, ['write', 'auth-refactor', '-m', 'v2 from B', '--session', 'sess-a']);
    await ok(b, ['write', 'cache-warmup', '-m', 'w2 from B', '--session', 'sess-a']);
    const mine = refOf(b, REF);
    const rec = gitRecorder(tempDir());
    const r = await b.cli(['push', '--json'], { env: rec.env });
    expect(r.exitCode).toBe(4);
    const err = json(r).error;
    expect(err.code).toBe('push-rejected');
    expect(err.message).toMatch(/refs\/handoffs\/main\/auth-refactor: .*(fetch first|non-fast-forward)/);
    expect(err.message).toMatch(/auth-refactor is now diverged/);
    const res = err.data.result;
    expect(res.refetch.handoffs.find((h: { ref: string }) => h.ref === REF)).toMatchObject({ case: 'diverged', action: 'none' });
    // The other handoff, rejected only because the push was atomic, went in the one retry.
    expect(res.updates.find((u: { ref: string }) => u.ref === 'refs/handoffs/main/cache-warmup')).toMatchObject({ status: 'pushed' });
    expect(refOf(bare, 'refs/handoffs/main/cache-warmup')).toBe(refOf(b, 'refs/handoffs/main/cache-warmup'));
    expect(refOf(bare, REF)).toBe(won);
    expect(refOf(b, REF)).toBe(mine);
    const pushes = rec.calls().filter((c) => c[0] === 'push');
    expect(pushes).toHaveLength(2);
    for (const p of pushes) {
      expect(p).toContain('--no-verify');
      expect(p.some((x) => x.startsWith('--force') || x.startsWith('+') || x === '-f')).toBe(false);
    }
    expect(rec.calls().filter((c) => c[0] === 'fetch')).toHaveLength(1);
    // The text form says the same to a person.
    const t = await b.cli(['push']);
    expect(t.exitCode).toBe(4); // a diverged handoff left unpushed (issue 15 bug 8)
    expect(t.stdout).toMatch(/not pushed\s+main\/auth-refactor: diverged/);
    expect(t.stderr).toContain('1 diverged handoff was not pushed to origin (exit 4)');
  });

  it('a server that refuses for its own reasons: exit 7 with its words, nothing local changed', async () => {
    const { a, bare } = await makeWorld('file');
    const hooks = bare.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim();
    writeFileSync(path.join(hooks, 'pre-receive'), '#!/bin/sh\necho "pushes are frozen for the release" >&2\nexit 1\n');
    chmodSync(path.join(hooks, 'pre-receive'), 0o755);
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    const before = allRefs(a);
    const r = await a.cli(['push']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/remote: pushes are frozen for the release/);
    expect(r.stderr).toMatch(/refused the push for its own reasons/);
    expect(allRefs(a)).toBe(before);
    expect(refOf(bare, REF)).toBeNull();
  });

  it('falls back to a ref-by-ref push when the remote does not support --atomic', async () => {
    const { a, bare } = await makeWorld('file');
    bare.git(['config', 'receive.advertiseAtomic', 'false']);
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['write', 'cache-warmup', '-m', 'y', '--session', 'sess-a']);
    const r = json(await ok(a, ['push', '--json']));
    expect(r.atomic).toBe(false);
    expect(r.updates.map((u: { status: string }) => u.status)).toEqual(['pushed', 'pushed']);
    expect(handoffRefs(bare)).toBe(handoffRefs(a));
  });

  it('a remote history that steals a handoff is reported by fetch (exit 6, refused), not applied', async () => {
    const { a, b, bare } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'mine', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    const tip = refOf(a, REF)!;
    // Someone pushes, by hand to an unprotected server, a version by another session without a takeover.
    const tree = b.git(['rev-parse', `${tip}^{tree}`]).stdout.trim();
    const steal = b.git(['commit-tree', tree, '-p', tip], { input: 'handoff(auth-refactor): stolen\n\nClaude-Session-Id: sess-x\n' }).stdout.trim();
    b.git(['push', '-q', 'origin', `${steal}:${REF}`]);
    expect(refOf(bare, REF)).toBe(steal);
    const r = json(await ok(a, ['fetch', '--json'], 6));
    expect(r.handoffs[0]).toMatchObject({ case: 'remote-ahead', action: 'refused', violation: { rule: 'foreign-owner' } });
    expect(refOf(a, REF)).toBe(tip);
    expect((await ok(a, ['fetch'], 6)).stdout).toMatch(/refused\s+main\/auth-refactor: not applied: the remote history breaks the ownership invariant/);
  });
});
