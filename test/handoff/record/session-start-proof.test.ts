// Session start checks the loss record by proof (SPEC 9): the stat fingerprint and the checked-out branch's ref files
// read against the verified record, in full only when the proof fails. Each kind of loss made outside git-handoff is
// still reported or restored there; with nothing moved, no listing of every handoff ref runs.
import { describe, expect, it } from 'vitest';
import { refOf, type TestRepo } from '../../helpers/repo';
import { gitRecorder, ok } from '../../sync/world';
import { OTHER_REF, raw, REF, rewriteInPlace, rogueCommit, seeded } from './helpers';

const NOTES = 'refs/notes/handoff-reads';
const versions = (repo: TestRepo) => repo.git(['rev-list', REF]).stdout.split('\n').filter(Boolean);
const boot = async (repo: TestRepo, env?: Record<string, string>) => JSON.parse(String((await ok(repo, ['boot', '--json', '--session', 'sess-owner'], 0, env)).stdout));

describe('session start checks the record by proof', () => {
  it('nothing moved since the last check: no listing of every handoff ref, nothing said', async () => {
    const repo = await seeded();
    const rec = gitRecorder(repo.home);
    const view = await boot(repo, rec.env);
    expect(view.record).toBeUndefined();
    const listings = rec.calls().filter((c) => c[0] === 'for-each-ref' && c.includes('refs/handoffs/'));
    expect(listings).toEqual([]);
    expect(rec.calls().length).toBeGreaterThan(0);
  });

  it('a handoff deleted with raw git: restored', async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF)!;
    raw(repo, ['update-ref', '-d', REF]);
    expect((await boot(repo)).record.restored.join('\n')).toContain(`${REF} restored`);
    expect(refOf(repo, REF)).toBe(tip);
  });

  it("the checked-out branch's ref file rewound in place (nothing a stat sees): moved forward again", async () => {
    const repo = await seeded();
    const [tip, first] = versions(repo);
    rewriteInPlace(repo, first);
    expect((await boot(repo)).record.restored).toEqual([`${REF} moved forward again to ${tip.slice(0, 12)}`]);
    expect(refOf(repo, REF)).toBe(tip);
  });

  it("the checked-out branch's ref file moved in place to another session's version: moved back, the rogue tip kept", async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF)!;
    const rogue = rogueCommit(repo, tip);
    rewriteInPlace(repo, rogue);
    expect((await boot(repo)).record.restored.join('\n')).toContain(REF);
    expect(refOf(repo, REF)).toBe(tip);
    expect(repo.git(['for-each-ref', '--format=%(objectname)', 'refs/handoff-rogue/']).stdout.trim()).toBe(rogue);
  });

  it('another handoff rewound with raw git: moved forward again', async () => {
    const repo = await seeded();
    await ok(repo, ['write', 'cache-warmup-plan', '-m', 'Goal: warmer', '--session', 'sess-other']);
    await ok(repo, ['list']);
    const [tip, first] = repo.git(['rev-list', OTHER_REF]).stdout.split('\n').filter(Boolean);
    raw(repo, ['update-ref', OTHER_REF, first, tip]);
    expect((await boot(repo)).record.restored).toEqual([`${OTHER_REF} moved forward again to ${tip.slice(0, 12)}`]);
    expect(refOf(repo, OTHER_REF)).toBe(tip);
  });

  it('the receipts deleted with raw git: restored', async () => {
    const repo = await seeded();
    await ok(repo, ['show', 'login-redirect-loop', '--session', 'sess-reader']);
    await ok(repo, ['list']);
    const notes = refOf(repo, NOTES)!;
    raw(repo, ['update-ref', '-d', NOTES]);
    expect((await boot(repo)).record.restored.join('\n')).toContain(NOTES);
    expect(refOf(repo, NOTES)).toBe(notes);
  });

  it("a drop's undo deleted with raw git: restored, so `restore` still undoes the drop", async () => {
    const repo = await seeded();
    const tip = refOf(repo, OTHER_REF)!;
    const d = await ok(repo, ['drop', 'cache-warmup-plan', '--session', 'sess-other']);
    const kept = /undo it: git handoff restore (refs\/handoff-dropped\/\S+)/.exec(String(d.stdout) + String(d.stderr))![1];
    await ok(repo, ['list']);
    raw(repo, ['update-ref', '-d', kept]);
    expect((await boot(repo)).record.restored.join('\n')).toContain('refs/handoff-dropped/');
    expect(refOf(repo, kept)).toBe(tip);
    await ok(repo, ['restore', kept, '--session', 'sess-other']);
    expect(refOf(repo, OTHER_REF)).toBe(tip);
  });
});
