// `install --remote R`: the handoff fetch refspecs on R, idempotent and reversible; doctor reports them.
import { simpleGit } from 'simple-git';
import { describe, expect, it } from 'vitest';
import { json, refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok } from './world';

const SPECS = [
  '+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*',
  '+refs/handoff-archive/*:refs/handoff-remotes/origin/handoff-archive/*',
  '+refs/notes/handoff-reads*:refs/handoff-remotes/origin/notes/handoff-reads*',
];
// read through simple-git, an independent porcelain sharing no code with the product's own config reads (the
// repository's own file only: no system or global config is consulted)
const fetchSpecs = async (repo: TestRepo): Promise<string[]> =>
  [...(await simpleGit({ baseDir: repo.dir }).env({ PATH: repo.env.PATH, HOME: repo.env.HOME }).getConfig('remote.origin.fetch', 'local')).values];

describe('install --remote', () => {
  it('adds the tracking refspecs once, never a push refspec or one onto local handoffs, and uninstall removes exactly them', async () => {
    const { a, b } = await makeWorld('file');
    const before = await fetchSpecs(a);
    await ok(a, ['install', '--remote', 'origin']);
    await ok(a, ['install', '--remote', 'origin']);
    expect(await fetchSpecs(a)).toEqual([...before, ...SPECS]);
    expect(a.git(['config', '--get-all', 'remote.origin.push'], { allowFail: true }).stdout).toBe('');
    expect((await fetchSpecs(a)).some((s) => /:refs\/handoffs\//.test(s))).toBe(false);
    expect(json(await ok(a, ['doctor', '--json'])).items).toContainEqual(expect.objectContaining({ component: 'remote origin', status: 'ok' }));

    // A plain git fetch now fills the tracking namespace and leaves local handoffs alone.
    await ok(b, ['write', 'auth-refactor', '-m', 'from B', '--session', 'sess-b']);
    await ok(b, ['push']);
    await ok(a, ['write', 'auth-refactor', '-m', 'from A', '--session', 'sess-a']);
    const mine = refOf(a, 'refs/handoffs/main/auth-refactor');
    a.git(['fetch', '-q', 'origin']);
    expect(refOf(a, 'refs/handoff-remotes/origin/handoffs/main/auth-refactor')).toBe(refOf(b, 'refs/handoffs/main/auth-refactor'));
    expect(refOf(a, 'refs/handoffs/main/auth-refactor')).toBe(mine);
    // And a plain git push keeps its meaning: no handoff ref goes with it.
    a.git(['push', '-q', 'origin', 'main']);
    expect(json(await ok(a, ['list', '--json']))[0].sync).toBe('diverged');

    const un = json(await ok(a, ['uninstall', '--remote', 'origin', '--json']));
    expect(un.actions).toHaveLength(SPECS.length);
    expect(await fetchSpecs(a)).toEqual(before);
    expect(json(await ok(a, ['uninstall', '--remote', 'origin', '--json'])).actions).toEqual([]);
  });

  it('refuses an unknown remote, and doctor flags a refspec that writes over local handoffs', async () => {
    const { a } = await makeWorld('file');
    const r = await a.cli(['install', '--remote', 'nowhere']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/no remote named "nowhere"/);
    a.git(['config', '--add', 'remote.origin.fetch', '+refs/handoffs/*:refs/handoffs/*']);
    const d = await a.cli(['doctor', '--json']);
    expect(d.exitCode).toBe(1);
    expect(json(d).items).toContainEqual(expect.objectContaining({ component: 'remote origin', status: 'broken' }));
  });

  it('picks handoff.remote, else origin, else the only remote; several and none chosen is a usage error', async () => {
    const { a, url } = await makeWorld('file');
    a.git(['remote', 'rename', 'origin', 'upstream']);
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    expect(json(await ok(a, ['push', '--json'])).remote).toBe('upstream');
    a.git(['remote', 'add', 'mirror', url]);
    const r = await a.cli(['push']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/several remotes/);
    a.git(['config', 'handoff.remote', 'mirror']);
    expect(json(await ok(a, ['fetch', '--json'])).remote).toBe('mirror');
    expect((await a.cli(['fetch', 'nope'])).exitCode).toBe(2);
  });
});
