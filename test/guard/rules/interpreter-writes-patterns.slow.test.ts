// src/guard/rules/interpreter-writes.ts against an attacker: a pattern in an interpreter's code (python glob, perl
// glob, ruby Dir[], ** at any depth) names what it matches. Each refused through every client's shape and the real sh
// front, the look-alikes allowed.
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from '../spellings';

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
