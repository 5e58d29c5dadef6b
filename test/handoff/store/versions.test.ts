// show's version count from the counts kept (src/handoff/store/versions.ts, issue 39): always git's `rev-list
// --count`, over a linear history, a merge, a commit first counted through its parent, and after gc packs it all.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { versionCounts } from '../../../src/handoff/store/versions';
import { makeRepo } from '../../helpers/repo';

describe('version counts', () => {
  it('equal rev-list --count on a line and across a merge, kept and reused', () => {
    const t = makeRepo({ commit: true });
    const tree = t.git(['hash-object', '-t', 'tree', '-w', '--stdin'], { input: '' }).stdout.trim();
    const commit = (parents: string[], msg: string) => t.git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', msg]).stdout.trim();
    const line = [commit([], 'v1')];
    for (let i = 2; i <= 6; i++) line.push(commit([line.at(-1)!], `v${i}`));
    const side = commit([line[2]], 'side');
    const merge = commit([line.at(-1)!, side], 'merge');
    const after = commit([merge], 'after');
    const repo = openRepo(t.dir);
    const git = (oid: string) => Number(t.git(['rev-list', '--count', oid]).stdout.trim());
    const file = path.join(repo.commonDir, 'handoff', 'versions.json');
    // the tip first counted in full, then each new version through its parent
    expect(versionCounts(repo, [line[3]])[0]).toBe(git(line[3]));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([[line[3], 4]]);
    for (const oid of [line[4], line[5], side, merge, after, line[0]]) expect(versionCounts(repo, [oid])[0], oid).toBe(git(oid));
    const kept = new Map<string, number>(JSON.parse(readFileSync(file, 'utf8')));
    expect(kept.get(after)).toBe(git(after));
    // a count kept is the answer (one read, no walk): the file is what is read
    expect(versionCounts(repo, [line[5]])[0]).toBe(6);
    // packed: the walk cannot step, so the full count answers
    t.git(['update-ref', 'refs/test/keep', after]);
    t.git(['gc', '-q', '--prune=now']);
    const again = commit([after], 'packed parent');
    expect(versionCounts(repo, [again])[0]).toBe(git(again));
    expect(existsSync(file)).toBe(true);
  });

  it('show prints the count git gives, after each write', async () => {
    const t = makeRepo({ commit: true });
    for (let i = 1; i <= 4; i++) {
      expect((await t.cli(['write', 'auth-refactor', '--session', 's1', '-m', `version ${i}`])).exitCode).toBe(0);
      const shown = JSON.parse(String((await t.cli(['show', 'auth-refactor', '--json'])).stdout));
      expect(shown.versions).toBe(Number(t.git(['rev-list', '--count', 'refs/handoffs/main/auth-refactor']).stdout.trim()));
      expect(shown.versions).toBe(i);
    }
  });
});
