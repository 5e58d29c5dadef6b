// src/guard/rules/untracked.ts against an attacker: git clean through another work tree (--git-dir/--work-tree) or
// without -f (clean.requireForce=false), refused through every client's shape and the real sh front.
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from '../spellings';

describe('git clean through another work tree, or without -f', () => {
  it('refuses git clean with --git-dir/--work-tree or clean.requireForce=false', async () => {
    const w = await attackWorld();
    await expectShell(w, ['git --git-dir=.git --work-tree=. clean -fdx', 'GIT_DIR=.git git clean -fdx', 'git --work-tree=memory clean -fx', 'git -c clean.requireForce=false clean -dx', 'git clean -d -x'], 'deny');
    await expectShell(w, ['git clean -n -dx', 'git clean -fdx -e memory/', 'git --git-dir=.git --work-tree=. clean -n'], 'allow');
  });
});
