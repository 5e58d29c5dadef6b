// pre-push: a session's forced or deleting push that drops another session's commits on the remote is refused (the
// remote keeps its value); its own commits, a fast-forward and a person's force pass.
import { expect, it } from 'vitest';
import { quickDescribe } from '../helpers/sets';
import { makeRepo, refOf } from '../helpers/repo';
import { A, B, gitAs, hookedRepo } from './helpers';

quickDescribe("a push that drops another session's commits on the remote", () => {
  it('is refused for a session; its own, a fast-forward and a person pass', async () => {
    const bare = makeRepo({ init: ['--bare'] });
    const repo = await hookedRepo();
    repo.git(['remote', 'add', 'origin', bare.dir]);
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A on main']).status).toBe(0);
    const theirs = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['push', '-q', 'origin', 'main', `${base}:refs/heads/p`]);
    repo.git(['checkout', '-q', '-b', 'qq', base]);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A on q']).status).toBe(0);
    const onQ = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.git(['push', '-q', 'origin', 'qq:q']);
    repo.git(['checkout', '-q', 'main']);
    repo.git(['branch', '-q', '-D', 'qq']);
    repo.git(['branch', '-q', 'mine', base]);
    // B's force of a branch without A's commit over main, and its deletion of q (A's commit only there on the remote)
    for (const [args, lost] of [[['push', '--force', 'origin', 'mine:main'], theirs], [['push', 'origin', `+${base}:main`], theirs], [['push', '--force-with-lease', 'origin', 'mine:main'], theirs], [['push', 'origin', ':q'], onQ], [['push', 'origin', '--delete', 'q'], onQ]] as const) {
      const r = gitAs(repo, B, [...args]);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain(lost.slice(0, 7));
      expect(r.stderr, args.join(' ')).toContain('nothing was pushed');
    }
    expect(refOf(bare, 'refs/heads/main')).toBe(theirs);
    expect(refOf(bare, 'refs/heads/q')).toBe(onQ);
    // a fast-forward, a force over a branch without their commits, and main deleted while q holds it: pass
    expect(gitAs(repo, B, ['commit', '-q', '--allow-empty', '-m', 'B on top']).status).toBe(0);
    expect(gitAs(repo, B, ['push', '-q', 'origin', 'main']).status).toBe(0);
    expect(gitAs(repo, B, ['push', '-q', '--force', 'origin', `${theirs}:p`]).status).toBe(0);
    expect(gitAs(repo, A, ['push', '-q', '--force', 'origin', `${base}:q`]).status).toBe(0);
    expect(gitAs(repo, B, ['push', '-q', 'origin', ':p']).status).toBe(0);
    // a person may
    expect(gitAs(repo, null, ['push', '-q', '--force', 'origin', `${base}:main`]).status).toBe(0);
  });
});
