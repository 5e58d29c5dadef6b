// `list --all` from the listing kept since the last one (src/handoff/store/listing-kept.ts): it prints what git reads
// now after every kind of change, asks git for the fields only of refs whose oid is not kept, and keeps nothing that
// could read otherwise (git's trailer rules, a repository not found plain).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { gitRecorder } from '../../sync/world';
import { RECORD_REF } from '../../../src/handoff/store/tx/record';

const env = { GIT_HANDOFF_SESSION: 'kept-session' };
const keptFile = (repo: TestRepo) => path.join(repo.dir, '.git', 'handoff', 'listing');

/** list --all --json with the kept listing as it is, then with none (all read from git): both answers. */
async function bothWays(repo: TestRepo, extra: Record<string, string> = {}): Promise<{ kept: unknown; git: unknown }> {
  const a = await repo.cli(['list', '--all', '--json'], { env: { ...env, ...extra } });
  expect(a.exitCode, String(a.stderr)).toBe(0);
  rmSync(keptFile(repo), { force: true });
  const b = await repo.cli(['list', '--all', '--json'], { env: { ...env, ...extra } });
  expect(b.exitCode, String(b.stderr)).toBe(0);
  return { kept: json(a), git: json(b) };
}

const LISTINGS = ['--format=%(refname)%00%(objectname)%00%00%00', '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00'];

/** The listing calls (for-each-ref) of each list --all --json through one recorder (one git on PATH: the kept listing's key holds it). */
function recorded(repo: TestRepo): () => Promise<string[][]> {
  const rec = gitRecorder(path.join(repo.home, 'rec'));
  let seen = 0;
  return async () => {
    // GIT_REF_PARANOIA: every listing through git (none read in-process), so the recorder sees each
    const r = await repo.cli(['list', '--all', '--json'], { env: { ...env, ...rec.env, GIT_REF_PARANOIA: '1' } });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const calls = rec.calls();
    const mine = calls.slice(seen);
    seen = calls.length;
    // the listing's own reads: the loss record's check (of 70 refs created raw, say) names the record ref among the
    // refs it reads, which no listing of handoffs does
    return mine.filter((c) => c[0] === 'for-each-ref' && LISTINGS.includes(c[1]) && !c.includes(RECORD_REF));
  };
}

