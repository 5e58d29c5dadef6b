// Each verification state of SPEC 4, produced on a real repository and read back through `show --json`.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, type TestRepo } from '../../helpers/repo';

const S = ['--session', 'sess-verify-1'];

async function verifyOf(repo: TestRepo, topic = 'auth-flow', extra: string[] = []) {
  const r = await repo.cli(['show', topic, '--json', ...extra]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return json(r).verify;
}

function setup(): TestRepo {
  const repo = makeRepo({ commit: true });
  repo.commit('add sources', { 'src/app.ts': 'export {}\n', 'docs/guide.md': '# guide\n' });
  return repo;
}

const BODY = '## Goal\nFix the login redirect in src/app.ts, see docs/guide.md.\n';

describe('verify', () => {
  it('is same right after writing, with no missing files and a clean tree', async () => {
    const repo = setup();
    expect((await repo.cli(['write', 'auth-flow', '-m', BODY, ...S])).exitCode).toBe(0);
    expect(await verifyOf(repo)).toEqual({ head: 'same', commitsSince: 0, missingFiles: [], dirty: false });
  });

  it('counts commits made after writing as ahead', async () => {
    const repo = setup();
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    repo.commit('one', { 'a.txt': '1' });
    repo.commit('two', { 'b.txt': '2' });
    expect(await verifyOf(repo)).toMatchObject({ head: 'ahead', commitsSince: 2 });
  });

  it('says behind when the branch was reset back past the head it describes', async () => {
    const repo = setup();
    repo.commit('extra', { 'c.txt': '3' });
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    repo.git(['reset', '-q', '--hard', 'HEAD~1']);
    expect(await verifyOf(repo)).toMatchObject({ head: 'behind', commitsSince: 0 });
  });

  it('says rewritten when the branch was reset onto another line of history', async () => {
    const repo = setup();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('written on this line', { 'c.txt': '3' });
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    repo.git(['reset', '-q', '--hard', base]);
    repo.commit('another line 1', { 'd.txt': '4' });
    repo.commit('another line 2', { 'e.txt': '5' });
    repo.commit('another line 3', { 'f.txt': '6' });
    expect(await verifyOf(repo)).toMatchObject({ head: 'rewritten', commitsSince: 3 });
  });

  it('names the files the body named that are gone, and sees a dirty tree', async () => {
    const repo = setup();
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    rmSync(path.join(repo.dir, 'docs/guide.md'));
    const v = await verifyOf(repo);
    expect(v.missingFiles).toEqual(['docs/guide.md']);
    expect(v.dirty).toBe(true);
    expect(v.head).toBe('same');
  });

  it('sees an untracked file as uncommitted work', async () => {
    const repo = setup();
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    repo.write('scratch.txt', 'wip');
    expect(await verifyOf(repo)).toMatchObject({ dirty: true, missingFiles: [] });
  });

  it('checks another branch against its committed tree and its own worktree', async () => {
    const repo = setup();
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    repo.git(['checkout', '-q', '-b', 'other']);
    repo.git(['rm', '-q', 'src/app.ts']);
    repo.commit('drop app on other');
    // main is not checked out anywhere: files come from its tree, and no worktree can be dirty.
    expect(await verifyOf(repo, 'auth-flow', ['--branch', 'main'])).toEqual({ head: 'same', commitsSince: 0, missingFiles: [], dirty: false });
    // main checked out in a linked worktree with a deleted file: that worktree is what is checked.
    const wt = path.join(path.dirname(repo.dir), 'wt-main');
    repo.git(['worktree', 'add', '-q', wt, 'main']);
    rmSync(path.join(wt, 'src/app.ts'));
    expect(await verifyOf(repo, 'auth-flow', ['--branch', 'main'])).toMatchObject({ missingFiles: ['src/app.ts'], dirty: true });
  });

  it('is unknown when the head it names was never seen here', async () => {
    const a = setup();
    a.commit('only on machine a', { 'a-only.txt': 'a' });
    await a.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    const b = setup();
    b.git(['fetch', '-q', a.dir, '+refs/handoffs/*:refs/handoffs/*']);
    expect(await verifyOf(b)).toEqual({ head: 'unknown', commitsSince: 0, missingFiles: [], dirty: false });
  });

  it('reads a Handoff-Head that is not an object name in hex as unknown, and never hands it to git', async () => {
    // a version another machine wrote, with any Handoff-Head: planted with plumbing as a fetch would bring it
    const repo = setup();
    const written = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('after the handoff', { 'later.txt': 'x' });
    const plant = (topic: string, head: string) => {
      const blob = repo.git(['hash-object', '-w', '--stdin'], { input: BODY }).stdout.trim();
      const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
      const msg = `handoff(${topic}): x\n\nClaude-Session-Id: sess-other\nHandoff-Branch: main\nHandoff-Topic: ${topic}\nHandoff-Head: ${head}\nHandoff-Client: cli\n`;
      repo.git(['update-ref', `refs/handoffs/main/${topic}`, repo.git(['commit-tree', tree], { input: msg }).stdout.trim()]);
    };
    const cases: [string, string, Record<string, unknown>][] = [
      ['full-oid', written, { head: 'ahead', commitsSince: 1 }],
      ['short-oid', written.slice(0, 9), { head: 'ahead', commitsSince: 1 }],
      ['upper-case', written.toUpperCase(), { head: 'unknown', commitsSince: 0 }],
      ['rev-expression', 'HEAD~1', { head: 'unknown', commitsSince: 0 }],
      ['branch-name', 'main', { head: 'unknown', commitsSince: 0 }],
      ['option-output', `--output=${repo.dir}/planted-by-head`, { head: 'unknown', commitsSince: 0 }],
      ['option-all', '--all', { head: 'unknown', commitsSince: 0 }],
      ['unseen-oid', 'f'.repeat(40), { head: 'unknown', commitsSince: 0 }],
    ];
    for (const [topic, head, want] of cases) {
      plant(topic, head);
      expect(await verifyOf(repo, topic), topic).toMatchObject(want);
    }
    expect((await repo.cli(['boot', '--json'])).exitCode).toBe(0);
    // rev-list given `--output=<file>...<tip>` would have created that file
    expect(readdirSync(repo.dir).filter((f) => f.startsWith('planted-by-head'))).toEqual([]);
  });

  it('is unknown when the branch is gone, and says nothing about its files', async () => {
    const repo = setup();
    await repo.cli(['write', 'login-flow', '-m', BODY, ...S]);
    repo.git(['checkout', '-q', '-b', 'keep']);
    repo.git(['branch', '-D', 'main']);
    expect(await verifyOf(repo, 'login-flow', ['--branch', 'main'])).toMatchObject({ head: 'unknown', commitsSince: 0, missingFiles: [] });
  });

  it('counts every commit as new for a handoff written before the first commit', async () => {
    const repo = makeRepo();
    await repo.cli(['write', 'auth-flow', '-m', BODY, ...S]);
    expect(await verifyOf(repo)).toMatchObject({ head: 'same', commitsSince: 0 });
    repo.commit('first', { 'x.txt': 'x' });
    repo.commit('second', { 'y.txt': 'y' });
    expect(await verifyOf(repo)).toMatchObject({ head: 'ahead', commitsSince: 2 });
  });
});
