// reference-transaction: a session deleting a branch that alone holds another session's commits (`git branch -D`,
// `git update-ref -d`, `git push . :<b>`, `git branch -M <b> <it>`) is refused; a rename (reflogs on or off), a branch
// held elsewhere too and a person's deletion pass.
import { expect, it } from 'vitest';
import { quickDescribe } from '../helpers/sets';
import { A, B, gitAs, hookedRepo } from './helpers';
import { branchRename } from '../../src/hooks/renamed-branch';

quickDescribe("deleting a branch that holds another session's commits", () => {
  it('is refused for a session by the hook; a rename, a branch held elsewhere and a person pass', async () => {
    const repo = await hookedRepo();
    repo.git(['checkout', '-q', '-b', 'x']);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A on x']).status).toBe(0);
    const onX = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['checkout', '-q', 'main']);
    const exists = (b: string) => repo.git(['rev-parse', '-q', '--verify', `refs/heads/${b}`], { allowFail: true }).status === 0;
    for (const args of [['branch', '-D', 'x'], ['update-ref', '-d', 'refs/heads/x'], ['push', '.', ':x'], ['push', '.', '--delete', 'x']]) {
      const r = gitAs(repo, B, args);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain('deleting refs/heads/x');
      expect(r.stderr, args.join(' ')).toContain(onX.slice(0, 7));
      expect(exists('x'), args.join(' ')).toBe(true);
    }
    // renamed (and back), then deleted while another branch holds the commit
    expect(gitAs(repo, B, ['branch', '-m', 'x', 'y']).status).toBe(0);
    expect(gitAs(repo, B, ['branch', '-m', 'y', 'x']).status).toBe(0);
    repo.git(['branch', 'keep', 'x']);
    expect(gitAs(repo, B, ['branch', '-D', 'x']).status).toBe(0);
    // A's own, and a person's
    repo.git(['branch', 'x', 'keep']);
    expect(gitAs(repo, A, ['branch', '-D', 'keep']).status).toBe(0);
    expect(gitAs(repo, null, ['branch', '-D', 'x']).status).toBe(0);
  });

  it("a rename passes with reflogs on or off; a forced rename over a branch that alone holds another session's commits is refused whole", async () => {
    for (const reflogs of ['true', 'false']) {
      const repo = await hookedRepo();
      repo.git(['config', 'core.logAllRefUpdates', reflogs]);
      repo.git(['branch', 'feat']);
      expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A on main']).status).toBe(0);
      const refs = () => repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/']).stdout;
      repo.git(['checkout', '-q', 'feat']);
      const before = refs();
      // feat over main: main alone holds A's commit (git deletes feat, then main, then writes main: refused at the first)
      for (const args of [['branch', '-M', 'feat', 'main'], ['branch', '-f', '-m', 'feat', 'main'], ['branch', '-M', 'main']]) {
        const r = gitAs(repo, B, args);
        expect(r.status, `${reflogs} ${args.join(' ')}`).not.toBe(0);
        expect(r.stderr, args.join(' ')).toContain('renaming refs/heads/feat over refs/heads/main would drop 1 commit');
        expect(refs(), args.join(' ')).toBe(before);
        expect(repo.git(['symbolic-ref', 'HEAD']).stdout.trim()).toBe('refs/heads/feat');
      }
      // a rename carries A's commit to the new name, with or without a reflog to move aside
      repo.git(['checkout', '-q', 'main']);
      expect(gitAs(repo, B, ['branch', '-m', 'main', 'trunk']).status, reflogs).toBe(0);
      expect(gitAs(repo, B, ['branch', '-m', 'main']).status, reflogs).toBe(0);
      // over a branch whose commits the renamed one holds too: nothing dropped
      expect(gitAs(repo, B, ['branch', '-M', 'main', 'feat']).status, reflogs).toBe(0);
      expect(repo.git(['symbolic-ref', 'HEAD']).stdout.trim()).toBe('refs/heads/feat');
    }
  });

  it('reads which branch a `git branch` command line renames', () => {
    expect(branchRename(['git', 'branch', '-m', 'a', 'b'])).toEqual({ from: 'a', to: 'b' });
    expect(branchRename(['/usr/bin/git', '-C', 'dir', '-c', 'x.y=1', 'branch', '-fM', '--', 'a', 'b'])).toEqual({ from: 'a', to: 'b' });
    expect(branchRename(['git', 'branch', '--move', 'b'])).toEqual({ from: null, to: 'b' });
    for (const argv of [['git', 'branch', '-c', 'a', 'b'], ['git', 'branch', '-mc', 'a', 'b'], ['git', 'branch', '-D', 'a'], ['git', 'branch', '-uorigin/main', 'a'], ['git', 'branch', '-m', '--sort', 'x', 'a', 'b'], ['git', 'branch', '-m', 'a', 'b', 'c'], ['git', 'branch', 'a', 'b'], ['git', 'checkout', '-m', 'a']]) {
      expect(branchRename(argv), argv.join(' ')).toBeNull();
    }
  });

  it("deleting or moving back a tag on another session's commit is refused for a session", async () => {
    const repo = await hookedRepo();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A work']).status).toBe(0);
    repo.git(['tag', 'v1']);
    repo.git(['tag', '-a', '-m', 'release', 'v2']);
    for (const args of [['tag', '-d', 'v1'], ['tag', '-d', 'v2'], ['tag', '-f', 'v1', base], ['update-ref', '-d', 'refs/tags/v1']]) {
      const r = gitAs(repo, B, args);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain('the tag is on their commit');
    }
    expect(repo.git(['tag', '-l']).stdout.split('\n').filter(Boolean)).toEqual(['v1', 'v2']);
    expect(gitAs(repo, B, ['tag', 'v3', base]).status).toBe(0);
    expect(gitAs(repo, B, ['tag', '-d', 'v3']).status).toBe(0);
    expect(gitAs(repo, A, ['tag', '-d', 'v1']).status).toBe(0);
    expect(gitAs(repo, null, ['tag', '-d', 'v2']).status).toBe(0);
  });
});
