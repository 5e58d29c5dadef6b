// src/guard/rules/untracked.ts against an attacker: git verbs that delete untracked files (clean, stash -u/--all) are
// checked against another session's handoff file, refused with a safe command that works. Several spellings through
// each client's payload shape in-process and one through the real `git-handoff guard`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOREIGN_FILE, foreignWorld } from '../world';
import { denial, OTHER } from '../helpers';
import { expectAllNotCursor as expectAll, realShell, shellNotCursor as shell } from '../verdicts';

describe('3. git verbs that delete untracked files are checked against handoff files', () => {
  it('refuses git clean -f(d)(x) and git stash -u/--all over another session\'s untracked handoff file, with a safe command that works', async () => {
    const repo = await foreignWorld();
    await expectAll(repo, ['git clean -fdx', 'git clean -f -d -x', 'git clean -ffdx memory', 'git -C memory clean -fd', 'git stash -u', 'git stash push --include-untracked', 'git stash --all', 'git stash save -u wip', 'git stash -m wip -u', 'git stash -u -m pop', 'git stash -u -- memory'], 'deny');
    await expectAll(repo, ['git clean -n -fdx', 'git clean -fdx src', 'git clean -f', 'git stash', 'git stash list', 'git clean -fdx -e memory/'], 'allow');
    // the safe command the refusal gives keeps their file and cleans the rest
    writeFileSync(path.join(repo.dir, 'junk.tmp'), 'x');
    const { reason } = await shell(repo, 'git clean -fdx');
    const safe = reason.split('\n').find((l) => l.startsWith('git clean'))!;
    expect(safe).toMatch(/-e '\/memory\/handoff-main-auth-refactor\.md'/);
    execFileSync('sh', ['-c', safe], { cwd: repo.dir, env: repo.env });
    expect(existsSync(path.join(repo.dir, 'junk.tmp'))).toBe(false);
    expect(existsSync(path.join(repo.dir, FOREIGN_FILE))).toBe(true);
    expect(await shell(repo, safe)).toMatchObject({ verdict: 'allow' });
    // and the stash's
    writeFileSync(path.join(repo.dir, 'junk.tmp'), 'x');
    const stash = (await shell(repo, 'git stash -u')).reason.split('\n').find((l) => l.startsWith('git stash'))!;
    expect(await shell(repo, stash)).toMatchObject({ verdict: 'allow' });
    execFileSync('sh', ['-c', stash], { cwd: repo.dir, env: repo.env });
    expect(existsSync(path.join(repo.dir, 'junk.tmp'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, FOREIGN_FILE), 'utf8')).toContain(OTHER);
    expect(denial(await realShell(repo, 'git clean -fdx', 2))).toMatch(/untracked and not yours/);
  });
});
