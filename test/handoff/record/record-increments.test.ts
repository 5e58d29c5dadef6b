// Refs that arrived outside git-handoff (a fast-import, a mirror fetch) are taken into the loss record by batches
// (SPEC 9), each record commit landing before the next: a run killed after its first batch keeps that batch, and the
// next command takes in the rest. A write rewrites only its own branch's shelf of the record it builds on, and a
// record of the first format (one file) is written shelved by the first check or write that reads it.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { checkRecord, unchangedSinceCheck } from '../../../src/handoff/record/record-check';
import { parseRecord, readSeen } from '../../../src/handoff/store/tx/record';
import { moveRefs } from '../../../src/handoff/store/tx';
import { makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';
import { raw, RECORD, recordText, REF } from './helpers';

const recordedTips = (repo: TestRepo, spec = RECORD) =>
  recordText(repo, spec)
    .split('\n')
    .filter((l) => l.startsWith('tip '))
    .map((l) => l.split(' ')[3])
    .sort();

describe('the first sight of refs made outside git-handoff', () => {
  it('killed after its first batch: the record keeps that batch, the next command takes in the rest', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(repo, ['list']);
    const tip = refOf(repo, REF)!;
    const made = ['a', 'b', 'c', 'd', 'e'].map((t) => `refs/handoffs/main/imported-${t}`);
    for (const ref of made) raw(repo, ['update-ref', ref, tip]);
    // a reference-transaction hook that kills git-handoff (its git's parent) once the first record commit is in
    const hooks = path.join(repo.home, 'killing-hooks');
    mkdirSync(hooks);
    const hook = path.join(hooks, 'reference-transaction');
    writeFileSync(hook, `#!/bin/sh\n[ "$1" = committed ] || exit 0\ngrep -q ' ${RECORD}$' || exit 0\nkill -9 $(ps -o ppid= -p $PPID)\n`);
    chmodSync(hook, 0o755);
    repo.git(['config', 'core.hooksPath', hooks]);
    const killed = await repo.cli(['list'], { env: { GIT_HANDOFF_RECORD_BATCH: '2' } });
    expect(killed.exitCode).not.toBe(0);
    expect(recordedTips(repo)).toEqual([REF, ...made.slice(0, 2)].sort());
    repo.git(['config', '--unset', 'core.hooksPath']);
    expect((await ok(repo, ['list'], 0, { GIT_HANDOFF_RECORD_BATCH: '2' })).stderr).toBe('');
    expect(recordedTips(repo)).toEqual([REF, ...made].sort());
    // two more record commits on the chain: the rest, two refs and one
    expect([`${RECORD}~1`, `${RECORD}~2`].map((c) => recordedTips(repo, c))).toEqual([[REF, ...made.slice(0, 4)].sort(), [REF, ...made.slice(0, 2)].sort()]);
  });
});

describe("a write's record update: the previous record with its own refs' lines replaced", () => {
  it('after writes, an archive and a drop, the record is what a full rebuild prints, and holds each move', async () => {
    const repo = makeRepo({ commit: true });
    for (const topic of ['beta-plan', 'alpha-plan', 'gamma-plan', 'login-redirect-loop']) await ok(repo, ['write', topic, '-m', `Goal: ${topic}`, '--session', 'sess-owner']);
    await ok(repo, ['archive', 'alpha-plan', '--session', 'sess-owner']);
    await ok(repo, ['drop', 'gamma-plan', '--session', 'sess-owner']);
    await ok(repo, ['write', 'beta-plan', '-m', 'Goal: again', '--session', 'sess-owner']);
    const text = recordText(repo);
    const rec = parseRecord(`git-handoff record 1\n${text}`, 'c'.repeat(40), 40);
    expect(rec.problem).toBeUndefined();
    // each shelf as a full rebuild prints it: its tip lines, then its removals, each in name order
    const lines = repo.git(['cat-file', 'blob', `${RECORD}:main`]).stdout.split('\n').filter(Boolean);
    const tips = lines.filter((l) => l.startsWith('tip '));
    const byRef = (ls: string[]) => [...ls].sort((a, b) => (a.split(' ')[3] < b.split(' ')[3] ? -1 : 1));
    expect(lines).toEqual([...byRef(tips), ...byRef(lines.filter((l) => !l.startsWith('tip ')))]);
    expect(rec.entries.get('refs/handoffs/main/beta-plan')?.oid).toBe(refOf(repo, 'refs/handoffs/main/beta-plan'));
    expect(rec.removed.get('refs/handoffs/main/alpha-plan')?.why).toBe('archived');
    expect(rec.removed.get('refs/handoffs/main/gamma-plan')?.why).toBe('removed');
    const entries = repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-archive/']).stdout.trim().split('\n');
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(rec.entries.get(e.split(' ')[0])?.oid).toBe(e.split(' ')[1]);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });
});

