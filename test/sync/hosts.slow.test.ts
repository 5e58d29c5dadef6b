// Hosts that differ (issue 57): a host that takes only branches and tags is said as such with the way on, a
// coordination remote (handoff.remote) holds handoffs and claims beside a code remote that refuses them, push options
// a user configured never reach a server that does not advertise them, and doctor says what each host protects.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'sess-host-1' };
const REF = 'refs/handoffs/main/auth-refactor';

/** A pre-receive hook that takes only branches and tags, as hosts that keep no custom refs refuse them. */
function branchesAndTagsOnly(bare: TestRepo): void {
  writeFileSync(
    path.join(bare.dir, 'hooks', 'pre-receive'),
    '#!/bin/sh\nwhile read o n r; do case "$r" in refs/heads/*|refs/tags/*) ;; *) echo "error: refusing to update $r: only refs/heads/* and refs/tags/* are accepted by this repository" >&2; exit 1;; esac; done\nexit 0\n',
    { mode: 0o755 },
  );
}

const items = async (r: TestRepo) => json(await r.cli(['doctor', '--json'])).items as Array<{ component: string; status: string; detail: string }>;

describe('a host that takes only branches and tags', () => {
  it('sync and claim say so, in its words, with the way on (a coordination remote)', async () => {
    const { a, bare } = await makeWorld('file');
    branchesAndTagsOnly(bare);
    a.git(['push', '-q', 'origin', 'main']);
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: x'], 0, S);
    const s = await a.cli(['sync', '--json'], { env: S });
    expect(s.exitCode).toBe(7);
    const err = json(s).error;
    expect(err.code).toBe('custom-refs-refused');
    expect(err.message).toContain('only refs/heads/* and refs/tags/* are accepted');
    expect(err.message).toMatch(/coordination remote .*git config handoff\.remote handoffs/);
    const c = await a.cli(['claim', 'src/', '--session', 'sess-host-1', '--json']);
    expect(c.exitCode).toBe(7);
    expect(json(c).error.message).toMatch(/only refs\/heads.*nothing was claimed.*handoff\.remote/);
    expect(refOf(bare, REF)).toBeNull();
  }, 120_000);

  it('handoff.remote: handoffs and claims go to a coordination remote; the code remote sees none of them and plain git push keeps its meaning', async () => {
    const { a, b, bare } = await makeWorld('file');
    branchesAndTagsOnly(bare);
    const coord = makeRepo({ init: ['--bare'] });
    for (const c of [a, b]) {
      c.git(['remote', 'add', 'handoffs', `file://${coord.dir}`]);
      c.git(['config', 'handoff.remote', 'handoffs']);
    }
    a.git(['push', '-q', 'origin', 'main']);
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: coordinated'], 0, S);
    expect(json(await ok(a, ['claim', 'src/', '--session', 'sess-host-1', '--json'])).published).toEqual({ where: 'remote', remote: 'handoffs' });
    await ok(a, ['sync'], 0, S);
    expect(refOf(coord, REF)).toBe(refOf(a, REF));
    expect(refOf(coord, 'refs/claims/main')).not.toBeNull();
    expect(bare.git(['for-each-ref', '--format=%(refname)']).stdout.trim()).toBe('refs/heads/main');
    a.commit('code', { 'x.txt': 'x\n' });
    a.git(['push', '-q', 'origin', 'main']);
    expect(json(await ok(a, ['list', '--json'], 0, S))[0].sync).toBe('synced');
    // the other clone: its sync brings the handoff from there, and its claim of the same paths is refused
    await ok(b, ['sync'], 0, S);
    expect(refOf(b, REF)).toBe(refOf(a, REF));
    const refused = await b.cli(['claim', 'src/x.ts', '--session', 'sess-host-2', '--json']);
    expect(refused.exitCode).toBe(3);
    expect(json(refused).error.data.holders[0].session).toBe('sess-host-1');
  }, 120_000);
});

describe('push options', () => {
  it('a push.pushOption in the user\'s config is never sent: sync and claim go to a server that does not advertise them', async () => {
    const { a, bare } = await makeWorld('file');
    a.git(['config', '--global', 'push.pushOption', 'ci.skip']);
    // git alone fails there
    expect(a.git(['push', '-q', 'origin', 'main'], { allowFail: true }).stderr).toContain('does not support push options');
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: x'], 0, S);
    await ok(a, ['claim', 'src/', '--session', 'sess-host-1']);
    await ok(a, ['sync'], 0, S);
    expect(refOf(bare, REF)).toBe(refOf(a, REF));
    expect(refOf(bare, 'refs/claims/main')).not.toBeNull();
  }, 120_000);
});

describe('doctor says what the handoff remote protects', () => {
  it('a hosted service (rules for branches and tags only), a local bare repository with and without the check, a host of your own', async () => {
    const { a, bare } = await makeWorld('file');
    const host = async () => (await items(a)).find((i) => i.component === 'host origin');
    expect(await host()).toMatchObject({ status: 'missing', detail: expect.stringContaining('git handoff install --server') });
    expect((await bare.cli(['install', '--server'])).exitCode).toBe(0);
    expect(await host()).toMatchObject({ status: 'ok' });
    a.git(['remote', 'set-url', 'origin', 'https://github.com/acme/project.git']);
    expect(await host()).toMatchObject({ status: 'info', detail: expect.stringMatching(/branches and tags only, never refs\/handoffs.*runs no hook of yours/) });
    a.git(['remote', 'set-url', 'origin', 'git@git.example.internal:team/project.git']);
    expect(await host()).toMatchObject({ status: 'info', detail: expect.stringMatching(/pre-receive hook: `git handoff install --server`/) });
  }, 120_000);
});
