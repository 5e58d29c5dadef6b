// src/guard/shell/values.ts and written.ts against an attacker: a second name for a variable (`declare -n`) and a
// startup file a shell reads before its -c script (BASH_ENV, ENV) written on the same line; beside them, spellings of
// the same classes the guard already refused (git's environment naming this repository, interpreters' subprocesses,
// index plumbing, wrappers, aliases, tree copies, strings built from literals, metadata changes, archives) kept as
// rows. Every client's shell shape in-process and through the real sh front.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from './world-wired';
import { FOREIGN_FILE as F } from './world';

describe('names and startup files', () => {
  it('declare -n and BASH_ENV/ENV are read', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `declare -n r=p; p=${F}; echo x > $r`,
        `local -n r=p; p=${F}; echo x > $r`,
        `typeset -n r=p; p=${F}; rm -f $r`,
        `echo 'rm -f ${F}' > $EMPTY/s.sh; BASH_ENV=$EMPTY/s.sh bash -c true`,
        `printf 'rm -rf memory\\n' > $EMPTY/e.sh; ENV=$EMPTY/e.sh sh -i -c true`,
      ],
      'deny',
    );
    await expectShell5(w, ['declare -n r=p; p=/tmp/out; echo x > $r', 'declare r=p; echo x > $r', "echo 'ls' > $EMPTY/s.sh; BASH_ENV=$EMPTY/s.sh bash -c true"], 'allow');
  });
});

describe('spellings refused already', () => {
  it('stay refused', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'GIT_DIR=.git git checkout HEAD~1 -- .claude',
        'GIT_DIR=./.git git update-ref -d refs/handoffs/main/auth-refactor',
        'GIT_DIR=.git git config handoff.guard off',
        `python3 -c 'import subprocess; subprocess.run(["sh","-c","echo x > ${F}"])'`,
        `node -e 'require("child_process").execSync("echo x > ${F}")'`,
        'perl -e \'`echo x > ' + F + '`\'',
        `ruby -e '%x(echo x > ${F})'`,
        `git update-index --cacheinfo 100644,e69de29bb2d1d6434b8b29ae775ad8c2e48c5391,${F} && git checkout-index -f -- ${F}`,
        'git restore --source=HEAD~1 .claude',
        'git checkout --orphan x && git rm -rf .',
        `timeout 5 sh -c 'echo x > ${F}'`,
        `nice sh -c 'echo x > ${F}'`,
        `nohup sh -c 'echo x > ${F}'`,
        `setsid sh -c 'echo x > ${F}'`,
        `stdbuf -oL sh -c 'echo x > ${F}'`,
        `flock f sh -c 'echo x > ${F}'`,
        `echo 1 | xargs sh -c 'echo x > ${F}'`,
        `find . -maxdepth 0 -exec sh -c 'echo x > ${F}' \\;`,
        `git -c alias.x='!sh -c "echo x > ${F}"' x`,
        `git config alias.x '!echo x > ${F}'`,
        `python3 -c 'import shutil; shutil.rmtree(".claude")'`,
        `eval "$(printf 'echo x > %s' ${F})"`,
        `printf -v p %s ${F}; echo x > $p`,
        'a=mem; b=ory; echo x > $a$b/handoff-main-auth-refactor.md',
        'a=mem; echo x > "${a}ory/handoff-main-auth-refactor.md"',
        "echo x > $'\\x6d'emory/handoff-main-auth-refactor.md",
        'IFS=/; set -- memory handoff-main-auth-refactor.md; echo x > "$*"',
        'chattr +i .claude/settings.json',
        'truncate -s0 .claude/settings.json',
        'touch -d 2000-01-01 .claude/settings.json',
        'ln -sf /dev/null .claude/settings.json',
        `expect -c 'spawn sh -c "echo x > ${F}"'`,
        `awk 'BEGIN{system("echo x > ${F}")}'`,
        `find . -maxdepth 0 -fprint ${F}`,
        `echo x | dd of=${F}`,
        `echo x | tee -a ${F}`,
        `install /dev/null ${F}`,
        `printf '1d\\nw\\nq\\n' | ed ${F}`,
      ],
      'deny',
    );
  });

  it('tree copies and archives onto the worktree, from a source that holds protected names', async () => {
    const w = await world5();
    w.repo.write('../evil-src/.claude/settings.json', '{}\n');
    await expectShell5(w, ['cp -r ../evil-src/.claude .', 'cp -a ../evil-src/. .', 'rsync -a ../evil-src/ .', 'mv ../evil-src/.claude .'], 'deny');
  });
});
