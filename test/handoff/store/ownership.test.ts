// The invariant every hook and sync calls: forward-only, same owner or a takeover naming the owner.
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { WRITE_COMMIT } from '../../../src/git/storage';
import { buildMessage } from '../../../src/handoff/store/document';
import { checkAdvance } from '../../../src/handoff/store/ownership';
import { makeRepo } from '../../helpers/repo';

function setup() {
  const t = makeRepo({ commit: true });
  // in-process git calls read process.env: point it at the test's own HOME (each test file runs in its own process)
  Object.assign(process.env, { HOME: t.home, GIT_CONFIG_NOSYSTEM: '1' });
  const repo = openRepo(t.dir);
  const tree = repo.writeTree([{ name: 'handoff.md', oid: repo.writeBlobs(['x\n'])[0] }]);
  const env = { HOME: t.home, GIT_CONFIG_NOSYSTEM: '1' };
  let n = 0;
  const commit = (session: string, parents: string[], takeoverFrom?: string, refused?: string) =>
    repo[WRITE_COMMIT]({
      tree,
      parents,
      message: buildMessage({ topic: 'auth-refactor', body: `version ${++n}`, session, branch: 'main', head: null, client: 'cli', takeoverFrom, reason: takeoverFrom ? 'r' : null, refused }),
      env,
    });
  return { repo, commit };
}

describe('checkAdvance', () => {
  it('a restoring version keeps a refused parent out of the handoff; Handoff-Refused never excuses its own line', async () => {
    const { repo, commit } = setup();
    const { checkAdvances } = await import('../../../src/handoff/store/ownership');
    const a1 = commit('A', []);
    const stolen = commit('B', [a1]);
    expect(checkAdvance(repo, a1, stolen)?.rule).toBe('foreign-owner');
    // the owner's version over both, naming the stolen one: a fast-forward from either tip, taken everywhere
    const restored = commit('A', [a1, stolen], undefined, stolen);
    expect(checkAdvance(repo, a1, restored)).toBeNull();
    expect(checkAdvance(repo, stolen, restored)).toBeNull();
    expect(checkAdvances(repo, [{ oldOid: a1, newOid: restored }, { oldOid: null, newOid: restored }])).toEqual([null, null]);
    // without the trailer the same merge takes the stolen line in: refused
    expect(checkAdvance(repo, a1, commit('A', [a1, stolen]))?.rule).toBe('foreign-owner');
    // refusing the first parent (or a sole parent) excuses nothing: B still adds to A's line
    expect(checkAdvance(repo, a1, commit('B', [a1], undefined, a1))?.rule).toBe('foreign-owner');
    expect(checkAdvance(repo, a1, commit('B', [a1, stolen], undefined, a1))?.rule).toBe('foreign-owner');
    // B refusing a line of its own making on top of A's is still B writing on A's line
    const own = commit('B', []);
    expect(checkAdvance(repo, a1, commit('B', [a1, own], undefined, own))?.rule).toBe('foreign-owner');
  });


  it('allows creation, same-owner growth and a named takeover', () => {
    const { repo, commit } = setup();
    const a1 = commit('A', []);
    const a2 = commit('A', [a1]);
    const b3 = commit('B', [a2], 'A');
    const b4 = commit('B', [b3]);
    expect(checkAdvance(repo, null, a1)).toBeNull();
    expect(checkAdvance(repo, a1, a2)).toBeNull();
    expect(checkAdvance(repo, a1, b4)).toBeNull();
  });

  it('refuses a foreign commit without takeover, a takeover naming the wrong owner, a rewrite and a deletion', () => {
    const { repo, commit } = setup();
    const a1 = commit('A', []);
    expect(checkAdvance(repo, a1, commit('B', [a1]))?.rule).toBe('foreign-owner');
    expect(checkAdvance(repo, a1, commit('B', [a1], 'C'))?.rule).toBe('foreign-owner');
    expect(checkAdvance(repo, a1, commit('A', []))?.rule).toBe('rewrite');
    expect(checkAdvance(repo, a1, null)?.rule).toBe('delete');
  });

  it('a merge of two sides is valid when each parent is the owner or the one taken over', () => {
    const { repo, commit } = setup();
    const base = commit('A', []);
    const local = commit('A', [base]);
    const remote = commit('B', [base], 'A');
    expect(checkAdvance(repo, remote, commit('A', [local, remote], 'B'))).toBeNull();
    expect(checkAdvance(repo, remote, commit('C', [local, remote], 'B'))?.rule).toBe('foreign-owner');
  });
});
