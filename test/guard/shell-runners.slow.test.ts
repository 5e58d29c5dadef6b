// src/guard/shell/runners.ts against an attacker: programs other than a shell that run a command line they are given
// (watch, tmux, screen, systemd-run, ssh, at/batch, crontab, parallel, trap, vim's `:!`, sqlite3's `.shell` and the files
// its dot-commands write, sed's `e`, make --eval, npm scripts set on the line, LESSOPEN) and code in lisps' -e/--eval, each read as `sh -c` is, in
// every client's shell shape in-process and through the real sh front; the ordinary calls of the same programs stay allowed
// (tmux, vim and emacs themselves are refused in Codex's shape, which keeps their input open: src/guard/interactive.ts).
import { describe, it } from 'vitest';
import { expectShell5, world5 } from './world-wired';
import { FOREIGN_FILE as F } from './world';

describe('runners: a command line in an argument, an escape to the shell, a variable or the input', () => {
  it('is read as sh -c reads it', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `watch -n1 'echo x > ${F}'`,
        `watch -n 1 'rm -rf memory'`,
        `tmux new -d 'echo x > ${F}'`,
        `tmux new-session -d -s s 'rm -rf .claude'`,
        `tmux send-keys -t s 'rm -rf memory' Enter`,
        "tmux split-window -h 'rm -rf memory'",
        "parallel -j1 sh -c ::: 'rm -rf memory'",
        "sed -n -e 's/.*/rm -rf memory/e' README.md",
        "trap -- 'rm -rf .git/hooks' INT TERM EXIT",
        `screen -dm sh -c 'echo x > ${F}'`,
        `screen -dmS x sh -c 'echo {} > .claude/settings.json'`,
        `systemd-run --user sh -c 'echo x > ${F}'`,
        `ssh localhost 'echo x > $REPO/${F}'`,
        `echo 'echo x > $REPO/${F}' | at now`,
        `echo 'rm -rf $REPO/.claude' | batch`,
        `at now <<'EOF'\nrm -f $REPO/${F}\nEOF`,
        `echo '* * * * * echo x > $REPO/${F}' | crontab -`,
        `echo '* * * * * rm -rf $REPO/memory' | crontab -u root -`,
        `echo '* * * * * rm -rf $REPO/memory' | crontab -u root`,
        `parallel ::: 'echo x > ${F}'`,
        `parallel rm ::: ${F}`,
        `trap 'echo x > ${F}' EXIT`,
        `trap 'rm -rf .claude' EXIT; true`,
        `sqlite3 :memory: '.shell echo x > ${F}'`,
        `sqlite3 db '.system rm -rf memory'`,
        `sqlite3 :memory: '.once ${F}' 'select 1'`,
        `sqlite3 db '.output |rm -rf memory' 'select 1'`,
        `sqlite3 db -cmd '.cd memory' '.output ${F.replace('memory/', '')}' 'select 1'`,
        `sqlite3 db '.backup main ${F}'`,
        "sqlite3 db '.log .git/config' 'select 1'",
        `sqlite3 db <<'EOF'\n.output ${F}\nselect 1;\nEOF`,
        `echo '.output ${F}' | sqlite3 db`,
        `vim -c ':!echo x > ${F}' -c ':q'`,
        `ex -c ':!echo x > ${F}' -c ':q'`,
        `vim -c 'w ${F}' -c q /tmp/x`,
        `vim +'!rm -rf memory' +q`,
        `sed 'e echo x > ${F}' README.md`,
        `echo | sed '1e rm -rf .claude'`,
        `echo 'rm -rf memory' | sed e`,
        `make --eval 'all: ; echo x > ${F}'`,
        `npm pkg set scripts.x='echo x > ${F}' && npm run x`,
        `LESSOPEN='|echo x > ${F} %s' less README.md`,
        `emacs --batch --eval '(shell-command "echo x > ${F}")'`,
        `guile -c '(system "echo x > ${F}")'`,
        `racket -e '(system "echo x > ${F}")'`,
        `sbcl --eval '(run-program "/bin/sh" (list "-c" "echo x > ${F}"))'`,
      ],
      'deny',
    );
    await expectShell5(
      w,
      [
        "watch -n1 'git status'",
        'watch -n 5 ls -la',
        'screen -ls',
        'ssh host ls',
        "ssh -p 22 host 'cat /etc/hostname'",
        'parallel echo ::: a b c',
        "sqlite3 db.sqlite 'select 1'",
        "sqlite3 db.sqlite '.output out.txt' 'select 1'",
        "sqlite3 -header -csv db.sqlite 'select 1' > out.csv",
        'sqlite3 db.sqlite < schema.sql && ls memory',
        "sqlite3 db.sqlite '.save copy.db'",
        'sed -n 1p README.md',
        "sed 's/e/f/g' README.md",
        "sed -e 's/x/y/' -e '/e/d' README.md",
        'make -j4',
        'npm pkg set name=x',
        "echo 'ls' | at now",
        'crontab -u root -l',
        "trap 'rm -f /tmp/x' EXIT",
        'trap - EXIT',
        "LESSOPEN='|lesspipe %s' less README.md",
        `guile -c '(display 1)'`,
      ],
      'allow',
    );
  });
});

describe('archives unpacked by interpreter code', () => {
  it('extractall and unpack_archive into the worktree reach the handoff files in it', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `python3 -c 'import tarfile; tarfile.open("x.tar").extractall(".")'`,
        `python3 -c 'import zipfile; zipfile.ZipFile("x.zip").extractall()'`,
        `python3 -c 'import shutil; shutil.unpack_archive("x.zip")'`,
      ],
      'deny',
    );
    await expectShell5(w, [`python3 -c 'import zipfile; zipfile.ZipFile("x.zip").extractall("/tmp/out")'`, `python3 -c 'import tarfile; tarfile.open("x.tar").extractall("build")'`], 'allow');
  });
});
