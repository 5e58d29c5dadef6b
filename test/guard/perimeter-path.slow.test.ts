// src/guard/path-programs.ts in the perimeter (issue 70, class 4): a file put on PATH ahead of a program the wiring,
// the front or the hooks run by name is refused through every client's shape in-process and the real sh front;
// another program there, and the name behind the folder where the program is found, pass.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectShell5, expectWrite5, world5, WRITES5 } from './world-wired';
import { throughFront } from './spellings';
import { foreignWorld } from './world';
import { payload } from './helpers';
import { asClient } from './rules/helpers';

describe('a program found by PATH, put ahead of where it is found', () => {
  it('a write or copy of the front, node or git in a folder first on PATH is refused; another program there passes', async () => {
    const w = await world5();
    const bin = path.join(w.home, '.local', 'bin');
    mkdirSync(bin, { recursive: true });
    w.repo.env.PATH = `${bin}${path.delimiter}${w.repo.env.PATH ?? process.env.PATH}`;
    // a folder of the worktree on PATH: the front hands a write there to node
    const tools = path.join(w.repo.dir, 'tools');
    mkdirSync(tools);
    w.repo.env.PATH = `${tools}${path.delimiter}${w.repo.env.PATH ?? process.env.PATH}`;
    await expectWrite5(
      w,
      [
        [`${bin}/git-handoff-front-split`, 'exit 0\n'],
        [`${bin}/node`, '#!/bin/sh\nexit 0\n'],
        [`${bin}/git-handoff-guard`, 'exit 0\n'],
        [`${bin}/git`, '#!/bin/sh\nexit 0\n'],
        [`${bin}/git-handoff-front`, 'exit 0\n'],
        [`${tools}/node`, '#!/bin/sh\nexit 0\n'],
        ['tools/git-handoff-front-split', 'exit 0\n'],
      ],
      'deny',
    );
    await expectShell5(
      w,
      [
        `cp /bin/true ${bin}/git-handoff-front-split`,
        `printf 'exit 0' > ${bin}/node`,
        `echo 'exit 0' > ~/.local/bin/git-handoff-front`,
        `ln -s /bin/true ${bin}/git`,
        `mv $EMPTY/out ${bin}/git-handoff-guard`,
        `cp /bin/true tools/node`,
        `chmod +x ${bin}/node`,
      ],
      'deny',
    );
    expect(asClient(w, `cp /bin/true ${bin}/git-handoff-front-split`).verdict).toBe('deny');
    expect(existsSync(path.join(bin, 'git-handoff-front-split'))).toBe(false);
    await expectWrite5(w, [[`${bin}/mytool`, '#!/bin/sh\necho hi\n'], ['tools/mytool', 'echo hi\n']], 'allow');
    // through the real sh front in Claude Code's shape, in the worktree's folder on PATH
    const claude = (file: string) => throughFront(w.repo, 'claude-code', WRITES5[0].make(w.repo, file, 'exit 0\n'));
    expect(claude(`${tools}/mytool`).verdict).toBe('allow');
    expect(claude(`${tools}/node`).verdict).toBe('deny');
    expect(claude(`${tools}/git-handoff-front-split`).verdict).toBe('deny');
    await expectShell5(w, [`cp /bin/true ${bin}/mytool`, `printf 'echo hi' > ${bin}/mytool && chmod +x ${bin}/mytool`], 'allow');
  });

  it('behind the folder where a program is found, its name is an ordinary file', async () => {
    const w = await world5();
    const first = path.join(w.empty, 'first');
    const later = path.join(w.empty, 'later');
    mkdirSync(first);
    mkdirSync(later);
    writeFileSync(path.join(first, 'cmp'), '#!/bin/sh\n');
    chmodSync(path.join(first, 'cmp'), 0o755);
    w.repo.env.PATH = `${first}${path.delimiter}${w.repo.env.PATH ?? process.env.PATH}${path.delimiter}${later}`;
    await expectWrite5(w, [[`${first}/cmp`, '#!/bin/sh\nexit 0\n']], 'deny');
    await expectWrite5(w, [[`${later}/cmp`, '#!/bin/sh\n']], 'allow');
  });

  it('the sh front hands a write of such a name in the worktree to node, where it answers an ordinary file itself', async () => {
    const repo = await foreignWorld();
    mkdirSync(path.join(repo.dir, 'tools'));
    mkdirSync(path.join(repo.dir, 'src'));
    repo.env.PATH = `${path.join(repo.dir, 'tools')}${path.delimiter}${repo.env.PATH ?? process.env.PATH}`;
    const write = (f: string) => throughFront(repo, 'claude-code', payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, f), content: 'exit 0\n' } }));
    // the first call makes the session known here (node's), after which the front answers plain files alone
    expect(write('src/app.ts').verdict).toBe('allow');
    expect(write('tools/mytool').verdict).toBe('allow');
    for (const name of ['node', 'git-handoff-front-split', 'git', 'stat']) expect(write(`tools/${name}`).verdict, name).toBe('deny');
  });
});
