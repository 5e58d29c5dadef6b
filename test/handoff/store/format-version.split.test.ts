// The store's format version is read by every command (SPEC 2 "Format version", issue 25 item 7): a store newer
// than this build is refused with exit 7 `format-too-new`, naming both versions and what to do, and nothing is
// read or written; formats 1 and 2 (and no marker) are read as they are.
import { describe, expect, it } from 'vitest';
import { quickDescribe, quickIt, slowIt } from '../../helpers/sets';
import { storeFormatOf } from '../../../src/git/repo';
import { FORMAT_VERSION } from '../../../src/handoff/store/format';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';

const S = { GIT_HANDOFF_SESSION: 'format-owner-1' };
const REF = 'refs/handoffs/main/format-notes';

async function seeded(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['write', 'format-notes', '-m', 'Goal: read me'], { env: S })).exitCode).toBe(0);
  expect((await repo.cli(['write', 'other-notes', '-m', 'Goal: archive me'], { env: S })).exitCode).toBe(0);
  expect((await repo.cli(['archive', 'other-notes'], { env: S })).exitCode).toBe(0);
  return repo;
}

const allRefs = (repo: TestRepo) => repo.git(['for-each-ref', '--format=%(objectname) %(refname)']).stdout;

// every command that reads or writes the store, with arguments that succeed on a store this build knows
const COMMANDS: string[][] = [
  ['write', 'format-notes', '-m', 'Goal: v2'],
  ['edit', 'format-notes'],
  ['show', 'format-notes'],
  ['list'],
  ['list', '--archived', '--all'],
  ['log', 'format-notes'],
  ['diff', 'format-notes'],
  ['archive', 'format-notes'],
  ['restore', 'other-notes'],
  ['drop', 'format-notes'],
  ['boot'],
  ['sessions'],
  ['sync'],
  ['fetch'],
  ['push'],
  ['redact', 'format-notes'],
  ['recover'],
  ['import', 'notes.md'],
  ['install', '--hooks'],
  ['doctor'],
];

