// src/guard/shell.ts against an attacker: a script written and run on one line is read as its text, and one a
// program makes on the line (decoded, reversed, translated) and then runs is refused, through every client's shape
// (in-process) and the real sh front.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from './world-wired';

const THEIR = 'memory/handoff-main-auth-refactor.md';

describe('7. a script written and run on one line is read as its text', () => {
  it('echo, printf and a here-document into a file then . / source / sh / bash / ./file / at -f / crontab', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `echo 'rm -f ${THEIR}' > $EMPTY/s.sh; . $EMPTY/s.sh`,
        `echo 'rm -f ${THEIR}' > $EMPTY/s.sh && source $EMPTY/s.sh`,
        `echo 'rm -f ${THEIR}' > $EMPTY/s.sh; bash $EMPTY/s.sh`,
        `echo 'rm -rf memory' > $EMPTY/s.sh; sh < $EMPTY/s.sh`,
        `printf 'rm -rf memory\\n' > $EMPTY/s.sh && chmod +x $EMPTY/s.sh && $EMPTY/s.sh`,
        `cd $EMPTY && printf 'rm -f $REPO/${THEIR}' > s && chmod +x s && ./s`,
        `cat > $EMPTY/s.sh <<'EOF'\nrm -f ${THEIR}\nEOF\nbash $EMPTY/s.sh`,
        `printf 'rm -f ' > $EMPTY/s; printf '${THEIR}' >> $EMPTY/s; . $EMPTY/s`,
        `echo 'git update-ref -d refs/handoffs/main/auth-refactor' > $EMPTY/s; sh $EMPTY/s`,
        `tee $EMPTY/s.sh < $EMPTY/in >/dev/null; sh $EMPTY/s.sh ${THEIR}`,
        `echo 'rm -rf $REPO/memory' > $EMPTY/s.sh && at -f $EMPTY/s.sh now`,
        `printf 'rm -f $REPO/${THEIR}\\n' > $EMPTY/s.sh; batch -f$EMPTY/s.sh`,
        `echo '* * * * * rm -rf $REPO/memory' > $EMPTY/t && crontab $EMPTY/t`,
        `echo '* * * * * rm -rf $REPO/memory' > $EMPTY/t && crontab -u root $EMPTY/t`,
      ],
      'deny',
    );
    await expectShell5(w, [`echo 'npm test' > $EMPTY/s.sh; bash $EMPTY/s.sh`, `echo 'ls memory' > $EMPTY/s.sh && . $EMPTY/s.sh`, `printf 'echo hi\\n' > $EMPTY/t.sh; sh $EMPTY/t.sh`, `echo 'ls /tmp' > $EMPTY/s.sh && at -f $EMPTY/s.sh now`, `echo '0 3 * * * ls /tmp' > $EMPTY/t && crontab $EMPTY/t`], 'allow');
  });
});

describe('a script made on the line by a program and then run (a later round)', () => {
  it('decoded, reversed or translated into a shell, or into a file a shell runs, is refused whatever the line names; cat, a download and literal text are read as before', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'echo cm0gLXJmIG1lbW9yeQ== | base64 -d | sh',
        'echo cm0gLXJmIG1lbW9yeQ== | base64 --decode | bash -s',
        'printf 726d202d7266202e636c61756465 | xxd -r -p | sh',
        "echo 'yromem fr- mr' | rev | sh",
        "echo 'ez -ess zrzbel' | tr a-z n-za-m | bash",
        'echo cm0gLXJmIG1lbW9yeQ== | base64 -d > $EMPTY/s.sh; sh $EMPTY/s.sh',
        'echo cm0gLXJmIG1lbW9yeQ== | base64 -d | tee $EMPTY/s.sh >/dev/null; . $EMPTY/s.sh',
        'bash -c "$(echo cm0gLXJmIG1lbW9yeQ== | base64 -d)"',
        'sh -c "`printf 726d202d7266206d656d6f7279 | xxd -r -p`"',
        "eval \"$(rev <<< 'yromem fr- mr')\"",
        '$(echo cm0K | base64 -d) -rf $EMPTY/x',
      ],
      'deny',
    );
    await expectShell5(w, ['echo ls | sh', 'cat $EMPTY/in | sh', 'sh -c "$(cat $EMPTY/in)"', 'eval "$(ssh-agent -s)"', '"$(which node)" -e 0', 'echo "$(echo hi | tr a-z A-Z)"', 'echo ls > $EMPTY/s.sh; sh $EMPTY/s.sh', 'ls | sort | head -3', 'npm test 2>&1 | tail -5'], 'allow');
  });
});
