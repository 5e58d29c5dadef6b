// Refs that arrived outside git-handoff (a fast-import, a mirror fetch) are taken into the loss record by batches
// (SPEC 9), each record commit landing before the next: a run killed after its first batch keeps that batch, and the
// next command takes in the rest. A write changes only its own refs' lines of the record it builds on.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecord, serializeRecord } from '../../../src/handoff/store/tx/record';
import { makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';
import { raw, RECORD, REF } from './helpers';

const recordedTips = (repo: TestRepo) =>
  repo
    .git(['cat-file', '-p', `${RECORD}:record`])
    .stdout.split('\n')
    .filter((l) => l.startsWith('tip '))
    .map((l) => l.split(' ')[3]);

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
    const subjects = repo.git(['log', '--first-parent', '--format=%s', RECORD]).stdout.split('\n').filter(Boolean);
    expect(subjects.slice(0, 3)).toEqual(['handoff record: 6 refs', 'handoff record: 5 refs', 'handoff record: 3 refs']);
  });
});

describe("a write's record update: the previous record with its own refs' lines replaced", () => {
  it('after writes, an archive and a drop, the record is what a full rebuild prints, and holds each move', async () => {
    const repo = makeRepo({ commit: true });
    for (const topic of ['beta-plan', 'alpha-plan', 'gamma-plan', 'login-redirect-loop']) await ok(repo, ['write', topic, '-m', `Goal: ${topic}`, '--session', 'sess-owner']);
    await ok(repo, ['archive', 'alpha-plan', '--session', 'sess-owner']);
    await ok(repo, ['drop', 'gamma-plan', '--session', 'sess-owner']);
    await ok(repo, ['write', 'beta-plan', '-m', 'Goal: again', '--session', 'sess-owner']);
    const text = repo.git(['cat-file', '-p', `${RECORD}:record`]).stdout;
    const rec = parseRecord(text, 'c'.repeat(40), 40);
    expect(rec.problem).toBeUndefined();
    expect(serializeRecord(rec)).toBe(text);
    expect(rec.entries.get('refs/handoffs/main/beta-plan')?.oid).toBe(refOf(repo, 'refs/handoffs/main/beta-plan'));
    expect(rec.removed.get('refs/handoffs/main/alpha-plan')?.why).toBe('archived');
    expect(rec.removed.get('refs/handoffs/main/gamma-plan')?.why).toBe('removed');
    const entries = repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-archive/']).stdout.trim().split('\n');
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(rec.entries.get(e.split(' ')[0])?.oid).toBe(e.split(' ')[1]);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });
});
