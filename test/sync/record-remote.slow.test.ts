// The loss record on the handoff remote (issue 36): `sync` publishes this clone's record as
// refs/handoff-records/<place> in its one push; `recover --from <remote>` rebuilds a clone that was destroyed (its
// directory and its witness outside .git both gone), every version; a remote sync does not push to gets nothing.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, tempDir, type TestRepo } from '../helpers/repo';
import { gitRecorder, handoffRefs, makeWorld, ok } from './world';

const LOGIN = 'refs/handoffs/main/login-redirect-loop';
const RECORD = 'refs/handoff-record';
const placeOf = (repo: TestRepo) => JSON.parse(readFileSync(path.join(repo.dir, '.git', 'handoff', 'witness.json'), 'utf8')).place as string;
const remoteRecords = (bare: TestRepo) => bare.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-records/']).stdout.trim();
const versions = (repo: TestRepo, ref: string) => repo.git(['rev-list', ref]).stdout.split('\n').filter(Boolean);
const witnessRoot = (repo: TestRepo) => path.join(repo.home, '.local', 'state', 'git-handoff', 'witness');
/** The same user and machine, another directory (the clone made again). */
const at = (repo: TestRepo, dir: string): TestRepo => ({ ...repo, dir, git: (args, o = {}) => repo.git(args, { cwd: dir, ...o }), cli: (args, o = {}) => repo.cli(args, { cwd: dir, ...o }) });