describe('the format version, read by every command', () => {
  slowIt(`a store marked newer than format ${FORMAT_VERSION}: every command exits 7 format-too-new and changes nothing`, async () => {
    const repo = await seeded();
    repo.write('notes.md', '<!-- claude-session: format-owner-1 -->\nGoal: imported\n');
    repo.git(['config', 'handoff.formatVersion', String(FORMAT_VERSION + 1)]);
    const before = allRefs(repo);
    for (const args of COMMANDS) {
      const r = await repo.cli([...args, '--json'], { env: { ...S, GIT_EDITOR: 'true' } });
      expect(r.exitCode, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(7);
      const e = json(r).error;
      expect(e.code, args.join(' ')).toBe('format-too-new');
      expect(e.data).toEqual({ found: FORMAT_VERSION + 1, supported: FORMAT_VERSION, key: 'handoff.formatVersion' });
      expect(e.message).toMatch(new RegExp(`format ${FORMAT_VERSION + 1}.*up to ${FORMAT_VERSION}.*Upgrade git-handoff`));
    }
    // the human form says the same on stderr
    const plain = await repo.cli(['show', 'format-notes'], { env: S });
    expect(plain.exitCode).toBe(7);
    expect(String(plain.stderr)).toMatch(/handoff store is format 4 .*handoff\.formatVersion.*Upgrade git-handoff/);
    expect(allRefs(repo)).toBe(before);
    expect(repo.git(['config', '--get-all', 'remote.origin.fetch'], { allowFail: true }).stdout).toBe('');
  }, 240_000);

  quickIt('read from the config file even where discovery asks git (a bare repository, GIT_DIR set)', async () => {
    const repo = await seeded();
    repo.git(['config', 'handoff.formatVersion', '7']);
    const viaGitDir = await repo.cli(['list', '--json'], { env: { ...S, GIT_DIR: `${repo.dir}/.git` } });
    expect(viaGitDir.exitCode, String(viaGitDir.stdout)).toBe(7);
    expect(json(viaGitDir).error.data.found).toBe(7);
    const bare = makeRepo({ init: ['--bare'] });
    bare.git(['config', 'handoff.formatVersion', '4']);
    const b = await bare.cli(['list', '--all', '--json']);
    expect(b.exitCode).toBe(7);
    expect(json(b).error.code).toBe('format-too-new');
    // a value that is not a whole number is newer than any build, and named as it is written
    for (const v of ['2.5', 'abc']) {
      repo.git(['config', 'handoff.formatVersion', v]);
      const r = await repo.cli(['list', '--json'], { env: S });
      expect(r.exitCode, v).toBe(7);
      expect(json(r).error.data.found).toBe(v);
      expect(json(r).error.message).toContain(`handoff store is format ${v} `);
    }
  }, 120_000);

  quickIt('format 1, format 2, format 3 and no marker are read as they are; so is a value of another section', async () => {
    const repo = await seeded();
    for (const v of ['1', '2', '3', null]) {
      if (v === null) repo.git(['config', '--unset', 'handoff.formatVersion'], { allowFail: true });
      else repo.git(['config', 'handoff.formatVersion', v]);
      const r = await repo.cli(['show', 'format-notes', '--json', '--no-receipt'], { env: S });
      expect(r.exitCode, `${v}: ${r.stderr}`).toBe(0);
      expect(json(r).body).toBe('Goal: read me\n');
    }
    repo.git(['config', 'handoff.sub.formatVersion', '9']);
    repo.git(['config', 'other.formatVersion', '9']);
    expect((await repo.cli(['write', 'format-notes', '-m', 'Goal: v2'], { env: S })).exitCode).toBe(0);
    expect(refOf(repo, REF)).not.toBeNull();
  }, 120_000);

  quickIt("doctor says the store's format and what a format-1 client sees of this one", async () => {
    const repo = await seeded();
    const row = async () => (json(await repo.cli(['doctor', '--json'])).items as Array<{ component: string; status: string; detail: string }>).find((i) => i.component === 'format')!;
    // no remote to share the store through: one line, nothing about format-1 clients (issue 40)
    expect((await row()).detail).toBe('store format 1 or 2 (handoff.formatVersion unset); this build writes format 3 (marked at its first fetch).');
    repo.git(['remote', 'add', 'origin', repo.dir]);
    expect(await row()).toMatchObject({ status: 'info', detail: expect.stringMatching(/format 1 or 2 .*lists each archive made here twice.*refused here .*handoff\.minFormat 1/) });
    repo.git(['config', 'handoff.minFormat', '1']);
    repo.git(['config', 'handoff.formatVersion', '2']);
    expect((await row()).detail).toMatch(/^store format 2;.*taken in here \(handoff\.minFormat 1\)/);
  }, 120_000);

  quickIt('the guard and the git hooks are not turned into refusals by a newer store', async () => {
    const repo = await seeded();
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    repo.git(['config', 'handoff.formatVersion', '4']);
    // a plain commit runs the installed hooks
    repo.commit('work', { 'a.txt': 'a\n' });
    expect(repo.git(['log', '-1', '--format=%s']).stdout.trim()).toBe('work');
  }, 120_000);
});

quickDescribe('storeFormatOf: the config text as git reads it', () => {
  it.each([
    ['[handoff]\n\tformatVersion = 3\n', 3],
    ['[HANDOFF]\n\tFORMATVERSION=4 # newer\n', 4],
    ['[handoff]\n\tformatVersion = 2\n[core]\n[handoff]\n\tformatVersion = 5\n', 5],
    ['[handoff "x"]\n\tformatVersion = 3\n', null],
    ['[handoff.x]\n\tformatVersion = 3\n', null],
    ['[core]\n\tformatVersion = 3\n', null],
    ['[handoff]\n\tformatVersion = "2"\n', 2],
    ['[handoff]\n\tformatVersion = two\n', Number.MAX_SAFE_INTEGER],
    ['', null],
  ])('%j → %s', (text, want) => {
    expect(storeFormatOf(text)).toBe(want);
  });
});
