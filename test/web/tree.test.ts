// The claims as a tree of paths (the page's Claims section): specs split at `/`, holders where each spec ends.
import { describe, expect, it } from 'vitest';
import { claimTree, type TreeNode } from '../../src/web/page/tree';

const flat = <T>(n: TreeNode<T>, out: Array<[string, T[]]> = []): Array<[string, T[]]> => {
  for (const c of n.children) {
    out.push([c.path, c.items]);
    flat(c, out);
  }
  return out;
};

describe('claimTree', () => {
  it('nests directories, files and globs, each holder at the node its spec names', () => {
    const t = claimTree([
      { paths: ['src/auth/', 'src/**/*.test.ts'], item: 'a' },
      { paths: ['src/auth/login.ts'], item: 'b' },
      { paths: ['README.md', 'docs/'], item: 'c' },
    ]);
    expect(flat(t)).toEqual([
      ['docs/', ['c']],
      ['README.md', ['c']],
      ['src/', []],
      ['src/**/', []],
      ['src/**/*.test.ts', ['a']],
      ['src/auth/', ['a']],
      ['src/auth/login.ts', ['b']],
    ]);
  });

  it('puts two holders of one spec on one node, once each', () => {
    const t = claimTree([
      { paths: ['src/'], item: 'a' },
      { paths: ['src/', 'src/'], item: 'b' },
    ]);
    expect(flat(t)).toEqual([['src/', ['a', 'b']]]);
  });
});
