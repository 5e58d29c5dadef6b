// The invariant check gives each move the same verdict in a batch, alone, and when the batch's walk fails (move by move).
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { checkAdvance, checkAdvances, type Move } from '../../../src/handoff/store/ownership';
import { makeRepo, type TestRepo } from '../../helpers/repo';

function commit(repo: TestRepo, parents: string[], session: string | null, takeoverFrom?: string): string {
  const tree = repo.git(['mktree'], { input: '' }).stdout.trim();
  const trailers = [session && `Claude-Session-Id: ${session}`, takeoverFrom && `Handoff-Takeover-From: ${takeoverFrom}`, 'Handoff-Topic: auth-refactor'].filter(Boolean).join('\n');
  return repo.git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])], { input: `handoff(auth-refactor): ${Math.random()}\n\n${trailers}\n` }).stdout.trim();
}

describe('checkAdvances', () => {
  it('agrees move by move on forward moves, steals, takeovers, merges, rewrites, deletions and missing objects', () => {
    const repo = makeRepo();
    const a1 = commit(repo, [], 'sess-a');
    const a2 = commit(repo, [a1], 'sess-a');
    const steal = commit(repo, [a2], 'sess-b');
    const takeover = commit(repo, [a2], 'sess-b', 'sess-a');
    const wrongTakeover = commit(repo, [a2], 'sess-b', 'sess-c');
    const b1 = commit(repo, [], 'sess-b');
    const mergeOk = commit(repo, [a2, b1], 'sess-a', 'sess-b');
    const mergeBad = commit(repo, [a2, b1], 'sess-a');
    const anonymous = commit(repo, [a2], null);
    const deep = commit(repo, [commit(repo, [a2], 'sess-a')], 'sess-x');
    const moves: Move[] = [
      { oldOid: a1, newOid: a2 },
      { oldOid: a2, newOid: steal },
      { oldOid: a1, newOid: takeover },
      { oldOid: a2, newOid: wrongTakeover },
      { oldOid: a2, newOid: mergeOk },
      { oldOid: b1, newOid: mergeOk },
      { oldOid: a2, newOid: mergeBad },
      { oldOid: a2, newOid: anonymous },
      { oldOid: a2, newOid: a1 },
      { oldOid: a2, newOid: b1 },
      { oldOid: a1, newOid: deep },
      { oldOid: null, newOid: steal },
      { oldOid: null, newOid: takeover },
      { oldOid: a2, newOid: null },
      { oldOid: a2, newOid: a2 },
    ];
    const r = openRepo(repo.dir);
    const batch = checkAdvances(r, moves);
    expect(batch).toEqual(moves.map((m) => checkAdvance(r, m.oldOid, m.newOid)));
    expect(batch.map((v) => v?.rule ?? 'ok')).toEqual([
      'ok', 'foreign-owner', 'ok', 'foreign-owner', 'ok', 'ok', 'foreign-owner', 'no-session', 'rewrite', 'rewrite', 'foreign-owner',
      // a creation brings its whole history: checked from its root (issue 13)
      'foreign-owner', 'ok', 'delete', 'ok',
    ]);
    // An object the repository does not have: the batch's walk fails, each move is read on its own and only that one is refused.
    const missing = 'f'.repeat(40);
    const withMissing = checkAdvances(r, [...moves, { oldOid: a2, newOid: missing }, { oldOid: null, newOid: missing }]);
    expect(withMissing.slice(0, moves.length)).toEqual(batch);
    expect(withMissing.slice(moves.length).map((v) => v?.rule)).toEqual(['missing-object', 'missing-object']);
  });
});
