// Two clones write the same topic: nothing is lost, nothing moves until a session resolves it.
import { describe, expect } from 'vitest';
import { parse } from 'shell-quote';
import { quickIt, slowIt } from '../helpers/sets';
import { json, refOf } from '../helpers/repo';
import { bodyOf, handoffRefs, makeWorld, ok } from './world';

const REF = 'refs/handoffs/main/login-redirect-loop';

describe('divergence', () => {
  slowIt('keeps both sides, shows both, and --resolve --keep both makes all three equal', async () => {
    const { a, b, bare } = await makeWorld('file');
    await ok(a, ['write', 'login-redirect-loop', '-m', 'A: the loop is in the middleware', '--session', 'sess-a']);
    await ok(b, ['write', 'login-redirect-loop', '-m', 'B: the loop is in the cookie path', '--session', 'sess-b']);
    await ok(a, ['sync']);
    const aTip = refOf(a, REF)!;
    const bTip = refOf(b, REF)!;

    // B's sync keeps B's version, pushes nothing over A's, and says diverged.
    // exit 4, as `git push` fails on a rejected ref: the diverged handoff was not pushed (issue 15 bug 8)
    const r = json(await ok(b, ['sync', '--json'], 4));
    expect(r.fetch.handoffs).toEqual([expect.objectContaining({ ref: REF, case: 'diverged', action: 'none', local: bTip, remote: aTip })]);
    expect(r.push.skipped).toEqual([expect.objectContaining({ ref: REF, state: 'diverged' })]);
    expect(refOf(b, REF)).toBe(bTip);
    expect(refOf(bare, REF)).toBe(aTip);
    // push alone says it the same way
    const p = await ok(b, ['push'], 4);
    expect(String(p.stdout)).toContain('not pushed    main/login-redirect-loop: diverged from origin');
    expect(String(p.stderr)).toContain('`git handoff sync origin --resolve login-redirect-loop --keep both --session sess-b`');
    // A's sync keeps A's version too (B pushed nothing).
    await ok(a, ['sync']);
    expect(refOf(a, REF)).toBe(aTip);

    expect(json(await ok(b, ['list', '--json']))[0].sync).toBe('diverged');
    expect((await ok(b, ['list'])).stdout).toMatch(/login-redirect-loop\s+sess-b\s+.*diverged/);
    const shown = json(await ok(b, ['show', 'login-redirect-loop', '--json']));
    expect(shown).toMatchObject({ oid: bTip, sync: 'diverged', body: expect.stringContaining('cookie path') });
    expect(shown.remote).toMatchObject({ remote: 'origin', oid: aTip, session: 'sess-a', body: expect.stringContaining('middleware') });
    const text = String((await ok(b, ['show', 'login-redirect-loop'])).stdout);
    expect(text).toContain('cookie path');
    expect(text).toContain('middleware');
    expect(text).toContain('--resolve login-redirect-loop');

    // status names it with the command its owner pastes at a terminal: the remote named, one way chosen (no
    // `local|remote|both`, a shell pipe), the owner's session given; that command, as a shell splits it, resolves it
    const attention = json(await ok(b, ['status', '--json'])).attention.filter((x: { kind: string }) => x.kind === 'diverged');
    expect(attention).toEqual([expect.objectContaining({ ref: REF, session: 'sess-b', message: 'login-redirect-loop on main diverged from origin\'s copy: both sides wrote a version' })]);
    expect(attention[0].command).toBe('git handoff sync origin --resolve login-redirect-loop --keep both --session sess-b');
    const words = parse(attention[0].command);
    expect(words.every((w) => typeof w === 'string')).toBe(true);
    expect(words.slice(0, 2)).toEqual(['git', 'handoff']);
    const res = json(await ok(b, [...(words.slice(2) as string[]), '--json']));
    expect(res).toMatchObject({ ref: REF, parents: [bTip, aTip], keep: 'both', takeoverFrom: ['sess-a'] });
    expect(b.git(['rev-parse', `${REF}^1`, `${REF}^2`]).stdout.trim().split('\n')).toEqual([bTip, aTip]);

    await ok(b, ['sync']);
    await ok(a, ['sync']);
    expect(refOf(a, REF)).toBe(res.oid);
    expect(refOf(bare, REF)).toBe(res.oid);
    expect(handoffRefs(a)).toBe(handoffRefs(b));
    for (const clone of [a, b]) {
      const body = await bodyOf(clone, 'login-redirect-loop');
      expect(body).toContain('A: the loop is in the middleware');
      expect(body).toContain('B: the loop is in the cookie path');
      expect(body).toMatch(/## Version by session sess-b[\s\S]*## Version by session sess-a/);
      expect(json(await ok(clone, ['list', '--json']))[0].sync).toBe('synced');
    }
  });

  slowIt('--keep local and --keep remote keep one body; a session owning neither side takes both over on the record', async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'cache-warmup', '-m', 'from A', '--session', 'sess-a']);
    await ok(b, ['write', 'cache-warmup', '-m', 'from B', '--session', 'sess-b']);
    await ok(a, ['sync']);
    await ok(b, ['sync'], 4);
    const keepRemote = json(await ok(b, ['sync', '--resolve', 'cache-warmup', '--keep', 'remote', '--session', 'sess-c', '--json']));
    expect(keepRemote.takeoverFrom).toEqual(['sess-b', 'sess-a']);
    expect(await bodyOf(b, 'cache-warmup')).toBe('from A');
    // The result is a fast-forward for the remote and for A; A's pushes are then fast-forwards too.
    await ok(b, ['sync']);
    expect(json(await ok(a, ['fetch', '--json'])).handoffs[0]).toMatchObject({ case: 'remote-ahead', action: 'fast-forwarded' });
    expect(await bodyOf(a, 'cache-warmup')).toBe('from A');

    await ok(b, ['write', 'cache-warmup', '-m', 'B again', '--session', 'sess-c']);
    await ok(a, ['write', 'cache-warmup', '-m', 'A again', '--session', 'sess-c']);
    await ok(b, ['sync']);
    await ok(a, ['sync'], 4);
    const keepLocal = json(await ok(a, ['sync', '--resolve', 'cache-warmup', '--keep', 'local', '--session', 'sess-c', '--json']));
    expect(keepLocal.takeoverFrom).toEqual([]);
    expect(await bodyOf(a, 'cache-warmup')).toBe('A again');
  });

  quickIt('works the same on a branch whose name is encoded (feature/Login-v2 → one ref component; a name git refuses, with a space, is refused by write since issue 40)', async () => {
    const { a, b } = await makeWorld('file');
    const branch = 'feature/Login-v2';
    await ok(a, ['write', 'auth-refactor', '-m', 'A', '--session', 'sess-a', '--branch', branch]);
    await ok(b, ['write', 'auth-refactor', '-m', 'B', '--session', 'sess-b', '--branch', branch]);
    await ok(a, ['sync']);
    const r = await ok(b, ['sync'], 4);
    expect(r.stdout).toContain(`diverged      feature/Login-v2/auth-refactor`);
    expect(r.stderr).toContain(`1 diverged handoff was not pushed to origin (exit 4): \`git handoff sync origin --resolve auth-refactor --branch feature/Login-v2 --keep both --session sess-b\``);
    expect(r.stdout).toContain(`git handoff sync origin --resolve auth-refactor --branch feature/Login-v2 --keep both --session sess-b`);
    const row = json(await ok(b, ['list', '--all', '--json']))[0];
    expect(row).toMatchObject({ branch, topic: 'auth-refactor', sync: 'diverged' });
    await ok(b, ['sync', '--resolve', 'auth-refactor', '--branch', branch, '--keep', 'both', '--session', 'sess-b']);
    await ok(b, ['sync']);
    await ok(a, ['sync']);
    expect(handoffRefs(a)).toBe(handoffRefs(b));
  });

  quickIt('refuses to resolve what is not diverged, and --keep without --resolve', async () => {
    const { a } = await makeWorld('file');
    await ok(a, ['write', 'cache-warmup', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const r = await a.cli(['sync', '--resolve', 'cache-warmup', '--keep', 'both', '--session', 'sess-a']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/synced against origin, not diverged/);
    expect((await a.cli(['sync', '--keep', 'both'])).exitCode).toBe(2);
    expect((await a.cli(['sync', '--resolve', 'cache-warmup', '--session', 'sess-a'])).exitCode).toBe(2);
  });
});
