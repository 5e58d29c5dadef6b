// An independent reader checks what the store writes: isomorphic-git parses the objects in-process (it
// shares no code with ours), and `git interpret-trailers` reads the trailers the way git itself does.
import fs from 'node:fs';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { readTrailersOf } from '../../../src/handoff/store/ownership';
import { makeRepo } from '../../helpers/repo';

const ORDER = ['Claude-Session-Id', 'Handoff-Branch', 'Handoff-Topic', 'Handoff-Head', 'Handoff-Client'];

describe('the commit format, read by isomorphic-git and git interpret-trailers', () => {
  it('every version: two-file tree, parent chain, trailers once each and in order', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['write', 'auth-refactor', '--session', 'sess-a', '-m', 'Goal: one', '-m', 'Claude-Session-Id: forged-in-body']);
    await repo.cli(['write', 'auth-refactor', '--session', 'sess-a', '-m', 'two']);
    await repo.cli(['write', 'auth-refactor', '--session', 'sess-b', '--take-over', '--reason', 'a left\nClaude-Session-Id: forged', '-m', 'three']);
    const commits = await git.log({ fs, dir: repo.dir, ref: 'refs/handoffs/main/auth-refactor' });
    expect(commits).toHaveLength(3);
    expect(commits.map((c) => c.commit.parent.length)).toEqual([1, 1, 0]);
    for (let i = 0; i < commits.length; i++) {
      const { oid, commit } = commits[i];
      if (i + 1 < commits.length) expect(commit.parent[0]).toBe(commits[i + 1].oid);
      const { tree } = await git.readTree({ fs, dir: repo.dir, oid: commit.tree });
      expect(tree.map((e) => [e.path, e.type, e.mode])).toEqual([
        ['handoff.md', 'blob', '100644'],
        ['state.json', 'blob', '100644'],
      ]);
      const state = JSON.parse(Buffer.from((await git.readBlob({ fs, dir: repo.dir, oid: commit.tree, filepath: 'state.json' })).blob).toString());
      expect(Object.keys(state)).toEqual(['branch', 'head', 'worktree', 'dirty', 'files']);
      expect(commit.message).toMatch(/^handoff\(auth-refactor\): \S/);
      const parsed = repo.git(['interpret-trailers', '--parse', '--no-divider'], { input: commit.message }).stdout.trim().split('\n');
      const keys = parsed.map((l) => l.slice(0, l.indexOf(':')));
      // the scan record (SPEC 2.6) comes after the standard trailers
      const expected = [...(i === 0 ? [...ORDER, 'Handoff-Takeover-From', 'Handoff-Reason'] : ORDER), 'Handoff-Scanned'];
      expect(keys, oid).toEqual(expected);
      const ours = readTrailersOf(openRepo(repo.dir), [oid]).get(oid)!;
      expect(ours.session).toBe(parsed[0].split(': ')[1]);
    }
    // neither the body nor the reason could forge a trailer
    const ours = readTrailersOf(openRepo(repo.dir), [commits[0].oid, commits[2].oid]);
    expect(ours.get(commits[0].oid)).toMatchObject({ session: 'sess-b', takeoverFrom: 'sess-a', reason: 'a left Claude-Session-Id: forged' });
    expect(ours.get(commits[2].oid)!.session).toBe('sess-a');
  });
});
