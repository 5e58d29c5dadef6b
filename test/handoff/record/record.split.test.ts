// The loss record (issue 23): damage done with raw git while nothing of the product runs (no guard, no hooks) is
// reported by the next command and restored by `recover`, every version, also after reflog expiry and gc --prune=now.
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inThisSet, quickIt, slowIt } from '../../helpers/sets';
import { openRepo } from '../../../src/git/repo';
import { moveRefs } from '../../../src/handoff/store/tx';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { gitRecorder, ok } from '../../sync/world';
import { recordTreeWith } from './helpers';

const REF = 'refs/handoffs/main/login-redirect-loop';
const NOTES = 'refs/notes/handoff-reads';
/** raw git with no hooks at all: nothing of the product runs */
const raw = (repo: TestRepo, args: string[], input?: string) => repo.git(['-c', 'core.hooksPath=/dev/null', ...args], { input });
const versions = (repo: TestRepo, ref: string) => repo.git(['rev-list', ref]).stdout.split('\n').filter(Boolean);
const gcNow = (repo: TestRepo) => {
  repo.git(['reflog', 'expire', '--expire=now', '--all']);
  repo.git(['gc', '-q', '--prune=now']);
};

/** Two versions of one handoff by sess-owner, another handoff, and a read receipt by sess-reader. */
async function seeded() {
  const repo = makeRepo({ commit: true });
  await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
  await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: two', '--session', 'sess-owner']);
  await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warm', '--session', 'sess-other']);
  await ok(repo, ['show', 'login-redirect-loop', '--session', 'sess-reader']);
  // a command that finds everything in place (the verified cache is written)
  await ok(repo, ['list']);
  return { repo, tip: refOf(repo, REF)!, history: versions(repo, REF), notes: refOf(repo, NOTES)! };
}

/** A commit by another session on top of `parent`, with the handoff's tree: what a rogue tool call would make. */
function rogueCommit(repo: TestRepo, parent: string | null, session = 'sess-rogue'): string {
  const tree = repo.git(['rev-parse', `${REF}^{tree}`]).stdout.trim();
  const msg = `handoff(login-redirect-loop): mine now\n\nClaude-Session-Id: ${session}\nHandoff-Branch: main\nHandoff-Topic: login-redirect-loop\nHandoff-Head: none\nHandoff-Client: cli\n`;
  return repo.git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], { input: msg }).stdout.trim();
}

async function expectReported(repo: TestRepo, pattern: RegExp, ref = REF) {
  const r = await ok(repo, ['list', '--all']);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).toContain(`git handoff recover ${ref}`);
  expect(r.stderr).toMatch(/last seen in place \d{4}-\d\d-\d\dT/);
}

