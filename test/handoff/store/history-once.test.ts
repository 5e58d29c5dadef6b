// The handoffs' histories a process reads once (historyOf, src/handoff/store/ownership.ts) answer its later ancestry
// questions without git, and a clone deepened since is walked again: its shallow boundary parented nothing.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { ancestryOf } from '../../../src/handoff/store/sync-state';
import { makeRepo } from '../../helpers/repo';

describe('histories read once per process', () => {
  it('answers from what it read, and walks a clone again once it is deepened', () => {
    const t = makeRepo({ commit: true });
    for (const n of [2, 3]) t.git(['commit', '-q', '--allow-empty', '-m', `c${n}`]);
    const [c3, c2] = t.git(['rev-list', '-2', 'HEAD']).stdout.trim().split('\n');
    const shallow = path.join(path.dirname(t.dir), 'shallow');
    t.git(['clone', '-q', '--depth', '1', `file://${t.dir}`, shallow]);
    const repo = openRepo(shallow);
    // c3 is the boundary: git gives it no parent
    expect(ancestryOf(repo, [c3])(c2, c3)).toBe(false);
    t.git(['fetch', '-q', '--deepen', '1'], { cwd: shallow });
    expect(ancestryOf(repo, [c3])(c2, c3)).toBe(true);
    // read once: asked again with nothing new, no git process answers (a walk here would fail)
    const walked = Object.assign(Object.create(repo), {
      parentsOf: () => {
        throw new Error('walked again');
      },
    });
    const answer = ancestryOf(walked, [c3, c2]);
    expect(answer(c2, c3)).toBe(true);
  });
});
