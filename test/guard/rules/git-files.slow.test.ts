// Issue 24, third attacker's pass: git verbs that write worktree files by the paths they name, that clean through
// another work tree, and ref patterns that cover handoff refs — each refused through every client's shape and the
// real sh front, the look-alikes allowed. Each spelling was let through before (git's own verbs were not judged on
// the files they write, and a refspec was checked for a literal handoff ref only).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf } from '../helpers/repo';
import { OTHER } from './helpers';
import { attackWorld, expectShell } from './attack3-helpers';

const F = 'memory/handoff-main-auth-refactor.md';
const REF = 'refs/handoffs/main/auth-refactor';

describe('git verbs that write the files they name', () => {
  it('refuses git rm, mv, checkout/restore of paths, checkout-index, merge-file, bundle and archive -o on another session\'s handoff file', async () => {
    const w = await attackWorld();
    // the other session's file is committed, as handoff files often are
    w.repo.commit(`their note\n\nClaude-Session-Id: ${OTHER}`);
    await expectShell(
      w,
      [
        `git rm -f ${F}`,
        'git -C memory rm -f handoff-main-auth-refactor.md',
        `git rm -rf memory`,
        `git rm -f 'memory/handoff-*'`,
        `git rm -f ':(top)memory/*.md'`,
        `git mv -f b.txt ${F}`,
        'git mv memory $EMPTY/gone',
        `git checkout -- ${F}`,
        `git checkout HEAD~1 -- memory`,
        `git restore ${F}`,
        'git restore --source=HEAD~1 memory/',
        `git checkout-index -f ${F}`,
        `git merge-file ${F} /dev/null $EVIL/handoff-main-auth-refactor.md`,
        `git bundle create ${F} HEAD`,
        `git archive -o ${F} HEAD`,
      ],
      'deny',
    );
    await expectShell(w, ['git checkout .', 'git restore .', 'git checkout -b feature', `git rm --cached -q ${F}`, 'git rm -q --cached b.txt', `git restore --staged ${F}`, 'git checkout-index -f -a', 'git stash'], 'allow');
  });

  it('refuses verbs that throw away another session\'s uncommitted edit of its handoff file', async () => {
    const w = await attackWorld();
    w.repo.commit(`their note\n\nClaude-Session-Id: ${OTHER}`);
    // the other session is editing its committed note
    w.repo.write(F, `<!-- claude-session: ${OTHER} -->\ntheir note, edited\n`);
    await expectShell(w, ['git checkout -f HEAD', 'git switch -f main', 'git switch --discard-changes main', 'git reset --hard', 'git read-tree -u --reset HEAD', 'git checkout .', 'git restore memory', 'git stash', 'git stash push -- memory', 'git checkout-index -f -a'], 'deny');
    await expectShell(w, ['git status', 'git stash list', 'git diff memory', 'git checkout -b feature'], 'allow');
  });
});

describe('another worktree removed with what it holds', () => {
  it('refuses git worktree remove of a worktree holding another session\'s handoff file', async () => {
    const w = await attackWorld();
    const other = path.join(w.empty, 'wt2');
    w.repo.git(['worktree', 'add', '-q', '--detach', other]);
    mkdirSync(path.join(other, 'memory'));
    writeFileSync(path.join(other, 'memory', 'handoff-main-their-topic.md'), `<!-- claude-session: ${OTHER} -->\ntheirs\n`);
    await expectShell(w, [`git worktree remove --force ${other}`, `git worktree remove -f -f ${other}`], 'deny');
    await expectShell(w, ['git worktree list', `git worktree add -q --detach ${path.join(w.empty, 'wt3')}`], 'allow');
  });
});

describe('git clean through another work tree, or without -f', () => {
  it('refuses git clean with --git-dir/--work-tree or clean.requireForce=false', async () => {
    const w = await attackWorld();
    await expectShell(w, ['git --git-dir=.git --work-tree=. clean -fdx', 'GIT_DIR=.git git clean -fdx', 'git --work-tree=memory clean -fx', 'git -c clean.requireForce=false clean -dx', 'git clean -d -x'], 'deny');
    await expectShell(w, ['git clean -n -dx', 'git clean -fdx -e memory/', 'git --git-dir=.git --work-tree=. clean -n'], 'allow');
  });
});

describe('ref patterns that cover handoff refs', () => {
  it('refuses fetch, push, remote and config refspecs whose pattern can write a handoff ref, and graft conversion', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        "git fetch --prune $EVILREPO 'refs/*:refs/*'",
        "git fetch $EVILREPO '+refs/*:refs/*'",
        "git fetch $EVILREPO '+refs/h*:refs/h*'",
        "git fetch $EVILREPO 'refs/heads/main' --refmap='+refs/heads/*:refs/*'",
        "git pull $EVILREPO '+*:*'",
        "git push --prune . 'refs/heads/*:refs/*'",
        "git push --force origin 'refs/*:refs/*'",
        "git push origin '+refs/*'",
        'git remote add --mirror=fetch -f evil $EVILREPO',
        'git remote add --mirror evil $EVILREPO',
        "git config remote.origin.fetch '+refs/*:refs/*'",
        "git config --add remote.origin.push 'refs/heads/*:refs/*'",
        'git replace --convert-graft-file',
      ],
      'deny',
    );
    await expectShell(
      w,
      ["git fetch $EVILREPO '+refs/heads/*:refs/remotes/evil/*'", 'git fetch origin', 'git push origin HEAD', "git push origin 'refs/heads/*'", 'git remote add evil $EVILREPO', "git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'", 'git replace -l'],
      'allow',
    );
    expect(refOf(w.repo, REF)).not.toBeNull();
  });
});
