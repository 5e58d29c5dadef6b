// src/guard/rules/rewrite.ts against an attacker: the current branch moved back over another session's commit by
// plumbing (`git update-ref`, `-d`), by a forced push or fetch to this same repository, or by `reset` through a
// GIT_DIR/--git-dir that names this repository under another spelling — each refused like `git reset --hard` over the
// commit, in every client's shell shape in-process and through the real sh front; moves that drop no commit of
// another session stay allowed.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';

describe('a branch rewritten by plumbing or a transfer to itself', () => {
  it('is refused where it drops another session commit', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'git update-ref refs/heads/main HEAD~3',
        'git update-ref refs/heads/main HEAD~3 && git reset --hard',
        'git update-ref HEAD HEAD~3',
        'git update-ref -m x refs/heads/main HEAD~3',
        'git update-ref -d refs/heads/main',
        'git push . +HEAD~3:main',
        'git push . HEAD~3:main -f',
        'git push --force . HEAD~3:refs/heads/main',
        'git fetch . +HEAD~3:main',
        'git fetch -u . +HEAD~3:refs/heads/main',
        'GIT_DIR=.git git reset --hard HEAD~3',
        'git --git-dir=.git reset --hard HEAD~3',
        'git --git-dir=$REPO/.git --work-tree=. reset --hard HEAD~3',
        'GIT_DIR=$REPO/.git GIT_WORK_TREE=. git checkout HEAD~1 -- .claude',
      ],
      'deny',
    );
    await expectShell5(
      w,
      ['git update-ref refs/heads/feature HEAD', 'git update-ref refs/heads/main HEAD', 'git push . HEAD:feature', 'git push . +HEAD:feature', 'git fetch . main:feature', 'GIT_DIR=.git git log', 'git --git-dir=.git reset --hard HEAD'],
      'allow',
    );
  });
});
