// Moves of many refs with the git hooks installed cost per transaction, not per ref (issue 72): `git handoff gc` prunes
// its entries in one transaction the stub lets through without node when it is alone, and whose check node makes in one
// start with a chained hook beside it, the same git processes at 40 entries as at 4; a plain `git fetch` of many
// handoffs into the tracking refs starts no node (the stub's filter ends it), where a fetch into refs/handoffs/* is
// still node's to check.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { A, hookedRepo, hooksDir, nodeSpy, script } from './helpers';

/** The node starts of git-handoff's hook handler. */
const hookStarts = (spy: ReturnType<typeof nodeSpy>) => spy.starts().filter((s) => s.includes(' githook '));

const listRefs = (repo: TestRepo, prefix: string) => repo.git(['for-each-ref', '--format=%(refname)', prefix]).stdout.split('\n').filter(Boolean);

/** `topics` topics with two archive entries each at the handoff's tip, the older past the default retention (90 days, the newest kept). */
async function archived(topics: number): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['write', 'seed-notes', '-m', 'Goal: seed'], { env: { GIT_HANDOFF_SESSION: A } })).exitCode).toBe(0);
  const tip = repo.git(['rev-parse', 'refs/handoffs/main/seed-notes']).stdout.trim();
  const entry = (i: number, seconds: number) => `create refs/handoff-archive/main/topic-${i}-notes/${seconds}-${tip.slice(0, 12)} ${tip}\n`;
  repo.git(['update-ref', '--stdin'], { input: Array.from({ length: topics }, (_, i) => entry(i, 1_700_000_000) + entry(i, 1_700_000_100)).join('') });
  expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
  return repo;
}

/** gc with the node spy and git's trace: its exit, the hook's node starts and how many git commands ran. */
async function gc(repo: TestRepo): Promise<{ pruned: number; hookStarts: string[]; gitCommands: number }> {
  const spy = nodeSpy();
  const trace = path.join(repo.home, `git-trace-${Date.now()}`);
  const r = await repo.cli(['gc', '--json'], { env: { ...spy.env, GIT_TRACE: trace } });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const gitCommands = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: (built-in|exec): git /.test(l)).length;
  return { pruned: JSON.parse(String(r.stdout)).pruned.length, hookStarts: hookStarts(spy), gitCommands };
}

describe('moves of many refs with the git hooks installed', () => {
  it('gc of many archive entries with the stub alone starts no hook node, and prunes them all', async () => {
    const repo = await archived(40);
    const r = await gc(repo);
    expect(r.pruned).toBe(40);
    expect(r.hookStarts).toEqual([]);
    expect(listRefs(repo, 'refs/handoff-archive/')).toHaveLength(40);
  }, 60_000);

  it('with a chained hook, gc starts the check once for the whole transaction, and as many git commands at 40 entries as at 4', async () => {
    const counts: number[] = [];
    for (const topics of [4, 40]) {
      const repo = await archived(topics);
      const seen = path.join(repo.home, 'chained-saw');
      script(path.join(hooksDir(repo), 'reference-transaction.handoff-chained'), `#!/bin/sh\nwhile read -r old new ref; do echo "$1 $ref" >> '${seen}'; done\n`);
      const r = await gc(repo);
      expect(r.pruned).toBe(topics);
      expect(r.hookStarts).toHaveLength(1);
      expect(r.hookStarts[0]).toContain('githook reference-transaction prepared');
      // the chained hook saw every deletion
      expect(readFileSync(seen, 'utf8').split('\n').filter((l) => l.startsWith('prepared refs/handoff-archive/'))).toHaveLength(topics);
      counts.push(r.gitCommands);
    }
    expect(counts[1]).toBe(counts[0]);
  }, 120_000);

  it("a plain fetch of many handoffs into the tracking refs starts no node, a session's too; a fetch into refs/handoffs/ is still checked", async () => {
    const origin = makeRepo({ commit: true });
    const head = origin.git(['rev-parse', 'HEAD']).stdout.trim();
    origin.git(['update-ref', '--stdin'], { input: Array.from({ length: 40 }, (_, i) => `create refs/handoffs/main/topic-${i} ${head}\n`).join('') });
    const repo = await hookedRepo();
    repo.git(['remote', 'add', 'origin', origin.dir]);
    expect((await repo.cli(['install', '--remote', 'origin'])).exitCode).toBe(0);
    const spy = nodeSpy();
    expect(repo.git(['fetch', '-q', 'origin'], { env: spy.env }).status).toBe(0);
    expect(listRefs(repo, 'refs/handoff-remotes/origin/handoffs/')).toHaveLength(40);
    origin.git(['update-ref', 'refs/handoffs/main/topic-new', head]);
    expect(repo.git(['fetch', '-q', 'origin'], { env: { ...spy.env, GIT_HANDOFF_SESSION: A } }).status).toBe(0);
    expect(listRefs(repo, 'refs/handoff-remotes/origin/handoffs/')).toHaveLength(41);
    expect(hookStarts(spy)).toEqual([]);
    // the same handoff fetched as a live one: the handler judges it (a commit that is no handoff is refused)
    const direct = repo.git(['fetch', '-q', 'origin', 'refs/handoffs/main/topic-0:refs/handoffs/main/topic-0'], { env: spy.env, allowFail: true });
    expect(direct.status).not.toBe(0);
    expect(hookStarts(spy).length).toBeGreaterThan(0);
  }, 60_000);
});