describe('a record of the first format (one file, every line)', () => {
  /** The record rewritten with raw git in the first format, on top of the shelved one; its commit. */
  const firstFormat = (repo: TestRepo) => {
    const blob = raw(repo, ['hash-object', '-w', '--stdin'], `git-handoff record 1\n${recordText(repo)}`).stdout.trim();
    const tree = raw(repo, ['mktree'], `100644 blob ${blob}\trecord\n`).stdout.trim();
    const c = raw(repo, ['commit-tree', tree, '-p', RECORD], repo.git(['show', '-s', '--format=%B', RECORD]).stdout).stdout.trim();
    raw(repo, ['update-ref', RECORD, c]);
    return c;
  };

  it('is read by the first check, which writes it shelved; a loss beside it is still found', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warm', '--session', 'sess-owner']);
    const tips = recordedTips(repo);
    const old = firstFormat(repo);
    expect((await ok(repo, ['list'])).stderr).toBe('');
    expect(repo.git(['ls-tree', '--name-only', RECORD]).stdout).toBe('main\n');
    expect(repo.git(['rev-parse', `${RECORD}^`]).stdout.trim()).toBe(old);
    expect(recordedTips(repo)).toEqual(tips);
    firstFormat(repo);
    raw(repo, ['update-ref', '-d', REF]);
    expect((await repo.cli(['list'])).stderr).toMatch(/refs\/handoffs\/main\/login-redirect-loop was deleted outside git-handoff/);
    expect(repo.git(['ls-tree', '--name-only', RECORD]).stdout).toBe('main\n');
  });

  it('is read by the first write, which records its move and writes it shelved', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warm', '--session', 'sess-owner']);
    firstFormat(repo);
    // a move through the store's transaction alone, no check before it
    const tip = refOf(repo, REF)!;
    const next = repo.git(['commit-tree', '-p', tip, '-m', 'next', `${tip}^{tree}`]).stdout.trim();
    expect(moveRefs(openRepo(repo.dir), [{ op: 'update', ref: REF, newOid: next, oldOid: tip }], 'test').ok).toBe(true);
    expect(repo.git(['ls-tree', '--name-only', RECORD]).stdout).toBe('main\n');
    expect(repo.git(['cat-file', 'blob', `${RECORD}:main`]).stdout).toMatch(new RegExp(`^tip ${next} \\d+ ${REF}$`, 'm'));
    expect(recordedTips(repo)).toEqual(['refs/handoffs/main/cache-warmup-plan', REF]);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });
});

describe('a move after the check at command start, in one process', () => {
  it('ref files changed outside git-handoff in between, in its own directory and in another, are found by the next check, not taken as verified', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(repo, ['write', 'other-plan', '-m', 'Goal: other', '--session', 'sess-owner', '--branch', 'feature-x']);
    await ok(repo, ['list']);
    const git = openRepo(repo.dir);
    expect(checkRecord(git).cached).toBe(true);
    // after this process's check: a ref deleted on another branch, one added beside the moved one, each by raw git
    const tip = refOf(repo, REF)!;
    raw(repo, ['update-ref', '-d', 'refs/handoffs/feature-x/other-plan']);
    raw(repo, ['update-ref', 'refs/handoffs/main/smuggled-plan', tip]);
    const next = repo.git(['commit-tree', '-p', tip, '-m', 'next', `${tip}^{tree}`]).stdout.trim();
    expect(moveRefs(git, [{ op: 'update', ref: REF, newOid: next, oldOid: tip }], 'test').ok).toBe(true);
    // the storage after the move is not the verified one: the next command lists the refs
    expect(unchangedSinceCheck(git.commonDir)).toBe(false);
    const { stderr } = await repo.cli(['list', '--all']);
    expect(stderr).toMatch(/refs\/handoffs\/feature-x\/other-plan was deleted outside git-handoff/);
    expect(recordedTips(repo)).toContain('refs/handoffs/main/smuggled-plan');
  });

  it('a move states again only what it touched: another branch changed in between keeps its stat from the check, and the next check finds it', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'login-redirect-loop', '-m', 'Goal: one', '--session', 'sess-owner']);
    await ok(repo, ['write', 'other-plan', '-m', 'Goal: other', '--session', 'sess-owner', '--branch', 'feature-x']);
    await ok(repo, ['write', 'third-plan', '-m', 'Goal: third', '--session', 'sess-owner', '--branch', 'feature-y']);
    await ok(repo, ['list']);
    const git = openRepo(repo.dir);
    // with nothing moved elsewhere, a write, a new branch's, an archive and a drop each leave the fingerprint the full one
    for (const args of [
      ['write', 'login-redirect-loop', '-m', 'Goal: two'],
      ['write', 'new-plan', '-m', 'Goal: new', '--branch', 'feature-z'],
      ['archive', 'other-plan', '--branch', 'feature-x'],
      ['drop', 'new-plan', '--branch', 'feature-z'],
    ]) {
      await ok(repo, [...args, '--session', 'sess-owner']);
      expect(unchangedSinceCheck(git.commonDir)).toBe(true);
    }
    expect(checkRecord(git).cached).toBe(true);
    const tip = refOf(repo, REF)!;
    const moved = refOf(repo, 'refs/handoffs/feature-y/third-plan')!;
    raw(repo, ['update-ref', 'refs/handoffs/feature-y/third-plan', tip, moved]);
    const next = repo.git(['commit-tree', '-p', tip, '-m', 'next', `${tip}^{tree}`]).stdout.trim();
    expect(moveRefs(git, [{ op: 'update', ref: REF, newOid: next, oldOid: tip }], 'test').ok).toBe(true);
    // the move proved its own directory in place: the verified fingerprint stands, with feature-y's stat of before
    expect(readSeen(git)?.fp).toMatch(/feature-y/);
    expect(unchangedSinceCheck(git.commonDir)).toBe(false);
    expect((await repo.cli(['list', '--all'])).stderr).toMatch(/refs\/handoffs\/feature-y\/third-plan was moved to/);
  });
});
