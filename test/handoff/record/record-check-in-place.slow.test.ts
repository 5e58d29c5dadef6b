// A loose handoff ref file rewritten in place (same inode, same size, mtime put back with touch -r: nothing a stat of
// the ref storage's directories can see, and nothing git itself ever does) is reported by the next command that
// reads the ref, and restored by `recover` (issue 23).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';
import { REF, rewriteInPlace, rogueCommit, seeded } from './helpers';

const versions = (repo: TestRepo) => repo.git(['rev-list', REF]).stdout.split('\n').filter(Boolean);

describe('a loose ref file rewritten in place', () => {
  it('rewound to an older version: `list` reports it, `recover` moves it forward again', async () => {
    const repo = await seeded();
    const [tip, first] = versions(repo);
    rewriteInPlace(repo, first);
    const r = await ok(repo, ['list']);
    expect(r.stderr).toMatch(new RegExp(`${REF} was moved to ${first.slice(0, 12)}, a history that does not contain its recorded version ${tip.slice(0, 12)}`));
    expect(r.stderr).toContain(`restore it: git handoff recover ${REF}`);
    await ok(repo, ['recover']);
    expect(refOf(repo, REF)).toBe(tip);
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });

  it('rewound while `list --all` keeps its listing and the agreement it found: the next `list --all` reports it all the same', async () => {
    const repo = await seeded();
    const [tip, first] = versions(repo);
    // twice: the second listing is the kept one, taken with the agreement the first found
    for (let i = 0; i < 2; i++) expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
    expect(readFileSync(path.join(repo.dir, '.git', 'handoff', 'listing'), 'latin1')).toContain(`\n${refOf(repo, 'refs/handoff-record')}\n`);
    rewriteInPlace(repo, first);
    const r = await ok(repo, ['list', '--all']);
    expect(r.stderr).toMatch(new RegExp(`${REF} was moved to ${first.slice(0, 12)}, a history that does not contain its recorded version ${tip.slice(0, 12)}`));
  });

  it('moved to a version by another session: `show` of it reports it before it shows it; recover keeps the rogue tip aside', async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF)!;
    const rogue = rogueCommit(repo, tip);
    rewriteInPlace(repo, rogue);
    const r = await ok(repo, ['show', 'login-redirect-loop']);
    expect(r.stderr).toMatch(new RegExp(`${REF} was moved from ${tip.slice(0, 12)} to ${rogue.slice(0, 12)}, which breaks the ownership rule`));
    const rec = JSON.parse(String((await ok(repo, ['recover', '--json'])).stdout));
    expect(rec.actions).toEqual([expect.objectContaining({ ref: REF, action: 'moved-back', oid: tip })]);
    expect(refOf(repo, rec.actions[0].keptAs)).toBe(rogue);
  });

  it('read by one ref read (`log`, a rev-parse of the ref), not a listing: reported too', async () => {
    const repo = await seeded();
    const [tip, first] = versions(repo);
    rewriteInPlace(repo, first);
    const r = await ok(repo, ['log', 'login-redirect-loop']);
    expect(r.stderr).toMatch(new RegExp(`${REF} was moved to ${first.slice(0, 12)}, a history that does not contain its recorded version ${tip.slice(0, 12)}`));
  });

  it('with the record packed by gc (read by git then, not in-process): reported too', async () => {
    const repo = await seeded();
    const [tip, first] = versions(repo);
    repo.git(['gc', '-q']);
    // the ref loose again beside its packed line (a file made: the next check is a full one, finding all in place)
    mkdirSync(path.dirname(path.join(repo.dir, '.git', REF)), { recursive: true });
    writeFileSync(path.join(repo.dir, '.git', REF), `${tip}\n`);
    expect((await ok(repo, ['list'])).stderr).toBe('');
    const record = refOf(repo, 'refs/handoff-record')!;
    expect(existsSync(path.join(repo.dir, '.git', 'objects', record.slice(0, 2), record.slice(2)))).toBe(false);
    rewriteInPlace(repo, first);
    expect((await ok(repo, ['list'])).stderr).toMatch(new RegExp(`${REF} was moved to ${first.slice(0, 12)}`));
  });

  it('nothing moved: the comparison reads the record in-process, no git process for it', async () => {
    const repo = await seeded();
    const trace = path.join(repo.home, 'trace');
    await ok(repo, ['list'], 0, { GIT_TRACE: trace });
    // no git process at all leaves no trace file
    expect(existsSync(trace) ? readFileSync(trace, 'utf8') : '').not.toMatch(/cat-file|handoff-record/);
  });
});
