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

/**
 * The build at `commit`, built from this repository's history into a temporary directory for the whole describe (not
 * a tempDir(): those go after each test). Returns where its bin will be.
 */
function buildAt(commit: string, prefix: string): { bin: () => string } {
  let dir = '';
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    execFileSync('sh', ['-c', `git -C '${ROOT}' archive ${commit} | tar -x -C '${dir}'`]);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'ignore' });
    expect(existsSync(path.join(dir, 'bin', 'git-handoff'))).toBe(true);
  }, 120_000);
  return { bin: () => path.join(dir, 'bin', 'git-handoff') };
}

const rowsOf = (stdout: string) =>
  (JSON.parse(stdout) as Array<Record<string, unknown>>).map((r) => ({ ref: r.ref, oid: r.oid, session: r.session, branch: r.branch, topic: r.topic })).sort((a, b) => String(a.ref).localeCompare(String(b.ref)));

describe.skipIf(!has)(`an upgrade from the build at ${OLD_COMMIT}${has ? '' : ' (skipped: that commit is not in this clone)'}`, () => {
  const build = buildAt(OLD_COMMIT, 'gh-old-build-');
  beforeAll(() => void (OLD_BIN = build.bin()));

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

  // Mixed versions through one remote (file://, the server check of this build installed): a clone of each build
  // archives, restores and syncs, in both directions; nothing either writes is lost or undone by the other.
  const mixed = async (o: { minFormat1: boolean }) => {
    const bare = makeRepo({ init: ['--bare'] });
    expect((await bare.cli(['install', '--server'])).exitCode).toBe(0);
    if (o.minFormat1) bare.git(['config', 'handoff.minFormat', '1']);
    const url = `file://${bare.dir}`;
    const neu = makeRepo({ commit: true });
    neu.git(['remote', 'add', 'origin', url]);
    neu.git(['push', '-q', 'origin', 'main']);
    if (o.minFormat1) neu.git(['config', 'handoff.minFormat', '1']);
    const olde = makeRepo({ commit: true });
    olde.git(['remote', 'add', 'origin', url]);
    const N = (args: string[]) => neu.cli(args, { env: { GIT_HANDOFF_SESSION: 'new-session-1' } });
    const O = (args: string[]) => old(olde, args, { GIT_HANDOFF_SESSION: 'old-session-1' });
    const ok = async (r: ReturnType<typeof N>, what: string) => {
      const x = await r;
      expect(x.exitCode, `${what}: ${x.stdout}${x.stderr}`).toBe(0);
      return x;
    };
    await ok(N(['write', 'new-notes', '-m', 'Goal: by the new build']), 'new write');
    await ok(N(['sync']), 'new sync');
    await ok(O(['write', 'old-notes', '-m', 'Goal: by the old build']), 'old write');
    await ok(O(['sync']), 'old sync');
    await ok(N(['sync']), 'new sync');
    return { bare, neu, olde, N, O, ok };
  };
  const live = (r: TestRepo) => r.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/']).stdout.trim().split('\n').filter(Boolean).sort();
  const entries = (r: TestRepo) => r.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-archive/']).stdout.trim().split('\n').filter(Boolean);
  const NEW_REF = 'refs/handoffs/main/new-notes';
  const OLD_REF = 'refs/handoffs/main/old-notes';

  it('with handoff.minFormat 1: each build archives and restores, the other takes it in, neither refuses or undoes the other', async () => {
    const { bare, neu, olde, N, O, ok } = await mixed({ minFormat1: true });
    // new → old: the new build's archive (two entries: the version naming who archived, and one at the tip) arrives
    // archived in the old clone, which does not push the handoff back
    await ok(N(['archive', 'new-notes']), 'new archive');
    await ok(N(['sync']), 'new sync');
    expect(refOf(bare, NEW_REF)).toBeNull();
    await ok(O(['sync']), 'old sync');
    expect(refOf(olde, NEW_REF)).toBeNull();
    expect(refOf(bare, NEW_REF)).toBeNull();
    expect(json(await O(['list', '--archived', '--all', '--json'])).map((r: { topic: string }) => r.topic)).toContain('new-notes');
    // this build lists that archive once
    expect(json(await N(['list', '--archived', '--all', '--json'])).filter((r: { topic: string }) => r.topic === 'new-notes')).toHaveLength(1);
    // old → new: the old build's archive (an entry at the tip) is accepted by this build's server and taken in here
    await ok(O(['archive', 'old-notes']), 'old archive');
    await ok(O(['sync']), 'old sync');
    expect(refOf(bare, OLD_REF)).toBeNull();
    await ok(N(['sync']), 'new sync');
    expect(refOf(neu, OLD_REF)).toBeNull();
    expect(refOf(bare, OLD_REF)).toBeNull();
    expect(json(await N(['list', '--archived', '--all', '--json'])).map((r: { topic: string }) => r.topic)).toContain('old-notes');
    const archived = entries(bare);
    // restores, both ways: each arrives live in the other clone and stays live after both sync again
    await ok(N(['restore', 'new-notes']), 'new restore');
    await ok(N(['sync']), 'new sync');
    const oldEntry = olde.git(['for-each-ref', '--format=%(refname)', 'refs/handoff-archive/main/old-notes/']).stdout.trim().split('\n')[0];
    await ok(O(['restore', oldEntry]), 'old restore');
    await ok(O(['sync']), 'old sync');
    await ok(N(['sync']), 'new sync');
    await ok(O(['sync']), 'old sync');
    for (const r of [bare, neu, olde]) expect(live(r)).toEqual([NEW_REF, OLD_REF]);
    expect(refOf(neu, OLD_REF)).toBe(refOf(bare, OLD_REF));
    expect(refOf(olde, NEW_REF)).toBe(refOf(bare, NEW_REF));
    // archive entries are never lost: every one the remote had is still there, in both clones too
    for (const e of archived) {
      expect(entries(bare)).toContain(e);
      expect(entries(neu)).toContain(e);
      expect(entries(olde)).toContain(e);
    }
    expect(bare.git(['fsck', '--no-progress']).status).toBe(0);
  }, 240_000);

  it("by default (handoff.minFormat 2) the old build's archive is refused by the server with the way on, and nothing is lost or undone", async () => {
    const { bare, neu, O, N } = await mixed({ minFormat1: false });
    const before = refOf(bare, OLD_REF);
    expect((await O(['archive', 'old-notes'])).exitCode).toBe(0);
    const pushed = await O(['sync']);
    expect(pushed.exitCode).toBe(6);
    expect(String(pushed.stderr) + String(pushed.stdout)).toMatch(/records nobody.*\n(.*\n)*.*handoff\.minFormat 1/);
    expect(refOf(bare, OLD_REF)).toBe(before);
    // the new build's archive still reaches the old clone (accepted by every server: it carries both entries)
    expect((await N(['archive', 'new-notes'])).exitCode).toBe(0);
    expect((await N(['sync'])).exitCode).toBe(0);
    expect(refOf(bare, NEW_REF)).toBeNull();
    expect(live(neu)).toEqual([OLD_REF]);
  }, 240_000);

  it('by default, an old archive on a remote without the server check is not taken in, and the new build never pushes the handoff back over it', async () => {
    const bare = makeRepo({ init: ['--bare'] });
    const url = `file://${bare.dir}`;
    const neu = makeRepo({ commit: true });
    neu.git(['remote', 'add', 'origin', url]);
    const olde = makeRepo({ commit: true });
    olde.git(['remote', 'add', 'origin', url]);
    const s = { GIT_HANDOFF_SESSION: 'old-session-1' };
    expect((await old(olde, ['write', 'old-notes', '-m', 'Goal: x'], s)).exitCode).toBe(0);
    expect((await old(olde, ['sync'], s)).exitCode).toBe(0);
    expect((await neu.cli(['sync'])).exitCode).toBe(0);
    expect((await old(olde, ['archive', 'old-notes'], s)).exitCode).toBe(0);
    expect((await old(olde, ['sync'], s)).exitCode).toBe(0);
    const r = await neu.cli(['sync']);
    expect(String(r.stdout)).toMatch(/not pushed +main\/old-notes: archived on origin .*handoff\.minFormat 1/);
    // before: the new build pushed the handoff back live over the old build's archive
    expect(refOf(bare, OLD_REF)).toBeNull();
    expect(refOf(neu, OLD_REF)).not.toBeNull();
  }, 240_000);

  it('what the old build does not know (a person as owner, addressees, tags, read receipts) it reads without loss or refuses to write over', async () => {
    const { bare, neu, olde, N, O, ok } = await mixed({ minFormat1: false });
    await ok(N(['write', 'person-notes', '--person', '-m', 'Goal: by a person']), 'new write --person');
    await ok(N(['write', 'addressed-notes', '-m', 'Goal: for review', '--to', 'role:reviewer', '--tag', 'release']), 'new write --to');
    await ok(neu.cli(['show', 'addressed-notes'], { env: { GIT_HANDOFF_SESSION: 'reader-session-1' } }), 'new show by a reader (a receipt)');
    await ok(N(['sync']), 'new sync');
    const all = () => bare.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoffs/', 'refs/handoff-archive/', 'refs/notes/']).stdout;
    const before = all();
    await ok(O(['sync']), 'old sync');
    const rows = json(await O(['list', '--all', '--json'])).map((r: { topic: string }) => r.topic);
    expect(rows).toEqual(expect.arrayContaining(['person-notes', 'addressed-notes', 'new-notes', 'old-notes']));
    // a version owned by a person names no session the old build knows: it refuses to write over it (its exit 3)
    const over = await O(['write', 'person-notes', '-m', 'Goal: overwritten']);
    expect(over.exitCode, String(over.stderr)).toBe(3);
    await ok(O(['sync']), 'old sync');
    await ok(N(['sync']), 'new sync');
    expect(all()).toBe(before);
    expect(refOf(olde, 'refs/handoffs/main/person-notes')).toBe(refOf(neu, 'refs/handoffs/main/person-notes'));
    expect(refOf(bare, 'refs/notes/handoff-reads')).not.toBeNull();
  }, 240_000);

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

// Upgrading from the last format-2 build (212c0be): it kept what it fetched under refs/remotes/<R>/…, where branch
// lists show it and a pruning pull deletes it (issue 53). This build moves it to refs/handoff-remotes/<R>/… at the
// first command, the fetch refspecs with it, and marks the store format 3, which the format-2 build then refuses.
const FORMAT2_COMMIT = '212c0be';
const has2 = spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${FORMAT2_COMMIT}^{commit}`]).status === 0;

describe.skipIf(!has2)(`an upgrade from the format-2 build at ${FORMAT2_COMMIT}${has2 ? '' : ' (skipped: that commit is not in this clone)'}`, () => {
  const build = buildAt(FORMAT2_COMMIT, 'gh-format2-build-');
  const v2 = (repo: TestRepo, args: string[], env: Record<string, string> = {}) =>
    execa(build.bin(), args, { cwd: repo.dir, env: { ...repo.env, ...env }, extendEnv: false, reject: false, timeout: 60_000 });

  it("a clone the format-2 build synced: its tracking copies and refspecs move out of refs/remotes, list and drop stay right, and the old build is refused", async () => {
    const bare = makeRepo({ init: ['--bare'] });
    const a = makeRepo({ commit: true });
    a.git(['remote', 'add', 'origin', bare.dir]);
    a.git(['push', '-q', 'origin', 'main']);
    const s = { GIT_HANDOFF_SESSION: 'v2-owner-1' };
    const run = async (args: string[], env: Record<string, string> = s) => {
      const r = await v2(a, args, env);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    };
    await run(['install', '--remote', 'origin']);
    await run(['write', 'auth-refactor', '-m', 'Goal: x']);
    await run(['write', 'old-spike-notes', '-m', 'Goal: y']);
    await run(['archive', 'old-spike-notes']);
    await run(['show', 'auth-refactor'], { GIT_HANDOFF_SESSION: 'reader-1' });
    await run(['claim', 'src/', '--session', 'v2-owner-1']);
    await run(['sync']);
    const legacy = a.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/remotes/']).stdout.split('\n').filter((l) => /handoff|claims/.test(l));
    expect(legacy.length).toBeGreaterThanOrEqual(5);
    expect(a.git(['branch', '-r']).stdout).toContain('origin/handoffs/main/auth-refactor');
    a.git(['pack-refs', '--all']);

    // the first command of this build moves them (same values), and the refspecs
    const rows = json(await a.cli(['list', '--json'], { env: s }));
    expect(rows.find((r: { topic: string }) => r.topic === 'auth-refactor').sync).toBe('synced');
    const moved = a.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-remotes/']).stdout.split('\n').filter(Boolean);
    expect(moved.sort()).toEqual(legacy.map((l) => l.replace('refs/remotes/origin/', 'refs/handoff-remotes/origin/')).sort());
    expect(a.git(['branch', '-r']).stdout.trim()).toBe('origin/main');
    const specs = a.git(['config', '--get-all', 'remote.origin.fetch']).stdout;
    expect(specs).toContain('+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*');
    expect(specs).not.toContain('refs/remotes/origin/handoffs');
    expect(a.git(['config', 'handoff.formatVersion']).stdout.trim()).toBe('3');
    expect((await a.cli(['drop', 'auth-refactor'], { env: s })).exitCode).toBe(2);
    const synced = json(await a.cli(['sync', '--json'], { env: s }));
    expect(synced.fetch.counts.new).toBe(0);
    expect(synced.push.updates.filter((u: { status: string }) => u.status === 'pushed')).toEqual([]);
    expect(json(await a.cli(['claims', '--json'])).map((c: { where: string }) => c.where)).toEqual(['both']);
    // the format-2 build would read this clone as never synced: it refuses it, naming the way on
    const refused = await v2(a, ['list'], s);
    expect(refused.exitCode).toBe(7);
    expect(String(refused.stderr)).toMatch(/format 3.*Upgrade git-handoff/);
  }, 240_000);

  it('a clone this build syncs first is marked format 3 at its first fetch; one that never syncs is left unmarked', async () => {
    const bare = makeRepo({ init: ['--bare'] });
    const a = makeRepo({ commit: true });
    a.git(['remote', 'add', 'origin', bare.dir]);
    await a.cli(['write', 'auth-refactor', '-m', 'Goal: x'], { env: { GIT_HANDOFF_SESSION: 's-1' } });
    await a.cli(['list']);
    expect(a.git(['config', 'handoff.formatVersion'], { allowFail: true }).stdout.trim()).toBe('');
    expect((await v2(a, ['list'])).exitCode).toBe(0);
    expect((await a.cli(['sync'], { env: { GIT_HANDOFF_SESSION: 's-1' } })).exitCode).toBe(0);
    expect(a.git(['config', 'handoff.formatVersion']).stdout.trim()).toBe('3');
    expect((await v2(a, ['list'])).exitCode).toBe(7);
  }, 120_000);
});
