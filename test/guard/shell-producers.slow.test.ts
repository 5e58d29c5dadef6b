// src/guard/shell.ts and src/guard/printed.ts against an attacker: what find, xargs and a shell take once their
// input is read as they read it — a directory a find -name matches goes whole to -exec or xargs; the words echo and
// printf print (escapes, conversions, NUL-separated) are what xargs appends and the script a shell reads. Each
// refused through every client's shape and the real sh front, the look-alikes allowed.
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from './spellings';

describe('find takes a matched directory whole', () => {
  it('-exec, -execdir and a pipe into xargs of a directory a -name matches', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        "find . -maxdepth 1 -name 'mem*' -exec rm -rf {} +",
        'find . -name memory -exec rm -rf {} \\;',
        "find . -type d -name 'mem*' -execdir rm -rf {} +",
        "find . -iname 'MEMORY' -exec rm -r {} +",
        "find . -maxdepth 1 -name 'mem*' | xargs rm -rf",
        "find . -maxdepth 1 -name 'mem*' -print0 | xargs -0 rm -rf",
        'find . -name zzz -o -print | xargs rm -rf',
        'find memory | xargs rm -f',
      ],
      'deny',
    );
    await expectShell(
      w,
      ["find . -name '*.o' -exec rm {} +", "find . -name '*.o' | xargs rm -f", "find . -name '*.md' | xargs grep TODO", "find . -name '*.md' | xargs", 'find memory/scratch -name tmp.txt -delete'],
      'allow',
    );
  });
});

describe('xargs is given what echo and printf print', () => {
  it('reads escapes, conversions and separators as the producer and xargs will', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        'echo memory | xargs rm -rf',
        'echo memory | xargs -I{} rm -rf {}',
        "printf '%s\\n' memory | xargs rm -rf",
        "printf 'mem%s\\n' ory | xargs rm -rf",
        "printf 'memory\\0' | xargs -0 rm -rf",
        "printf 'b.txt\\0memory' | xargs --null rm -rf",
        "printf 'memory\\n' | xargs -d '\\n' rm -rf",
        "printf '%.6s' memoryXYZ | xargs rm -rf",
        "printf '%b' 'mem\\0157ry' | xargs rm -rf",
        "echo -e 'x\\nmemory' | xargs rm -rf",
        "printf 'rm\\0-rf\\0memory' | xargs -0 env",
        'echo rm -rf memory | xargs sudo',
        "printf '%d\\n' 1 2 | xargs rm -rf",
        'printf memory | xargs -a list.txt rm -rf',
        'printf src | xargs -0a list.txt rm -rf',
        'printf src | xargs --arg=list.txt rm -rf',
        "printf 'src,memory' | xargs --delim=, rm -rf",
      ],
      'deny',
    );
    await expectShell(
      w,
      ['echo src | xargs rm -rf', "printf '%s\\n' src/a.ts src/b.ts | xargs rm -f", 'echo a b c | xargs -n1 echo', 'echo memory | xargs ls', "printf 'memory\\0' | xargs -0 du -sh"],
      'allow',
    );
  });

  it('reads the script printf prints into a shell', async () => {
    const w = await attackWorld();
    await expectShell(w, ["printf 'rm -rf memo%sy\\n' r | sh", "printf 'rm -rf %s' memory | bash", "printf 'rm -f memory/handoff-main-auth-\\x72efactor.md' | sh"], 'deny');
    await expectShell(w, ["printf 'ls %s\\n' memory | sh", "printf 'echo %s' hi | bash"], 'allow');
  });
});
