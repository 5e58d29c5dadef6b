// Reading a commit's file from loose objects without git, and saying so (null) when they are packed.
import { describe, expect, it } from 'vitest';
import { looseCommitFiles, readLoose } from '../../src/git/loose-read';
import { openRepo } from '../../src/git/repo';
import { makeRepo } from '../helpers/repo';

describe('loose objects read in-process', () => {
  for (const format of ['sha1', 'sha256'] as const) {
    it(`a commit's file while loose, null once packed (${format})`, () => {
      const repo = makeRepo({ init: [`--object-format=${format}`] });
      const oid = repo.commit('one', { record: 'git-handoff record 1\ntip x\n', 'other.txt': 'other\n' });
      const r = openRepo(repo.dir);
      expect(looseCommitFiles(r, oid, ['record'])?.files[0]?.content.toString()).toBe('git-handoff record 1\ntip x\n');
      expect(looseCommitFiles(r, oid, ['missing'])?.files[0]).toBeNull();
      expect(readLoose(r, oid)?.type).toBe('commit');
      repo.git(['gc', '-q']);
      expect(readLoose(r, oid)).toBeNull();
      expect(looseCommitFiles(r, oid, ['record'])).toBeNull();
    });
  }

  for (const format of ['sha1', 'sha256'] as const) {
    it(`a commit and its files as cat-file reads them: a missing entry null, over its bound or packed left to git (${format})`, () => {
      const repo = makeRepo({ init: [`--object-format=${format}`] });
      const oid = repo.commit('one', { 'handoff.md': 'body\n', 'state.json': '{"branch":"main"}\n', 'big.txt': 'x'.repeat(5000) });
      const r = openRepo(repo.dir);
      const loose = looseCommitFiles(r, oid, ['handoff.md', 'state.json', 'absent.md'])!;
      expect(loose.commit.type).toBe('commit');
      expect(loose.files.map((f) => f && [f.type, f.content.toString()])).toEqual([['blob', 'body\n'], ['blob', '{"branch":"main"}\n'], null]);
      // the same answers as one cat-file, and the oids git names
      const specs = [oid, `${oid}:handoff.md`, `${oid}:state.json`, `${oid}:absent.md`];
      const max = [1000, 1000, 1000, 1000];
      const viaGit = r.readObjectsBounded(specs, max);
      expect(r.readCommitFiles([oid], ['handoff.md', 'state.json', 'absent.md'], max)).toEqual([viaGit]);
      expect([loose.commit, ...loose.files].map((o) => o?.oid ?? null)).toEqual(viaGit.map((o) => (o && 'oid' in o ? o.oid : null)));
      // a file over its bound is not inflated past it: git answers (with the size it refuses)
      expect(looseCommitFiles(r, oid, ['big.txt'], [1000, 4999])).toBeNull();
      expect(r.readCommitFiles([oid], ['big.txt'], [1000, 4999])).toEqual([[viaGit[0], { oversize: 5000 }]]);
      expect(looseCommitFiles(r, oid, ['big.txt'], [1000, 5000])!.files[0]!.content.length).toBe(5000);
      // several commits at once, one loose and one packed, each as cat-file reads it alone
      const second = repo.commit('two', { 'handoff.md': 'second\n' });
      repo.git(['gc', '-q']);
      const third = repo.commit('three', { 'handoff.md': 'third\n' });
      expect(looseCommitFiles(r, oid, ['handoff.md'])).toBeNull();
      const each = [oid, second, third].map((c) => r.readObjectsBounded([c, `${c}:handoff.md`, `${c}:state.json`, `${c}:absent.md`], max));
      expect(r.readCommitFiles([oid, second, third], ['handoff.md', 'state.json', 'absent.md'], max.slice(0, 4))).toEqual(each);
    });
  }
});
