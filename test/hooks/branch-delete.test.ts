// reference-transaction: a session deleting a branch that alone holds another session's commits (`git branch -D`,
// `git update-ref -d`, `git push . :<b>`) is refused; a rename, a branch held elsewhere too and a person's deletion pass.
import { expect, it } from 'vitest';
import { quickDescribe } from '../helpers/sets';
import { A, B, gitAs, hookedRepo } from './helpers';

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
