// The worktree taken or locked whole under another spelling: a tree read into the index (or HEAD made unborn) before a
// command that makes the worktree match it, `switch --orphan`, `sparse-checkout`, `git init` over this repository with
// a template or --bare, a directory's mode or owner changed, a linked worktree removed or moved with its handoff files
// (src/guard/rules/earlier.ts, git-files.ts, git-invocation.ts, writers.ts), and `git clean -X` after the line
// changed what git ignores (untracked.ts) — each refused in every client's shell shape in-process and through the real
// sh front; the look-alikes stay allowed.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';
import { FOREIGN_FILE } from '../world';

describe('the worktree taken or locked whole', () => {
  it('through the index, HEAD, sparse-checkout, git init or a directory mode', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'git read-tree HEAD~1 && git checkout-index -a -f',
        'git checkout --orphan x && git reset --hard',
        'git switch --orphan x',
        'git sparse-checkout set src',
        'git sparse-checkout init --cone',
        'git init --template=$EMPTY .',
        'git init --template $EMPTY',
        'git init --bare .git',
        'git --git-dir=.git init --bare',
        'chmod -R 000 .claude',
        'chmod 000 .claude',
        'chown -R nobody .claude',
      ],
      'deny',
    );
    await expectShell5(
      w,
      ['git init', 'git init -q', 'git init $EMPTY/new', 'git init --bare $EMPTY/new.git', 'git sparse-checkout list', 'chmod +x src/a.ts', 'chmod -R u+w src', 'git checkout-index -f -a', 'git checkout --orphan gh-pages', 'git read-tree HEAD'],
      'allow',
    );
  });

  it('git clean -X after the line changed what git ignores', async () => {
    const w = await world5();
    w.repo.git(['rm', '-q', '--cached', FOREIGN_FILE]);
    await expectShell5(w, ["echo '*' >> .gitignore && git clean -fdX", "echo 'memory/' >> .gitignore; git clean -fdX", "echo '*' >> .git/info/exclude && git clean -fdx", 'git -c core.excludesFile=$EMPTY/ig clean -fdX'], 'deny');
    await expectShell5(w, ['git clean -fdX', 'git clean -ndx'], 'allow');
  });

  it('a linked worktree holding another session handoff file, removed or moved', async () => {
    const w = await world5();
    w.repo.git(['worktree', 'add', '-q', `${w.empty}/wt2`, '-b', 'wt2']);
    await expectShell5(w, ['git worktree remove --force $EMPTY/wt2', 'git worktree remove -f $EMPTY/wt2', 'git worktree move $EMPTY/wt2 $EMPTY/wt4'], 'deny');
    await expectShell5(w, ['git worktree list', 'git worktree add $EMPTY/wt5'], 'allow');
  });
});
