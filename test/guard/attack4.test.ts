// Issue 24, a fourth pass at the guard: what find, xargs and interpreters take once their input is read as they read
// it. A directory a find -name matches goes whole when its action is a command (`-exec rm -rf {} +`) or its list is
// piped into xargs; the words echo and printf print (escapes, conversions, NUL-separated) are the arguments xargs
// appends, and the script a shell reads; a pattern in an interpreter's code (`glob.glob('memory/h*')`) names what it
// matches. Each spelling was let through by the build before (main at 2e742ca) and is refused now through every
// client's shape and the real sh front; the look-alikes stay allowed.
import { describe, expect, it } from 'vitest';
import { attackWorld, expectShell, inProcess, throughFront } from './attack3-helpers';
import { payload } from './helpers';

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

describe('a pattern in an interpreter’s code names what it matches', () => {
  it('python glob, perl glob, ruby Dir[], ** at any depth', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        `python3 -c "import os,glob; [os.remove(p) for p in glob.glob('memory/h*')]"`,
        `python3 -c "import glob,os; [os.remove(f) for f in glob.glob('memory/handoff-*.md')]"`,
        `python3 -c "import glob,os; [os.remove(f) for f in glob.glob('**/handoff-*.md', recursive=True)]"`,
        `python3 -c "import shutil; shutil.rmtree('mem*')"`,
        `perl -e 'unlink glob "memory/*.md"'`,
        `ruby -e 'File.delete(*Dir["memory/*"])'`,
        `ruby -e 'require "fileutils"; FileUtils.rm_rf(Dir.glob("mem*"))'`,
      ],
      'deny',
    );
    await expectShell(
      w,
      [
        `python3 -c "import glob,os; [os.remove(f) for f in glob.glob('**/*.pyc', recursive=True)]"`,
        `python3 -c "print('*' * 10); open('out.txt','w').write('x')"`,
        `perl -e 'print glob "memory/*.md"'`,
        `python3 -c "import re; print(re.sub('a.*b', '', 'x'))"`,
      ],
      'allow',
    );
  });
});

describe('git’s object store, and second names for a whole tree', () => {
  it('refuses a write or removal under .git/objects and cp -l of a directory holding handoff files', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      ['rm -rf .git/objects/pack', 'rm -rf .git/objects', 'echo /tmp/x > .git/objects/info/alternates', 'cd .git && rm -rf objects', 'cp -al memory $EMPTY/m', 'cp -lR memory $EMPTY/m', 'cp --link --recursive memory $EMPTY/m'],
      'deny',
    );
    await expectShell(w, ['rm .git/index.lock', 'echo build/ >> .git/info/exclude', 'ls .git/objects', 'du -sh .git/objects', 'cp -a memory $EMPTY/backup', 'cp -al memory/scratch $EMPTY/s'], 'allow');
  });
});

describe('a tool in a shape the guard does not know, given a directory or a pattern', () => {
  it('judges what a pattern matches, the handoff files in a directory, and every one under it for a tool that deletes or moves', async () => {
    const w = await attackWorld();
    const call = (tool: string, input: Record<string, unknown>) => payload(w.repo, 'claude-code/pre-tool-use-write.json', { tool_name: tool, tool_input: input });
    const cases: Array<[string, Record<string, unknown>, 'deny' | 'allow']> = [
      ['mcp__fs__delete_directory', { dir: 'memory', recursive: true }, 'deny'],
      ['mcp__fs__delete', { path: '.' }, 'deny'],
      ['mcp__fs__move_file', { source: 'memory', destination: '/tmp/elsewhere' }, 'deny'],
      ['mcp__fs__delete', { pattern: 'memory/h*' }, 'deny'],
      ['mcp__notes__save', { target: { dir: 'memory' }, text: 'x' }, 'deny'],
      ['mcp__serena__list_dir', { relative_path: '.' }, 'allow'],
      ['mcp__fs__create_directory', { path: 'memory/scratch/new' }, 'allow'],
      ['mcp__fs__delete', { path: 'memory/scratch/tmp.txt' }, 'allow'],
      ['mcp__fs__delete_directory', { dir: 'memory/scratch' }, 'allow'],
    ];
    const wrong: string[] = [];
    for (const [i, [tool, input, expected]] of cases.entries()) {
      const p = call(tool, input);
      const r = await inProcess('claude-code', p);
      if (r.verdict !== expected) wrong.push(`in-process ${tool} ${JSON.stringify(input)}: ${r.verdict}`);
      if (i % 2 === 0) {
        const f = throughFront(w.repo, 'claude-code', p);
        if (f.verdict !== expected) wrong.push(`front ${tool} ${JSON.stringify(input)}: ${f.verdict}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
