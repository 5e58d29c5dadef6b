// Reading a commit's file from loose objects without git, and saying so (null) when they are packed.
import { describe, expect, it } from 'vitest';
import { looseCommitFile, readLoose } from '../../src/git/loose-read';
import { openRepo } from '../../src/git/repo';
import { makeRepo } from '../helpers/repo';

describe('loose objects read in-process', () => {
  for (const format of ['sha1', 'sha256'] as const) {
    it(`a commit's file while loose, null once packed (${format})`, () => {
      const repo = makeRepo({ init: [`--object-format=${format}`] });
      const oid = repo.commit('one', { record: 'git-handoff record 1\ntip x\n', 'other.txt': 'other\n' });
      const r = openRepo(repo.dir);
      expect(looseCommitFile(r, oid, 'record')?.toString()).toBe('git-handoff record 1\ntip x\n');
      expect(looseCommitFile(r, oid, 'missing')).toBeNull();
      expect(readLoose(r, oid)?.type).toBe('commit');
      repo.git(['gc', '-q']);
      expect(readLoose(r, oid)).toBeNull();
      expect(looseCommitFile(r, oid, 'record')).toBeNull();
    });
  }
});