describe('list --all from the kept listing', () => {
  it('prints what git reads now after a write, a new topic, a raw deletion, a raw move and many new refs', async () => {
    const repo = makeRepo({ commit: true });
    for (const t of ['alpha-notes', 'beta-notes', 'gamma-notes']) expect((await repo.cli(['write', t, '-m', `${t} one`], { env })).exitCode).toBe(0);
    const first = await bothWays(repo);
    expect(first.kept).toEqual(first.git);
    expect((first.git as unknown[]).length).toBe(3);
    expect(existsSync(keptFile(repo))).toBe(true);

    const steps: Array<[string, () => Promise<void> | void]> = [
      ['a write moves a kept ref', async () => void expect((await repo.cli(['write', 'beta-notes', '-m', 'beta two'], { env })).exitCode).toBe(0)],
      ['a new topic', async () => void expect((await repo.cli(['write', 'aaa-first-notes', '-m', 'new'], { env })).exitCode).toBe(0)],
      ['a raw deletion', () => void repo.git(['update-ref', '-d', 'refs/handoffs/main/gamma-notes'])],
      ['a raw move to another version', () => void repo.git(['update-ref', 'refs/handoffs/main/beta-notes', 'refs/handoffs/main/beta-notes~1'])],
      ['a tracking copy', () => void repo.git(['update-ref', 'refs/handoff-remotes/origin/handoffs/main/alpha-notes', 'refs/handoffs/main/alpha-notes'])],
      [
        'more refs than are read one by one',
        () => {
          const tip = refOf(repo, 'refs/handoffs/main/alpha-notes')!;
          repo.git(['update-ref', '--stdin'], { input: Array.from({ length: 70 }, (_, i) => `create refs/handoffs/side-${i}/copy-notes ${tip}\n`).join('') });
        },
      ],
      ['all of those gone again', () => void repo.git(['update-ref', '--stdin'], { input: Array.from({ length: 70 }, (_, i) => `delete refs/handoffs/side-${i}/copy-notes\n`).join('') })],
    ];
    for (const [what, change] of steps) {
      // the kept listing is the one the last list wrote: make one from it first
      expect((await repo.cli(['list', '--all', '--json'], { env })).exitCode).toBe(0);
      await change();
      const { kept, git } = await bothWays(repo);
      expect(kept, what).toEqual(git);
    }
  });

  it('asks git for names and oids only while nothing moved, and for the fields of the one ref that did', async () => {
    const repo = makeRepo({ commit: true });
    for (const t of ['one-notes', 'two-notes']) expect((await repo.cli(['write', t, '-m', t], { env })).exitCode).toBe(0);
    rmSync(keptFile(repo), { force: true });
    const listings = recorded(repo);
    const cold = await listings();
    expect(cold.map((c) => c[1])).toEqual(['--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00']);
    const warm = await listings();
    expect(warm.map((c) => c[1])).toEqual(['--format=%(refname)%00%(objectname)%00%00%00']);
    expect((await repo.cli(['write', 'two-notes', '-m', 'two again'], { env })).exitCode).toBe(0);
    const moved = await listings();
    expect(moved.map((c) => c.slice(1))).toEqual([['--format=%(refname)%00%(objectname)%00%00%00', 'refs/handoffs/', 'refs/handoff-remotes/*/handoffs/*/*'], ['--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00', 'refs/handoffs/main/two-notes']]);
    expect((await listings()).length).toBe(1);
    // more refs moved than are read one by one: one listing of the whole store again
    const tip = refOf(repo, 'refs/handoffs/main/one-notes')!;
    repo.git(['update-ref', '--stdin'], { input: Array.from({ length: 70 }, (_, i) => `create refs/handoffs/side-${i}/copy-notes ${tip}\n`).join('') });
    expect((await listings()).map((c) => c.slice(1))).toEqual([['--format=%(refname)%00%(objectname)%00%00%00', 'refs/handoffs/', 'refs/handoff-remotes/*/handoffs/*/*'], ['--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00', 'refs/handoffs/', 'refs/handoff-remotes/*/handoffs/*/*']]);
    expect((await listings()).length).toBe(1);
  });

  it('takes no kept record whose oid is not the ref’s, and reads a cut or foreign file from git', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'real-notes', '-m', 'real'], { env })).exitCode).toBe(0);
    expect((await repo.cli(['list', '--all', '--json'], { env })).exitCode).toBe(0);
    const text = readFileSync(keptFile(repo), 'latin1');
    const tip = refOf(repo, 'refs/handoffs/main/real-notes')!;
    // a record for another oid of this ref, naming another session: never this ref's fields
    writeFileSync(keptFile(repo), text.replace(tip, 'f'.repeat(40)).replace('Claude-Session-Id: kept-session', 'Claude-Session-Id: forged-session'), 'latin1');
    const rows = json(await repo.cli(['list', '--all', '--json'], { env }));
    expect(rows.map((r: any) => [r.topic, r.session, r.oid])).toEqual([['real-notes', 'kept-session', tip]]);
    // cut inside a record, or not a kept listing at all
    for (const bad of [text.slice(0, text.length - 20), 'not a listing\n', '']) {
      writeFileSync(keptFile(repo), bad, 'latin1');
      expect(json(await repo.cli(['list', '--all', '--json'], { env })).map((r: any) => [r.topic, r.session, r.oid])).toEqual([['real-notes', 'kept-session', tip]]);
    }
  });

  it('reads again when git’s trailer rules change (trailer.separators, core.commentChar)', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'rules-notes', '-m', 'rules'], { env })).exitCode).toBe(0);
    const before = json(await repo.cli(['list', '--all', '--json'], { env }));
    expect(before[0].session).toBe('kept-session');
    // with '=' the only separator, git finds no trailer block in the handoff's message: the row names no owner
    repo.git(['config', 'trailer.separators', '=']);
    const { kept, git } = await bothWays(repo);
    expect((git as any[])[0].session).toBeNull();
    expect(kept).toEqual(git);
    repo.git(['config', '--unset', 'trailer.separators']);
    expect(json(await repo.cli(['list', '--all', '--json'], { env }))[0].session).toBe('kept-session');
    // a comment character that starts the trailer lines: git skips them as comments
    repo.git(['config', 'core.commentChar', 'C']);
    const c = await bothWays(repo);
    expect(c.kept).toEqual(c.git);
  });

  it('keeps nothing for a repository git is told of (GIT_DIR), and reads the same', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'dir-notes', '-m', 'dir'], { env })).exitCode).toBe(0);
    const gitDir = path.join(repo.dir, '.git');
    const r = await repo.cli(['list', '--all', '--json'], { env: { ...env, GIT_DIR: gitDir, GIT_WORK_TREE: repo.dir } });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(json(r).map((x: any) => x.topic)).toEqual(['dir-notes']);
    expect(existsSync(keptFile(repo))).toBe(false);
  });
});
