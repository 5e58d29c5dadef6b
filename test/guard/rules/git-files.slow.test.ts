// src/guard/rules/git-files.ts against an attacker: git verbs that write or throw away worktree files by the paths
// they name, and another worktree removed with what it holds. Each refused through every client's shape and the real
// sh front, the look-alikes allowed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { OTHER } from '../helpers';
import { attackWorld, expectShell } from '../spellings';

const F = 'memory/handoff-main-auth-refactor.md';

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
    // a long option abbreviated as git takes it (`--har` is --hard)
    await expectShell(w, ['git reset --har', 'git switch --discard main'], 'deny');
    // an exclude alone covers everything else: the note is thrown away with it
    await expectShell(w, [`git restore -- ':!b.txt'`, `git checkout -- ':(exclude)b.txt'`, `git checkout -- ':(glob)**/b.txt'`], 'deny');
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
