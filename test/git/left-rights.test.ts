// The branch against many commits in one walk (Storage.leftRights) counts as git's rev-list --left-right --count does
// for each pair: merges, a side line, a commit ahead of the tip, one this repository does not have.
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo';
import { makeRepo } from '../helpers/repo';

describe('ahead and behind counts of many commits against one tip', () => {
  it('match rev-list --left-right --count pair by pair', () => {
    const t = makeRepo({ commit: true });
    const at = () => t.git(['rev-parse', 'HEAD']).stdout.trim();
    const a = at();
    const b = t.commit('b', { 'b.txt': 'b\n' });
    t.git(['checkout', '-q', '-b', 'side']);
    const e = t.commit('e', { 'e.txt': 'e\n' });
    const f = t.commit('f', { 'f.txt': 'f\n' });
    t.git(['checkout', '-q', 'main']);
    const c = t.commit('c', { 'c.txt': 'c\n' });
    const d = t.commit('d', { 'd.txt': 'd\n' });
    t.git(['merge', '-q', '--no-edit', 'side']);
    const m = at();
    const g = t.commit('g', { 'g.txt': 'g\n' });
    const heads = [a, b, c, d, e, f, m, g, a.slice(0, 7), 'deadbeefdeadbeef'];
    for (const tip of [d, m, f]) {
      const batch = openRepo(t.dir);
      batch.leftRights(heads, tip);
      // answered from the one walk: no git can start now
      const others = heads.filter((h) => h !== tip);
      const path = process.env.PATH;
      process.env.PATH = '';
      let counts: Array<[number, number] | null>;
      try {
        counts = others.map((h) => batch.leftRight(h, tip));
      } finally {
        process.env.PATH = path;
      }
      expect(counts, `against ${tip}`).toEqual(others.map((h) => openRepo(t.dir).leftRight(h, tip)));
    }
  });
});
