// src/guard/fail-closed.ts against an attacker, through the real `git-handoff guard`: the classifier is total, and
// what it cannot decide is refused when it names protected things.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, denial, readLog, withHandoff } from './helpers';
import { MAX_COMMAND, namesProtected } from '../../src/guard/fail-closed';

const REF = 'refs/handoffs/main/auth-refactor';

describe('the classifier is total; what it cannot decide is refused when it names protected things (4)', () => {
  it('a rule that cannot read one command no longer lets the rest of the line through', async () => {
    const repo = await withHandoff();
    // a worktree whose .git names a missing git directory
    const broken = path.join(repo.dir, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, '.git'), 'gitdir: /nonexistent/gitdir\n');
    for (const command of [
      `git -C broken reset 2>/dev/null; git update-ref ${REF} HEAD`,
      `git -C broken reset --hard HEAD~1 2>/dev/null; git update-ref -d ${REF}`,
      `git add 'x[' 2>/dev/null; git update-ref -d ${REF}`,
      `find . -name 'a[' -delete; git update-ref -d ${REF}`,
      `git -C "$(printf broken)" rebase x; git push -f origin ${REF}`,
    ]) {
      expect(denial(await bash(repo, command)), command).toMatch(/handoff ref/);
    }
    expect(readLog(repo)).not.toMatch(/internal error/);
    // and a harmless command in the broken directory alone is allowed
    expect(await bash(repo, 'git -C broken status')).toMatchObject({ exitCode: 0, stdout: '' });
  });
});

describe("what the guard cannot read is refused when it could reach a client's settings or git's configuration (8)", () => {
  it('a command past the reading bound, a payload past the path bound, naming those', async () => {
    const repo = await withHandoff();
    const pad = `; true ${'x'.repeat(MAX_COMMAND)}`;
    for (const target of ['.claude/settings.json', '~/.gitconfig', '$HOME/.config/git/config', '.gemini/settings.json', '.codex/hooks.json']) {
      expect(denial(await bash(repo, `echo '{}' > ${target}${pad}`)), target).toMatch(/could not check this call/);
    }
    expect(await bash(repo, `echo hi > notes.txt${pad}`)).toMatchObject({ exitCode: 0, stdout: '' });
    // a tool the guard does not know, past its bound of paths, whose paths name those
    for (const p of ['~/.gitconfig', `${repo.dir}/.claude/settings.json`, 'file:///x/y', '$HOME/x']) {
      expect(namesProtected({ type: 'paths', paths: [p], over: 'x' }), p).toBe(true);
      expect(namesProtected({ type: 'write', path: p, content: '' }), p).toBe(true);
    }
    expect(namesProtected({ type: 'patch', patch: '*** Begin Patch\r\n  *** Update File:  .claude/settings.json\r\n', cwd: null })).toBe(true);
    expect(namesProtected({ type: 'write', path: 'src/a.ts', content: '' })).toBe(false);
  });
});
