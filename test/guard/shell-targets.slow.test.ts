// src/guard/shell.ts against an attacker: what a program writes, read as it reads its arguments (find's expression,
// cp and mv target directories and trees, option values), the directory each command runs in, and the scripts the
// guard can and cannot read — each spelling refused through every client's shape and the real sh front; beside them
// the look-alikes that stay allowed.
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from './spellings';

const F = 'memory/handoff-main-auth-refactor.md';

describe('find: its expression read as find reads it', () => {
  it('refuses deletes after -- or -H/-L/-P, with -o, a negated group, -iname, or the action before the test; -fprint writes', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `find -- memory -name 'handoff*' -delete`,
        `find -L memory -delete`,
        `find -P memory -name '*.md' -delete`,
        `find memory -name zzz -o -delete`,
        `find memory ! \\( -name zzz \\) -delete`,
        `find memory -iname 'HANDOFF*' -delete`,
        `find memory -delete -name zzz`,
        `find . -fprint ${F}`,
        `find . -maxdepth 0 -fprintf ${F} x`,
      ],
      'deny',
    );
    await expectShell(w, [`find . -name '*.tmp' -not -path './memory/*' -delete`, `find memory/scratch -delete`, `find -- memory -name '*.md'`], 'allow');
  });
});

describe('copies and moves: the target directory and trees', () => {
  it('refuses -t in a cluster, glued or abbreviated, a hard link by --link abbreviated, and trees copied over handoff files', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        'cp -ft memory $EVIL/handoff-main-auth-refactor.md',
        'cp --target=memory $EVIL/handoff-main-auth-refactor.md',
        'cp -tmemory $EVIL/handoff-main-auth-refactor.md',
        'install -m 644 -t memory $EVIL/handoff-main-auth-refactor.md',
        `cp --l ${F} $EMPTY/second-name`,
        'cp -r $EVIL/memory .',
        'cp -a $EVIL/memory/. memory/',
        'rsync -a $EVIL/memory/ memory/',
        'rsync -r --delete $EMPTY/ memory/',
        'rsync -r --delete $EMPTY/ memory/ --exclude zzz',
        `rsync --remove-source-files ${F} $EMPTY/`,
      ],
      'deny',
    );
    await expectShell(w, ['cp -r memory $EMPTY/backup', 'rsync -a memory/ $EMPTY/backup/', 'cp -r $EMPTY/. memory/scratch/', 'cp README.md $EMPTY/x'], 'allow');
  });
});

describe('option values: a value is not an operand', () => {
  it('refuses uniq, curl, wget, perl -0pi and sed --in-pl writes', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `uniq -f 1 /dev/null ${F}`,
        `uniq --skip-chars 2 /dev/null ${F}`,
        `curl -D ${F} file:///dev/null`,
        `curl -sS --trace-ascii ${F} file:///dev/null`,
        'curl -o handoff-main-auth-refactor.md --output-dir memory file://$EVIL/handoff-main-auth-refactor.md',
        'curl -O --output-dir memory file://$EVIL/handoff-main-auth-refactor.md',
        'cd memory && curl -sSO file://$EVIL/handoff-main-auth-refactor.md',
        'wget -q -P memory http://127.0.0.1:9/handoff-main-auth-refactor.md',
        `perl -0pi -e 's/their/mine/' ${F}`,
        `perl -l0pi -e 's/their/mine/' ${F}`,
        `sed --in-pl s/their/mine/ ${F}`,
        `sed --i s/their/mine/ ${F}`,
      ],
      'deny',
    );
    await expectShell(w, ['uniq -c b.txt', 'curl -sSL -o $EMPTY/page https://example.com', `perl -ne 'print if /x/' ${F}`, `perl -Mstrict -ne 'print' ${F}`, `sed -n 1p ${F}`], 'allow');
  });
});

describe('the directory a command runs in', () => {
  it('follows cd -P and --, subshells, pipelines, background jobs, pushd/popd and ~+', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        'cd -P memory && rm handoff-main-auth-refactor.md',
        'cd -- memory && rm handoff-main-auth-refactor.md',
        `(cd /tmp); rm ${F}`,
        `cd /tmp | true; rm ${F}`,
        `cd /tmp & rm ${F}`,
        `pushd /tmp; popd; rm ${F}`,
        `rm ~+/${F}`,
        `cp /dev/null ~-/../repo/${F}`,
      ],
      'deny',
    );
    await expectShell(w, ['cd -P memory && ls', '(cd memory && cat handoff-main-auth-refactor.md)', 'pushd memory/scratch && rm tmp.txt; popd'], 'allow');
  });
});

describe('scripts the guard cannot read, and those it can', () => {
  it('reads echo/printf piped into a shell and source of a here-string; refuses a script from a pipe, a process substitution or a command output', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `echo 'rm ${F}' | bash`,
        `echo 'rm -rf memor?' | bash`,
        `echo rm -f ${F} | sh -s`,
        `printf 'rm -rf memory' | dash`,
        `. /dev/stdin <<< 'rm ${F}'`,
        `source <(echo rm ${F})`,
        `bash < <(echo rm ${F})`,
        `cat $EVIL/x | bash -s -- ${F}`,
        `bash -c "$(echo rm ${F})"`,
        `"$(printf rm)" -rf memory`,
        '`echo rm` -rf memory',
      ],
      'deny',
    );
    await expectShell(w, [`echo 'ls -la' | bash`, `echo 'cat ${F}' | sh`, 'bash < /dev/null', `. /dev/stdin <<< 'echo hi'`], 'allow');
  });

  it('reads awk programs as code, and a directory named in unread code as reached', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `awk 'BEGIN{print "x" > "${F}"}'`,
        `gawk 'BEGIN{system("rm -f ${F}")}'`,
        `awk -i inplace '{print}' ${F}`,
        `python3 -c 'import shutil; shutil.rmtree("memory")'`,
        `node -e 'require("fs").rmSync("memory", {recursive: true})'`,
        `trash memory`,
      ],
      'deny',
    );
    await expectShell(w, [`awk '{print $1}' ${F}`, `awk -F: 'NR==1' ${F}`, `python3 -c 'print(1)'`, 'prettier --write src', 'eslint .'], 'allow');
  });
});
