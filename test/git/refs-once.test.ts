// The refs a run lists once (src/git/refs-once.ts) answer each later read they cover as git's for-each-ref would,
// and a ref moved by this process since is read from git again.
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo';
import { makeRepo } from '../helpers/repo';

describe('refs listed once for a run', () => {
  it('answers the patterns it covers as for-each-ref does, and reads a ref it moved since from git again', () => {
    const t = makeRepo({ commit: true });
    const head = t.git(['rev-parse', 'HEAD']).stdout.trim();
    for (const ref of ['refs/handoffs/main/a', 'refs/handoffs/main/a-b', 'refs/handoffs/mainx/c', 'refs/handoff-remotes/origin/handoffs/main/a', 'refs/handoff-remotes/up/handoffs/main/d', 'refs/claims/main', 'refs/claims/main-2']) {
      t.git(['update-ref', ref, head]);
    }
    t.git(['tag', '-a', '-m', 'a tag', 'v1']);
    t.git(['update-ref', 'refs/handoffs/main/tagged', t.git(['rev-parse', 'v1']).stdout.trim()]);
    const kept = openRepo(t.dir);
    kept.keepRefs(['refs/handoffs/main/', 'refs/handoff-remotes/*/handoffs/main/*', 'refs/heads/main', 'refs/claims/', 'refs/notes/none']);
    const git = (patterns: string[]) => openRepo(t.dir).listRefs(patterns);
    for (const q of [['refs/handoffs/main/'], ['refs/handoffs/main/a'], ['refs/handoff-remotes/*/handoffs/main/*'], ['refs/claims/main'], ['refs/claims/'], ['refs/heads/main', 'refs/notes/none'], ['refs/handoffs/mainx/'], ['refs/handoffs/'], ['refs/handoff-remotes/*/handoffs/main/a'], ['refs/handoff-remotes/up/handoffs/main/*'], ['refs/handoff-remotes/*/handoffs/*/a']]) {
      expect(kept.listRefs(q), q.join(' ')).toEqual(git(q));
    }
    expect(kept.readRef('refs/heads/main')).toBe(head);
    expect(kept.readRef('refs/notes/none')).toBeNull();
    // a tag is peeled to its commit, as git does
    expect(kept.readRef('refs/handoffs/main/tagged')).toBe(head);
    // a narrower glob is the listing's to answer: a ref moved outside this process since is not seen
    t.git(['update-ref', '-d', 'refs/handoff-remotes/up/handoffs/main/d']);
    expect(kept.listRefs(['refs/handoff-remotes/*/handoffs/main/d']).map((r) => r.ref)).toEqual(['refs/handoff-remotes/up/handoffs/main/d']);
    // a second listing is kept beside the first: both answer
    expect(kept.keepRefs(['refs/tags/'])).toEqual(git(['refs/tags/']));
    expect(kept.listRefs(['refs/claims/main'])).toEqual(git(['refs/claims/main']));
    // moved by this process: read again
    kept.git(['update-ref', '-d', 'refs/claims/main']);
    expect(kept.listRefs(['refs/claims/']).map((r) => r.ref)).toEqual(['refs/claims/main-2']);
  });
});
