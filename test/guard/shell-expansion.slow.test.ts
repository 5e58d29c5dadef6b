// src/guard/shell.ts against an attacker: what the shell builds from values — a variable as the program or eval'd,
// literal text a later expansion runs (${x@P}, arithmetic), word splitting, brace sequences, $PWD — and the command
// lines git, su and script run. Each refused through every client's shape and the real sh front, the look-alikes
// allowed.
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from './spellings';

const F = 'memory/handoff-main-auth-refactor.md';
const RM = `rm -f ${F}`;

describe('values the shell runs', () => {
  it('reads a variable set on the line as the program, under eval and under sh -c', async () => {
    const w = await attackWorld();
    await expectShell(w, [`x='${RM}'; $x`, `x='${RM}'; eval $x`, `x='${RM}'; eval "$x"`, `x='${RM}'; bash -c "$x"`, `export x='${RM}'; sh -c "$x"`], 'deny');
    await expectShell(w, [`x='ls -la'; $x`, `x='cat ${F}'; eval "$x"`, 'eval "$(ssh-agent -s)"', '$EDITOR README.md'], 'allow');
  });

  it('judges a command substitution kept in literal text, which ${x@P}, arithmetic and let run', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [`x='$(${RM})'; echo "\${x@P}"`, `x='a[$(${RM})]'; echo $((x))`, `x='a[$(${RM})]'; (( x ))`, `x='a[\`${RM}\`]'; let x`, `x='a[$(${RM})]'; [[ $x -eq 1 ]]`, `x=$'a[$(${RM})]'; : $((x))`],
      'deny',
    );
    await expectShell(w, [`echo 'costs $(date)'`, `git log --format='%h $(subject)' -1`, `awk '{print $(NF)}' ${F}`], 'allow');
  });
});

describe('what a word becomes', () => {
  it('splits an unquoted value into words (IFS too), expands brace sequences, knows $PWD, $(pwd) and the top of the worktree', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `x='b.txt ${F}'; rm -f $x`,
        `IFS=:; x=b.txt:${F}; rm -f $x`,
        'rm memory/handoff-main-auth-refactor.m{a..z}',
        'rm memory/handoff-main-auth-refactor.{l..n}d',
        'rm -rf "$PWD"',
        'rm -rf "$(pwd)"',
        'rm -rf `pwd`/memory',
        'cd "$(git rev-parse --show-toplevel)" && rm -rf *',
        `echo x 1<>${F}`,
        `: 1<> ${F}`,
      ],
      'deny',
    );
    await expectShell(w, ['x=b.txt; cat $x', 'rm -f memory/scratch/tmp.{txt,log}', 'ls "$PWD"', 'rm -rf "$PWD/memory/scratch"', 'touch file{1..3}.txt', `cat < ${F}`], 'allow');
  });
});

describe('command lines git, su and script run', () => {
  it('reads rebase --exec, difftool -x, bisect run, submodule foreach, filter-branch filters, --upload-pack, su/runuser/script -c', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `git rebase --root -x '${RM}'`,
        `git difftool -y -x '${RM}'`,
        `git bisect run ${RM}`,
        `git submodule foreach '${RM}'`,
        `git fetch --upload-pack='${RM}; git-upload-pack' origin`,
        `git ls-remote --upload-pack='${RM}' origin`,
        `su -c '${RM}'`,
        `runuser -u nobody -c '${RM}'`,
        `script -qc '${RM}' /dev/null`,
      ],
      'deny',
    );
    await expectShell(w, [`git difftool -y -x 'diff -u'`, 'git bisect run npm test', `git submodule foreach 'git status'`, `script -qc 'ls' /dev/null`], 'allow');
  });
});
