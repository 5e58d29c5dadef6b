// src/guard/rules/untracked.ts against an attacker: untracked files of the perimeter swept by git (clean -x, stash
// --all of an ignored settings.local.json wiring the guard) are refused with the safe command.
import { describe, it } from 'vitest';
import { CLAUDE_SETTINGS, expectShell5, world5 } from '../world-wired';

describe('untracked files of the perimeter swept by git (a later round)', () => {
  it('git clean -x and stash --all of an ignored settings.local.json wiring the guard are refused, with the safe command', async () => {
    const w = await world5();
    w.repo.write('.gitignore', '.claude/settings.local.json\n');
    w.repo.write('.claude/settings.local.json', CLAUDE_SETTINGS);
    await expectShell5(w, ['git clean -fdx', 'git clean -ffdx', 'git clean -fdX', 'git clean -fX .claude', 'git stash --all', 'git stash push -a'], 'deny');
    await expectShell5(w, ['git clean -fd', 'git clean -fdx -e /.claude/settings.local.json', 'git clean -ndx', 'git stash -u', 'git clean -fdx src'], 'allow');
  });
});
