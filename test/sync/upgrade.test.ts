// Upgrading from the build at 094717a (format 1, SPEC 2): that build is built from this repository's history into a
// temporary directory, and both builds run on the same repositories. What format 1 stored reads the same in this
// build, and a format-1 archive not yet pushed reaches the remote after the upgrade, readable by both builds.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT, type TestRepo } from '../helpers/repo';

const OLD_COMMIT = '094717a';
const has = spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${OLD_COMMIT}^{commit}`]).status === 0;
let OLD_BIN = '';

/** The old build's CLI in `repo` (same HOME and environment as the new one). */
const old = (repo: TestRepo, args: string[], env: Record<string, string> = {}) =>
  execa(OLD_BIN, args, { cwd: repo.dir, env: { ...repo.env, ...env }, extendEnv: false, reject: false, timeout: 60_000 });

const rowsOf = (stdout: string) =>
  (JSON.parse(stdout) as Array<Record<string, unknown>>).map((r) => ({ ref: r.ref, oid: r.oid, session: r.session, branch: r.branch, topic: r.topic })).sort((a, b) => String(a.ref).localeCompare(String(b.ref)));

describe.skipIf(!has)(`an upgrade from the build at ${OLD_COMMIT}${has ? '' : ' (skipped: that commit is not in this clone)'}`, () => {
  let dir = '';
  // not a tempDir(): those go after each test, and the old build serves every test here
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-old-build-'));
    execFileSync('sh', ['-c', `git -C '${ROOT}' archive ${OLD_COMMIT} | tar -x -C '${dir}'`]);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'ignore' });
    OLD_BIN = path.join(dir, 'bin', 'git-handoff');
    expect(existsSync(OLD_BIN)).toBe(true);
  }, 120_000);

  it('what the old build wrote reads the same in both: list, show and log', async () => {
    const repo = makeRepo({ commit: true });
    const s = { GIT_HANDOFF_SESSION: 'old-owner-1' };
    for (const t of ['upgrade-notes', 'second-topic']) expect((await old(repo, ['write', t, '-m', `Goal: ${t}`], s)).exitCode).toBe(0);
    expect((await old(repo, ['write', 'upgrade-notes', '-m', 'Goal: v2'], s)).exitCode).toBe(0);
    expect((await old(repo, ['archive', 'second-topic'], s)).exitCode).toBe(0);
    for (const args of [['list', '--all', '--json'], ['list', '--archived', '--all', '--json']]) {
      const [o, n] = [await old(repo, args), await repo.cli(args)];
      expect(n.exitCode, String(n.stderr)).toBe(0);
      expect(rowsOf(String(n.stdout))).toEqual(rowsOf(String(o.stdout)));
    }
    const [o, n] = [await old(repo, ['show', 'upgrade-notes', '--json']), await repo.cli(['show', 'upgrade-notes', '--json', '--no-receipt'])];
    expect(json(n)).toMatchObject({ oid: json(o).oid, body: json(o).body, session: 'old-owner-1', versions: 2 });
    expect(json(await repo.cli(['log', 'upgrade-notes', '--json'])).map((e: { oid: string }) => e.oid)).toEqual(json(await old(repo, ['log', 'upgrade-notes', '--json'])).map((e: { oid: string }) => e.oid));
    // and the new build writes on top of an old version as its owner
    expect((await repo.cli(['write', 'upgrade-notes', '-m', 'Goal: v3'], { env: s })).exitCode).toBe(0);
  });

  it('an archive the old build made and did not push reaches the remote after the upgrade; both builds read it there', async () => {
    const bare = makeRepo({ init: ['--bare'] });
    const srv = await bare.cli(['install', '--server']);
    expect(srv.exitCode, String(srv.stderr) + String(srv.message)).toBe(0);
    const a = makeRepo({ commit: true });
    a.git(['remote', 'add', 'origin', bare.dir]);
    const s = { GIT_HANDOFF_SESSION: 'old-owner-1' };
    expect((await old(a, ['write', 'archived-old', '-m', 'Goal: x'], s)).exitCode).toBe(0);
    expect((await old(a, ['sync'], s)).exitCode).toBe(0);
    expect((await old(a, ['archive', 'archived-old'], s)).exitCode).toBe(0);
    const REF = 'refs/handoffs/main/archived-old';
    expect(refOf(a, REF)).toBeNull();
    // upgraded: this build's sync carries the archive (before: the live ref stayed on the remote, exit 0)
    const up = await a.cli(['sync'], { env: s });
    expect(up.exitCode, String(up.stdout) + String(up.stderr)).toBe(0);
    expect(refOf(bare, REF)).toBeNull();
    const entries = bare.git(['for-each-ref', '--format=%(refname)', 'refs/handoff-archive/']).stdout.trim().split('\n');
    expect(entries).toHaveLength(2);
    // a clone of each build fetches it as archived
    for (const which of ['new', 'old'] as const) {
      const c = makeRepo({ commit: true });
      c.git(['remote', 'add', 'origin', bare.dir]);
      const f = which === 'new' ? await c.cli(['fetch']) : await old(c, ['fetch']);
      expect(f.exitCode, `${which}: ${f.stderr}`).toBe(0);
      const rows = which === 'new' ? json(await c.cli(['list', '--archived', '--all', '--json'])) : json(await old(c, ['list', '--archived', '--all', '--json']));
      expect(rows.map((r: { topic: string }) => r.topic), which).toContain('archived-old');
      expect(refOf(c, REF), which).toBeNull();
    }
  });

  it("hook stubs the old build installed are flagged by this build's doctor, and install --hooks points them here", async () => {
    const repo = makeRepo({ commit: true });
    expect((await old(repo, ['install', '--hooks'])).exitCode).toBe(0);
    const d = await repo.cli(['doctor']);
    expect(String(d.stdout) + String(d.stderr)).toMatch(/git hook reference-transaction.*another copy of git-handoff/);
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    const again = await repo.cli(['doctor']);
    expect(String(again.stdout) + String(again.stderr)).not.toMatch(/another copy|another build/);
  });
});
