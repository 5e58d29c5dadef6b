// A record damaged by hand so that it names versions that are not in the repository (issue 23: "pointing at missing
// objects"): reported once and rebuilt, never taken for a loss, never a crash; a real loss beside it is still found
// and restored. (The record ref itself pointing at garbage, a truncated record file or a missing commit:
// test/handoff/record/record.split.test.ts.)
import { describe, expect, it } from 'vitest';
import { json, refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';
import { OTHER_REF as OTHER, RECORD, recordTreeWith, REF, raw, seeded } from './helpers';



/** The record with `ref`'s tip replaced by `oid`, as a well-formed record commit on top of the current one. */
function forge(repo: TestRepo, ref: string, oid: string) {
  const tree = recordTreeWith(repo, RECORD, (text) => text.replace(new RegExp(`tip [0-9a-f]+ (\\d+) ${ref}\n`), `tip ${oid} $1 ${ref}\n`));
  const c = repo.git(['commit-tree', tree, '-p', RECORD, '-m', 'handoff record: 3 refs\n\nHandoff-Record: 1']).stdout.trim();
  raw(repo, ['update-ref', RECORD, c]);
}

const MISSING = 'deadbeef'.repeat(5);

describe('a record naming versions that are not in the repository', () => {
  it('is reported once and rebuilt from the refs; nothing is taken for a loss, recover moves nothing', async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF);
    forge(repo, REF, MISSING);
    const r = await ok(repo, ['list']);
    expect(r.stderr).toMatch(/loss record is damaged or missing: it names version that is not in the repository \(refs\/handoffs\/main\/login-redirect-loop at deadbeefdead\): rebuilt/);
    expect(r.stderr).not.toMatch(/restore it:/);
    // rebuilt: the next command is quiet, recover finds nothing to do and exits 0
    expect((await ok(repo, ['list'])).stderr).toBe('');
    expect(json(await ok(repo, ['recover', '--json'])).actions).toEqual([]);
    expect(refOf(repo, REF)).toBe(tip);
    expect(repo.git(['cat-file', 'blob', `${RECORD}:main`]).stdout).toContain(`tip ${tip} `);
  });

  it('a deleted handoff it names wrongly is reported as damage; a real loss at the same time is still found and restored', async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF)!;
    forge(repo, OTHER, MISSING);
    raw(repo, ['update-ref', '-d', OTHER]);
    raw(repo, ['update-ref', '-d', REF]);
    const r = await ok(repo, ['list']);
    expect(r.stderr).toMatch(/not in the repository \(refs\/handoffs\/main\/cache-warmup-plan at deadbeefdead\)/);
    expect(r.stderr).toContain(`restore it: git handoff recover ${REF}`);
    expect(r.stderr).not.toContain(`recover ${OTHER}`);
    const out = json(await ok(repo, ['recover', '--json']));
    expect(out.actions).toEqual([expect.objectContaining({ ref: REF, action: 'restored', oid: tip })]);
    expect(refOf(repo, REF)).toBe(tip);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });
});