describe('the loss record', () => {
  for (const gc of inThisSet([false], [true])) {
    const after = gc ? ' (after reflog expire and gc --prune=now)' : '';
    it(`a handoff deleted with raw update-ref is reported and restored with every version${after}`, async () => {
      const { repo, tip, history } = await seeded();
      raw(repo, ['update-ref', '-d', REF]);
      if (gc) gcNow(repo);
      await expectReported(repo, /refs\/handoffs\/main\/login-redirect-loop was deleted outside git-handoff/);
      const r = json(await ok(repo, ['recover', '--json']));
      expect(r.actions).toEqual([expect.objectContaining({ ref: REF, action: 'restored', oid: tip })]);
      expect(versions(repo, REF)).toEqual(history);
      // reported no more
      expect((await ok(repo, ['list'])).stderr).toBe('');
    });

    it(`a handoff whose ref file and packed-refs line were removed by hand is restored${after}`, async () => {
      const { repo, tip, history } = await seeded();
      repo.git(['pack-refs', '--all']);
      const gitDir = path.join(repo.dir, '.git');
      const packed = path.join(gitDir, 'packed-refs');
      writeFileSync(packed, readFileSync(packed, 'utf8').split('\n').filter((l) => !l.endsWith(` ${REF}`)).join('\n'));
      rmSync(path.join(gitDir, REF), { force: true });
      expect(refOf(repo, REF)).toBeNull();
      if (gc) gcNow(repo);
      await expectReported(repo, /was deleted outside git-handoff/);
      await ok(repo, ['recover']);
      expect(refOf(repo, REF)).toBe(tip);
      expect(versions(repo, REF)).toEqual(history);
    });

    it(`a handoff moved to a rogue history naming another session goes back; the rogue tip is kept aside${after}`, async () => {
      const { repo, tip, history } = await seeded();
      const rogue = rogueCommit(repo, history[1]);
      raw(repo, ['update-ref', REF, rogue]);
      if (gc) gcNow(repo);
      await expectReported(repo, /moved to [0-9a-f]{12}, a history that does not contain its recorded version/);
      const r = json(await ok(repo, ['recover', '--json']));
      expect(r.actions).toEqual([expect.objectContaining({ ref: REF, action: 'moved-back', oid: tip, keptAs: expect.stringMatching(/^refs\/handoff-rogue\/main\/login-redirect-loop\//) })]);
      expect(versions(repo, REF)).toEqual(history);
      expect(refOf(repo, r.actions[0].keptAs)).toBe(rogue);
    });

    it(`read receipts deleted are reported and restored${after}`, async () => {
      const { repo, notes, tip } = await seeded();
      raw(repo, ['update-ref', '-d', NOTES]);
      if (gc) gcNow(repo);
      await expectReported(repo, /the read receipts \(refs\/notes\/handoff-reads\) were deleted/, NOTES);
      await ok(repo, ['recover']);
      expect(refOf(repo, NOTES)).toBe(notes);
      expect(repo.git(['notes', `--ref=${NOTES}`, 'show', tip]).stdout).toMatch(/^sess-reader \d+ read$/m);
    });
  }

  slowIt('receipts dropped from the notes are merged back, nothing of the later ones lost', async () => {
    const { repo, tip, notes } = await seeded();
    // a notes commit on top that empties the note of the tip
    raw(repo, ['notes', `--ref=${NOTES}`, 'remove', tip]);
    expect(refOf(repo, NOTES)).not.toBe(notes);
    await expectReported(repo, /read receipt line was dropped/, NOTES);
    await ok(repo, ['recover']);
    expect(repo.git(['notes', `--ref=${NOTES}`, 'show', tip]).stdout).toMatch(/^sess-reader \d+ read$/m);
    expect(repo.git(['merge-base', '--is-ancestor', notes, NOTES], { allowFail: true }).status).toBe(0);
  });

  slowIt('with the git hooks installed, recover moves a rogue tip back through them, on the record (audit.jsonl)', async () => {
    const { repo, tip, history } = await seeded();
    await ok(repo, ['install', '--hooks']);
    const rogue = rogueCommit(repo, history[1]);
    raw(repo, ['update-ref', REF, rogue]);
    // the hooks refuse the same move done by hand
    expect(repo.git(['update-ref', REF, tip, rogue], { allowFail: true }).status).not.toBe(0);
    await ok(repo, ['recover']);
    expect(refOf(repo, REF)).toBe(tip);
    expect(readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8')).toMatch(/"hook":"reference-transaction"/);
  });

  slowIt('a version added by another session without a takeover is moved back; the owner keeps writing', async () => {
    const { repo, tip, history } = await seeded();
    const rogue = rogueCommit(repo, tip);
    raw(repo, ['update-ref', REF, rogue]);
    await expectReported(repo, /breaks the ownership rule/);
    await ok(repo, ['recover']);
    expect(versions(repo, REF)).toEqual(history);
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: three', '--session', 'sess-owner']);
  });

  slowIt('a legitimate newer version is never overwritten: two sound histories are both kept', async () => {
    const { repo, tip } = await seeded();
    // another history of the same name by the recorded owner itself, sound from its root: recover keeps both, moves
    // nothing (another session's parentless history is a forged takeover: test/handoff/record/recover-forged-takeover.slow.test.ts)
    const other = rogueCommit(repo, null, 'sess-owner');
    raw(repo, ['update-ref', REF, other]);
    const r = await repo.cli(['recover', '--json']);
    const out = json(r);
    expect(out.actions).toEqual([expect.objectContaining({ action: 'kept-aside', keptAs: expect.stringMatching(/^refs\/handoff-kept\//) })]);
    expect(refOf(repo, REF)).toBe(other);
    expect(refOf(repo, out.actions[0].keptAs)).toBe(tip);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });

  slowIt('an archived handoff is not resurrected, even when the archive ran with the record left behind', async () => {
    const { repo } = await seeded();
    await ok(repo, ['archive', 'login-redirect-loop', '--session', 'sess-owner']);
    expect(json(await ok(repo, ['recover', '--json'])).actions).toEqual([]);
    expect(refOf(repo, REF)).toBeNull();
    // an archive made by raw git (archive entry on top, live ref deleted) with no record update: not a loss either
    await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warmer', '--session', 'sess-other']);
    const ref2 = 'refs/handoffs/main/cache-warmup-plan';
    const tip2 = refOf(repo, ref2)!;
    const tree = repo.git(['rev-parse', `${tip2}^{tree}`]).stdout.trim();
    const entry = repo.git(['commit-tree', tree, '-p', tip2, '-F', '-'], {
      input: 'handoff(cache-warmup-plan): archived\n\nClaude-Session-Id: sess-other\nHandoff-Branch: main\nHandoff-Topic: cache-warmup-plan\nHandoff-Head: none\nHandoff-Client: cli\n',
    }).stdout.trim();
    raw(repo, ['update-ref', '--stdin'], `start\ncreate refs/handoff-archive/main/cache-warmup-plan/1-${entry.slice(0, 12)} ${entry}\ndelete ${ref2} ${tip2}\nprepare\ncommit\n`);
    expect((await ok(repo, ['list'])).stderr).toBe('');
    expect(json(await ok(repo, ['recover', '--json'])).actions).toEqual([]);
    expect(refOf(repo, ref2)).toBeNull();
  });

  slowIt('everything but branches deleted and .git/handoff removed: recover --scan rebuilds from unreachable objects', async () => {
    const { repo, tip, history, notes } = await seeded();
    await ok(repo, ['write', 'old-release-notes', '-m', 'Goal: old', '--session', 'sess-owner']);
    const archivedTip = refOf(repo, 'refs/handoffs/main/old-release-notes');
    await ok(repo, ['archive', 'old-release-notes', '--session', 'sess-owner']);
    // two entries (SPEC 2 "Format version"): the archive version on the tip, and the format-1 entry at the tip
    const archived = repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-archive/']).stdout.trim().split('\n').map((l) => l.split(' '));
    expect(archived.map(([, oid]) => oid).sort()).toContain(archivedTip);
    const [aref, aoid] = archived.find(([, oid]) => oid !== archivedTip)!;
    const other = refOf(repo, 'refs/handoffs/main/cache-warmup-plan')!;
    for (const ref of repo.git(['for-each-ref', '--format=%(refname)']).stdout.split('\n').filter((r) => r && !r.startsWith('refs/heads/'))) raw(repo, ['update-ref', '-d', ref]);
    rmSync(path.join(repo.dir, '.git', 'handoff'), { recursive: true, force: true });
    // the witness outside .git lost too (else it would bring the record back: test/handoff/record/witness.slow.test.ts)
    rmSync(path.join(repo.home, '.local', 'state', 'git-handoff'), { recursive: true, force: true });
    // git's own gc keeps unreachable objects for two weeks (gc.pruneExpire): the window --scan works in
    repo.git(['gc', '-q']);
    // nothing to compare with: the record is gone too
    expect((await ok(repo, ['list'])).stderr).toBe('');
    await ok(repo, ['recover', '--scan']);
    expect(refOf(repo, REF)).toBe(tip);
    expect(versions(repo, REF)).toEqual(history);
    expect(refOf(repo, 'refs/handoffs/main/cache-warmup-plan')).toBe(other);
    // the archived one comes back archived, not live
    expect(refOf(repo, 'refs/handoffs/main/old-release-notes')).toBeNull();
    // both entries come back, as the record held them
    expect(repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-archive/main/old-release-notes/']).stdout.trim().split('\n').map((l) => l.split(' '))).toEqual(archived);
    expect(aoid).not.toBe(archivedTip);
    expect(aref).toMatch(/^refs\/handoff-archive\/main\/old-release-notes\//);
    expect(refOf(repo, NOTES)).toBe(notes);
    // and the record is rebuilt: a deletion now is reported again
    raw(repo, ['update-ref', '-d', REF]);
    await expectReported(repo, /was deleted outside git-handoff/);
  });

  slowIt('a damaged record is reported and rebuilt, never trusted, never a crash; a loss at the same time is still found', async () => {
    const { repo, tip } = await seeded();
    const record = 'refs/handoff-record';
    // garbage: the record ref pointing at a blob, then at a commit whose record file is truncated, then at nothing
    const blob = repo.git(['hash-object', '-w', '--stdin'], { input: 'garbage\n' }).stdout.trim();
    raw(repo, ['update-ref', '--no-deref', record, blob]);
    raw(repo, ['update-ref', '-d', REF]);
    let r = await ok(repo, ['list']);
    expect(r.stderr).toMatch(/loss record is damaged or missing: .*not a record commit|points at a blob/);
    expect(r.stderr).toContain(`git handoff recover ${REF}`);
    await ok(repo, ['recover']);
    expect(refOf(repo, REF)).toBe(tip);

    const good = refOf(repo, record)!;
    const tree = recordTreeWith(repo, good, (text) => text.slice(0, text.length - 20));
    const truncated = repo.git(['commit-tree', tree, '-m', 'handoff record: 3 refs\n\nHandoff-Record: 1']).stdout.trim();
    raw(repo, ['update-ref', record, truncated]);
    r = await ok(repo, ['list']);
    expect(r.stderr).toMatch(/does not parse/);
    expect((await ok(repo, ['list'])).stderr).toBe('');

    writeFileSync(path.join(repo.dir, '.git', record), '0123456789012345678901234567890123456789\n');
    rmSync(path.join(repo.dir, '.git', 'handoff', 'record-seen.json'));
    r = await repo.cli(['list']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/not in the repository|damaged or missing/);
    expect(refOf(repo, REF)).toBe(tip);
  });

  quickIt('a forged record cannot make recover drop the owner\'s versions', async () => {
    const { repo, tip, history } = await seeded();
    const record = 'refs/handoff-record';
    const forge = (oid: string) => {
      const tree = recordTreeWith(repo, record, (text) => text.replace(new RegExp(`tip [0-9a-f]+ (\\d+) ${REF}`), `tip ${oid} $1 ${REF}`));
      const c = repo.git(['commit-tree', tree, '-p', record, '-p', oid, '-m', 'handoff record: forged\n\nHandoff-Record: 1']).stdout.trim();
      raw(repo, ['update-ref', record, c]);
    };
    // a history beside the owner's
    forge(rogueCommit(repo, history[1]));
    let r = await repo.cli(['recover']);
    expect(r.exitCode).toBe(6);
    expect(refOf(repo, REF)).toBe(tip);
    // a version on top that takes it without a takeover
    forge(rogueCommit(repo, tip));
    r = await repo.cli(['recover']);
    expect(r.exitCode).toBe(6);
    expect(refOf(repo, REF)).toBe(tip);
    expect(versions(repo, REF)).toEqual(history);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });

  quickIt('boot (session start) restores an unambiguous loss by itself and says so once', async () => {
    const { repo, tip } = await seeded();
    raw(repo, ['update-ref', '-d', REF]);
    const first = await ok(repo, ['boot', '--session', 'sess-owner']);
    expect(first.stdout).toMatch(/restored at session start \(lost outside git-handoff\): refs\/handoffs\/main\/login-redirect-loop restored/);
    expect(refOf(repo, REF)).toBe(tip);
    const second = await ok(repo, ['boot', '--session', 'sess-owner']);
    expect(second.stdout).not.toMatch(/restored at session start/);
  });

  slowIt('an intentional removal by the product (a deletion through tx, the record moved with it) is no loss', async () => {
    const { repo, tip } = await seeded();
    // without a recorded removal a deletion is a loss
    raw(repo, ['update-ref', '-d', REF, tip]);
    await expectReported(repo, /was deleted outside git-handoff/);
    await ok(repo, ['recover']);
    // what a `drop` of a never-pushed topic does: the deletion, the ref keeping its versions (the drop's undo) and the
    // record's move in one transaction (a removal whose kept ref is gone is that ref's loss: test/cli/commands/drop-restore.slow.test.ts)
    const kept = `refs/handoff-dropped/main/login-redirect-loop/1795000000-${tip.slice(0, 12)}`;
    expect(moveRefs(openRepo(repo.dir), [{ op: 'create', ref: kept, newOid: tip }, { op: 'delete', ref: REF, oldOid: tip }], 'handoff drop login-redirect-loop').ok).toBe(true);
    expect(repo.git(['cat-file', 'blob', 'refs/handoff-record:main']).stdout).toMatch(new RegExp(`^removed ${tip} 1795000000 ${REF}$`, 'm'));
    expect((await ok(repo, ['list'])).stderr).toBe('');
    expect(json(await ok(repo, ['recover', '--json'])).actions).toEqual([]);
    expect(refOf(repo, REF)).toBeNull();
    // its versions stay reachable from the record
    expect(repo.git(['merge-base', '--is-ancestor', tip, 'refs/handoff-record'], { allowFail: true }).status).toBe(0);
    // the removal is dated by the kept ref's own stamp, so that ref deleted outside git-handoff comes back by its name
    raw(repo, ['update-ref', '-d', kept]);
    await ok(repo, ['recover']);
    expect(refOf(repo, kept)).toBe(tip);
  });

  quickIt('the check costs no git process when nothing moved since the last check, also right after a write', async () => {
    const { repo } = await seeded();
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: three', '--session', 'sess-owner']);
    const rec = gitRecorder(repo.home);
    await ok(repo, ['log', 'login-redirect-loop'], 0, rec.env);
    // log's own reads only: nothing names the record ref
    expect(rec.calls().filter((c) => c.includes('refs/handoff-record'))).toEqual([]);
    expect(rec.calls().length).toBeGreaterThan(0);
    // and a move outside the product makes the next one look
    raw(repo, ['update-ref', '-d', REF]);
    await expectReported(repo, /was deleted outside git-handoff/);
  });

  slowIt('16 writers of different topics at once all land, and the record holds every one', async () => {
    const repo = makeRepo({ commit: true });
    const topics = Array.from({ length: 16 }, (_, i) => `parallel-topic-${i}`);
    const runs = await Promise.all(topics.map((t, i) => repo.cli(['write', t, '-m', `Goal: ${t}`, '--session', `sess-${i}`])));
    expect(runs.map((r) => r.exitCode)).toEqual(topics.map(() => 0));
    await ok(repo, ['list']);
    const text = repo.git(['cat-file', 'blob', 'refs/handoff-record:main']).stdout;
    for (const t of topics) expect(text).toContain(` refs/handoffs/main/${t}\n`);
    // and each tip is reachable from the record
    for (const t of topics) expect(repo.git(['merge-base', '--is-ancestor', `refs/handoffs/main/${t}`, 'refs/handoff-record'], { allowFail: true }).status).toBe(0);
  });
});
