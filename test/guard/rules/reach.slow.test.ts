// src/guard/rules/reach.ts against an attacker: what a shell word reaches once expanded — a glob that matches a
// directory holding handoff files, bounds that refuse rather than cut (brace lists, depth, the decision's time budget),
// and files that share an inode with a handoff file (a hard link planted in one call and written through in the next).
// Several spellings each, through each client's payload shape in-process and a sample through the real
// `git-handoff guard`; beside each, look-alikes that must stay allowed.
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOREIGN_FILE, foreignWorld } from '../world';
import { denial, guard, OTHER, payload } from '../helpers';
import { expectAllNotCursor as expectAll, fileTool, realShell, shellNotCursor as shell } from '../verdicts';

describe('4. a recursive delete through a glob that matches a directory holding handoff files', () => {
  it('is judged on the handoff files under every directory the glob matches', async () => {
    const repo = await foreignWorld();
    mkdirSync(path.join(repo.dir, 'build'));
    await expectAll(repo, ['rm -rf memor?', 'rm -rf mem*', 'rm -r ./m[e]mory', 'rm -rf {memory,build}', 'find memo* -delete', 'rm -rf ./*', 'rm -rf */', `cd memory/.. && rm -rf me?ory`], 'deny');
    await expectAll(repo, ['rm -rf memory/scratch', 'rm -rf build*', 'rm -rf node_modules', 'rm -rf mem*/scratch'], 'allow');
    expect(denial(await realShell(repo, 'rm -rf memor?', 0))).toMatch(/belongs to session/);
  });
});

describe('5. bounds refuse, never cut', () => {
  it('a brace list past its bound and a handoff file deep in a tree are refused, not allowed on a cut list', async () => {
    const repo = await foreignWorld();
    // another session's handoff file eleven directories down: the old walk stopped at six
    const deep = path.join(repo.dir, 'deep', ...'abcdefghij'.split(''), 'memory');
    mkdirSync(deep, { recursive: true });
    writeFileSync(path.join(deep, 'handoff-main-deep-notes.md'), `<!-- claude-session: ${OTHER} -->\ndeep\n`);
    await expectAll(repo, ['rm -rf deep', `rm -rf x/${'{a,b}'.repeat(11)}`, `rm -f memory/${'{a,b}'.repeat(10)}handoff-main-auth-refactor.md`], 'deny');
    // a tree deeper than the walk's bound: refused as unreadable
    const deeper = path.join(repo.dir, 'deeper', ...Array.from({ length: 30 }, (_, i) => `d${i}`));
    mkdirSync(deeper, { recursive: true });
    const r = await shell(repo, 'rm -rf deeper');
    expect(r.verdict).toBe('deny');
    expect(r.reason).toMatch(/could not check this call \(.*nested more than/);
    await expectAll(repo, [`rm -rf build/{a,b,c,d,e,f,g,h}`, 'rm -rf deep/a/b/c/d/e/f/g/h/i/j/x'], 'allow');
  });
});

describe('6. a long or costly command line is decided within a budget well under the hook timeouts', () => {
  it('past the time budget a call that reaches the filesystem is refused; the same call with time is decided on its merits', async () => {
    const repo = await foreignWorld();
    const call = 'rm -rf memory/scratch';
    expect(denial(await realShell(repo, call, 0))).toBeNull();
    // a spent budget (set to nothing here) refuses instead of deciding on what was read so far
    expect(denial(await realShell(repo, call, 1, { GIT_HANDOFF_GUARD_DECISION_MS: '0' }))).toMatch(/could not check this call \(.*longer than 0 ms/);
    // a line of a thousand globbing deletes: decided (refused, it reaches their file) rather than left running
    const long = Array.from({ length: 1000 }, (_, i) => `rm -rf memor?/x${i}*`).join('; ') + '; rm -rf memor?';
    const started = Date.now();
    expect(denial(await realShell(repo, long, 2))).toMatch(/belongs to session|could not check this call/);
    // for the record (not asserted: timing varies by machine)
    console.log(`a 1000-command globbing line decided in ${Date.now() - started} ms`);
  });
});

describe('8. a hard link planted in one call cannot be written through in the next', () => {
  it('refuses making a hard link of a protected file, and writing through one planted past the guard', async () => {
    const repo = await foreignWorld();
    await expectAll(repo, [`ln ${FOREIGN_FILE} notes.txt`, `ln -f ${FOREIGN_FILE} notes.txt`, `cp -l ${FOREIGN_FILE} notes.txt`, `cp --link memory/handoff-main-auth-* x.md`, `ln -t src ${FOREIGN_FILE}`], 'deny');
    await expectAll(repo, [`ln -s ${FOREIGN_FILE} link.md`, 'ln README.md readme-link.md', `cp ${FOREIGN_FILE} /tmp/copy.md`], 'allow');
    linkSync(path.join(repo.dir, FOREIGN_FILE), path.join(repo.dir, 'planted.txt'));
    await expectAll(repo, ['echo hi > planted.txt', 'sed -i s/their/mine/ planted.txt', 'truncate -s 0 planted.txt', 'echo x >> plant?d.txt'], 'deny');
    expect(await fileTool(repo, 'planted.txt')).toEqual(['deny', 'deny', 'deny']);
    // a hard link of an ordinary file is written as usual
    writeFileSync(path.join(repo.dir, 'a.txt'), 'a\n');
    linkSync(path.join(repo.dir, 'a.txt'), path.join(repo.dir, 'b-link.txt'));
    await expectAll(repo, ['echo hi > b-link.txt'], 'allow');
    expect(await fileTool(repo, 'b-link.txt')).toEqual(['allow', 'allow', 'allow']);
    const real = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'planted.txt', content: 'x' } }));
    expect(denial(real)).toMatch(/belongs to session/);
  });
});
