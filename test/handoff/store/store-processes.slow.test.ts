// The store's process-saving paths (issue 7) keep behaviour: blobs written together or one by one, tracking
// copies read in the same for-each-ref as the handoffs, whether listed by branch, all, or shown one by one.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../../helpers/repo';
import { gitRecorder } from '../../sync/world';

const env = { GIT_HANDOFF_SESSION: 'proc-session' };

describe('store with fewer git processes', () => {
  it('writes the same bytes when no temporary directory can be made (one hash-object per blob)', async () => {
    const repo = makeRepo({ commit: true });
    const body = 'Goal: keep bytes\r\n\u00e9 src/app.ts\n';
    expect((await repo.cli(['write', 'tmp-less', '-F', '-'], { input: body, env: { ...env, TMPDIR: '/nonexistent/dir' } })).exitCode).toBe(0);
    expect((await repo.cli(['write', 'tmp-less', '-F', '-'], { input: body + 'two\n', env })).exitCode).toBe(0);
    const tip = refOf(repo, 'refs/handoffs/main/tmp-less')!;
    expect(repo.git(['cat-file', 'blob', `${tip}~1:handoff.md`]).stdout).toBe(body);
    expect(repo.git(['cat-file', 'blob', `${tip}:handoff.md`]).stdout).toBe(body + 'two\n');
    expect(JSON.parse(repo.git(['cat-file', 'blob', `${tip}:state.json`]).stdout)).toMatchObject({ branch: 'main', head: refOf(repo, 'HEAD') });
  });

  it('reports sync states from tracking copies in list --branch, list --all and show alike', async () => {
    const repo = makeRepo({ commit: true });
    for (const [topic, n] of [['ahead-notes', 2], ['behind-notes', 2], ['same-notes', 1]] as const) {
      for (let i = 0; i < n; i++) expect((await repo.cli(['write', topic, '-m', `v${i}`], { env })).exitCode).toBe(0);
    }
    const ref = (t: string) => `refs/handoffs/main/${t}`;
    // origin has: ahead-notes one version back, behind-notes one version on, same-notes the same
    repo.git(['update-ref', 'refs/handoff-remotes/origin/handoffs/main/ahead-notes', `${ref('ahead-notes')}~1`]);
    repo.git(['update-ref', 'refs/handoff-remotes/origin/handoffs/main/behind-notes', refOf(repo, ref('behind-notes'))!]);
    repo.git(['update-ref', ref('behind-notes'), `${ref('behind-notes')}~1`]);
    repo.git(['update-ref', 'refs/handoff-remotes/origin/handoffs/main/same-notes', refOf(repo, ref('same-notes'))!]);
    const want = { 'ahead-notes': 'ahead', 'behind-notes': 'behind', 'same-notes': 'synced' };
    for (const args of [['list', '--json'], ['list', '--all', '--json'], ['list', '--branch', 'main', '--json']]) {
      const rows = json(await repo.cli(args));
      expect(Object.fromEntries(rows.map((r: any) => [r.topic, r.sync])), args.join(' ')).toEqual(want);
    }
    for (const [topic, sync] of Object.entries(want)) expect(json(await repo.cli(['show', topic, '--json'])).sync).toBe(sync);
    // a tracking copy of another branch does not leak into this branch's listing
    repo.git(['update-ref', 'refs/handoff-remotes/origin/handoffs/other/ahead-notes', refOf(repo, ref('ahead-notes'))!]);
    expect(json(await repo.cli(['list', '--json'])).map((r: any) => r.topic).sort()).toEqual(Object.keys(want));
  });

  it('a write to an existing topic starts two git processes; its refs, its configuration, its objects and the loss record are read and written in-process, in one ref transaction', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'four-processes', '-m', 'one'], { env })).exitCode).toBe(0);
    expect((await repo.cli(['write', 'four-processes', '-m', 'two'], { env })).exitCode).toBe(0);
    const rec = gitRecorder(repo.dir);
    expect((await repo.cli(['write', 'four-processes', '-m', 'three'], { env: { ...env, ...rec.env } })).exitCode).toBe(0);
    expect(rec.calls().map((c) => c[0])).toEqual(['status', 'update-ref']);
    const tip = refOf(repo, 'refs/handoffs/main/four-processes')!;
    expect(repo.git(['cat-file', 'blob', `${tip}:handoff.md`]).stdout).toBe('three\n');
    expect(repo.git(['cat-file', '-p', 'refs/handoff-record:main']).stdout).toMatch(new RegExp(`^tip ${tip} \\d+ refs/handoffs/main/four-processes$`, 'm'));
    expect(repo.git(['fsck', '--strict', '--no-dangling']).status).toBe(0);
    // …and the next command's check trusts what the write proved: no git process for it
    const next = gitRecorder(repo.home);
    expect((await repo.cli(['list', '--json'], { env: { ...env, ...next.env } })).exitCode).toBe(0);
    expect(next.calls().map((c) => c[0])).toEqual([]);
  });

  it('show starts one git process while the version is loose (status; its refs read in-process), and reads it the same once packed', async () => {
    const repo = makeRepo({ commit: true });
    for (const m of ['one', 'two']) expect((await repo.cli(['write', 'two-processes', '-m', m], { env })).exitCode).toBe(0);
    const rec = gitRecorder(repo.dir);
    const loose = await repo.cli(['show', 'two-processes', '--json'], { env: { ...env, ...rec.env } });
    expect(loose.exitCode, String(loose.stderr)).toBe(0);
    expect(rec.calls().map((c) => c[0])).toEqual(['status']);
    repo.git(['gc', '-q']);
    const packed = await repo.cli(['show', 'two-processes', '--json'], { env });
    const { receiptsAt: _a, ...a } = json(loose);
    const { receiptsAt: _b, ...b } = json(packed);
    expect(b).toEqual(a);
    expect(a).toMatchObject({ body: 'two\n', versions: 2, state: { branch: 'main' } });
  });
});