describe('the loss record on the handoff remote', () => {
  it('sync publishes the record as refs/handoff-records/<place> in its one push, and again when it moves (the server check lets it in)', async () => {
    // install --server's pre-receive check holds handoff refs to the invariant and scans them: the record ref is neither
    const { a, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    const r = gitRecorder(tempDir());
    const out = await ok(a, ['sync', '--json'], 0, r.env);
    const pushes = r.calls().filter((c) => c[0] === 'push' && c.includes('origin'));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toContain(`${refOf(a, RECORD)}:refs/handoff-records/${placeOf(a)}`);
    expect(remoteRecords(bare)).toBe(`refs/handoff-records/${placeOf(a)} ${refOf(a, RECORD)}`);
    expect(JSON.parse(String(out.stdout)).push.record).toMatchObject({ ref: `refs/handoff-records/${placeOf(a)}`, status: 'pushed' });
    // the lease of the next push: what the remote holds of it
    expect(refOf(a, `refs/handoff-remotes/origin/handoff-records/${placeOf(a)}`)).toBe(refOf(a, RECORD));
    // a second version: the record moves, and the one push carries it again
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner']);
    const r2 = gitRecorder(tempDir());
    const again = await ok(a, ['sync'], 0, r2.env);
    expect(r2.calls().filter((c) => c[0] === 'push' && c.includes('origin'))).toHaveLength(1);
    expect(String(again.stdout)).toMatch(/loss record +refs\/handoff-records\//);
    expect(remoteRecords(bare)).toBe(`refs/handoff-records/${placeOf(a)} ${refOf(a, RECORD)}`);
    // nothing else to push: no push at all, the record waits for the next one
    const r3 = gitRecorder(tempDir());
    await ok(a, ['sync'], 0, r3.env);
    expect(r3.calls().filter((c) => c[0] === 'push' && c.includes('origin'))).toHaveLength(0);
  });

  it('a clone destroyed with its witness: recover --from origin in a new clone restores every version, archived and dropped ones too', async () => {
    const { a, b, bare, url } = await makeWorld('file');
    a.commit('base');
    a.git(['push', '-q', 'origin', 'main']);
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner']);
    await ok(a, ['write', 'old-plan', '-m', 'Goal: retired', '--session', 'sess-owner']);
    await ok(a, ['archive', 'old-plan', '--session', 'sess-owner']);
    await ok(a, ['write', 'scratch-notes', '-m', 'Goal: scratch notes', '--session', 'sess-owner']);
    const scratch = refOf(a, 'refs/handoffs/main/scratch-notes')!;
    await ok(a, ['drop', 'scratch-notes', '--session', 'sess-owner']);
    await ok(a, ['sync']);
    // another clone of the project publishes its own record: alive, so never taken for a's
    b.git(['fetch', '-q', 'origin', 'main']);
    b.git(['reset', '-q', '--hard', 'origin/main']);
    await ok(b, ['write', 'b-notes', '-m', 'Goal: b', '--session', 'sess-b']);
    await ok(b, ['sync']);
    expect(remoteRecords(bare).split('\n')).toHaveLength(2);
    const was = { handoffs: handoffRefs(a), login: versions(a, LOGIN) };
    // the clone and its witness outside .git are gone; the remote lost its handoff refs too (only the record is left
    // to say what a's clone held: what comes back, comes back through it)
    rmSync(a.dir, { recursive: true, force: true });
    rmSync(witnessRoot(a), { recursive: true, force: true });
    for (const ref of bare.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/', 'refs/handoff-archive/']).stdout.split('\n').filter(Boolean)) bare.git(['update-ref', '-d', ref]);
    const dir = path.join(path.dirname(a.dir), 'again');
    a.git(['clone', '-q', url, dir], { cwd: path.dirname(a.dir) });
    const c = at(a, dir);
    const rec = await ok(c, ['recover', '--from', 'origin']);
    expect(String(rec.stdout)).toMatch(/against origin's refs\/handoff-records\/[0-9a-f]{16}, which holds/);
    expect(String(rec.stdout)).toMatch(/restored: refs\/handoffs\/main\/login-redirect-loop restored/);
    expect(handoffRefs(c)).toBe(was.handoffs);
    expect(versions(c, LOGIN)).toEqual(was.login);
    // the dropped version came back with the record (its objects), the other clone's record was not taken
    expect(c.git(['cat-file', '-e', scratch], { allowFail: true }).status).toBe(0);
    // and the drop's undo with it: the kept ref `restore` reads is back
    expect(c.git(['for-each-ref', '--format=%(objectname)', 'refs/handoff-dropped/main/scratch-notes/']).stdout.trim()).toBe(scratch);
    expect(c.git(['for-each-ref', 'refs/handoffs/main/b-notes']).stdout).toBe('');
    // no temporary ref is left behind
    expect(c.git(['for-each-ref', 'refs/handoff-records-from/']).stdout).toBe('');
    expect(String((await ok(c, ['show', 'login-redirect-loop', '--raw'])).stdout)).toContain('Goal: two');
    const list = await ok(c, ['list', '--archived', '--all', '--json']);
    expect(String(list.stdout)).toContain('old-plan');
    expect(String(list.stderr)).toBe('');
    expect(String((await ok(c, ['recover'])).stdout)).toMatch(/nothing lost/);
    // the new clone publishes its record (which took a's in) and is destroyed in turn: a third clone takes c's record,
    // not a's again (c's reaches it) and not b's (alive)
    await ok(c, ['write', 'login-redirect-loop', '-m', 'Goal: three', '--session', 'sess-owner']);
    await ok(c, ['sync']);
    expect(remoteRecords(bare).split('\n')).toHaveLength(3);
    const was3 = { handoffs: handoffRefs(c), login: versions(c, LOGIN) };
    rmSync(c.dir, { recursive: true, force: true });
    rmSync(witnessRoot(c), { recursive: true, force: true });
    const d = at(a, path.join(path.dirname(a.dir), 'third'));
    a.git(['clone', '-q', url, d.dir], { cwd: path.dirname(a.dir) });
    for (const ref of bare.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/', 'refs/handoff-archive/']).stdout.split('\n').filter(Boolean)) bare.git(['update-ref', '-d', ref]);
    await ok(d, ['recover', '--from', 'origin']);
    expect(handoffRefs(d)).toBe(was3.handoffs);
    expect(versions(d, LOGIN)).toEqual(was3.login);
    expect(versions(d, LOGIN)).toHaveLength(3);
  });

  it('recover --from a remote that is not there: a usage error (exit 2), nothing moves', async () => {
    const { a } = await makeWorld('file');
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    const before = handoffRefs(a);
    const r = await ok(a, ['recover', '--from', 'nowhere'], 2);
    expect(String(r.stderr)).toMatch(/no remote named "nowhere"/);
    expect(handoffRefs(a)).toBe(before);
  });

  it('a remote sync does not push handoffs to never gets the record: not by git push (--all, --tags), nor by the pre-push hook\'s autoSync, which pushes the handoffs only', async () => {
    const { a, bare } = await makeWorld('file');
    const mirror = makeRepo({ init: ['--bare'] });
    a.git(['remote', 'add', 'mirror', mirror.dir]);
    a.commit('base');
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(a, ['sync']);
    expect(remoteRecords(bare)).not.toBe('');
    a.git(['push', '-q', 'mirror', 'main']);
    a.git(['push', '-q', '--all', 'mirror']);
    a.git(['push', '-q', '--tags', 'mirror']);
    expect(remoteRecords(mirror)).toBe('');
    expect(mirror.git(['for-each-ref', '--format=%(refname)']).stdout.trim()).toBe('refs/heads/main');
    // the pre-push hook's autoSync pushes the handoffs along with a git push, never the record
    await ok(a, ['install', '--hooks']);
    a.git(['config', 'handoff.autoSync', 'true']);
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner']);
    a.commit('more');
    a.git(['push', '-q', 'mirror', 'main']);
    expect(refOf(mirror, LOGIN)).toBe(refOf(a, LOGIN));
    expect(remoteRecords(mirror)).toBe('');
    expect(mirror.git(['for-each-ref', '--format=%(refname)', 'refs/handoff-record', 'refs/handoff-records/', 'refs/witness/']).stdout).toBe('');
  });

  it('a remote that refuses the record ref: the handoffs still go, sync exits 0 and says the record was not published', async () => {
    const { a, bare } = await makeWorld('file');
    const hook = path.join(bare.dir, 'hooks', 'update');
    writeFileSync(hook, '#!/bin/sh\ncase "$1" in refs/handoff-records/*) echo "no records on this host" >&2; exit 1;; esac\nexit 0\n');
    chmodSync(hook, 0o755);
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    const r = await ok(a, ['sync']);
    expect(String(r.stderr)).toMatch(/warning: the loss record was not published to origin \(refs\/handoff-records\/[0-9a-f]{16}: /);
    expect(refOf(bare, LOGIN)).toBe(refOf(a, LOGIN));
    expect(remoteRecords(bare)).toBe('');
    const json = JSON.parse(String((await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner'], 0), await ok(a, ['sync', '--json'])).stdout));
    expect(json.push.record.status).toBe('rejected');
    expect(refOf(bare, LOGIN)).toBe(refOf(a, LOGIN));
  });

  it('a secret only the record reaches (a dropped version made with raw git) keeps the record here; the handoffs go', async () => {
    const { a, bare } = await makeWorld('file');
    const ref = 'refs/handoffs/main/auth-notes';
    await ok(a, ['write', 'auth-notes', '-m', 'Goal: clean start', '--session', 'sess-a']);
    const secret = 'ghp_' + 'Rd4'.repeat(12);
    const blob = a.git(['hash-object', '-w', '--stdin'], { input: `leak ${secret}\n` }).stdout.trim();
    const tree = a.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
    const leak = a.git(['commit-tree', tree, '-p', ref], { input: 'handoff(auth-notes): leak\n\nClaude-Session-Id: sess-a\nHandoff-Topic: auth-notes\nHandoff-Branch: main\n' }).stdout.trim();
    a.git(['-c', 'core.hooksPath=/dev/null', 'update-ref', ref, leak]);
    await ok(a, ['list']);
    await ok(a, ['drop', 'auth-notes', '--session', 'sess-a']);
    await ok(a, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    const r = await ok(a, ['sync']);
    expect(String(r.stderr)).toMatch(/warning: the loss record was not published to origin \(refs\/handoff-records\/[0-9a-f]{16}: not sent: it reaches a version with secrets/);
    expect(String(r.stderr)).not.toContain(secret);
    expect(refOf(bare, LOGIN)).toBe(refOf(a, LOGIN));
    expect(remoteRecords(bare)).toBe('');
    expect(bare.git(['cat-file', '-e', blob], { allowFail: true }).status).not.toBe(0);
  });
});
