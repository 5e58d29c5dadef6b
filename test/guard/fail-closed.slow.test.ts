// src/guard/fail-closed.ts against an attacker, through the real `git-handoff guard`: the classifier is total, and
// what it cannot decide is refused when it names protected things.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, denial, readLog, withHandoff } from './helpers';

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
