// src/guard/rules/git-files.ts against an attacker: index plumbing that writes the work tree is judged by the paths it
// will write, through every client's shape (in-process) and the real sh front.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';

const THEIR = 'memory/handoff-main-auth-refactor.md';
const BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

describe('1. index plumbing that writes the work tree', () => {
  it('is judged by the paths it will write', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `git update-index --add --cacheinfo 100644,${BLOB},${THEIR} && git checkout-index -f -a`,
        `git update-index --cacheinfo 100644 ${BLOB} ${THEIR}`,
        `git update-index --cacheinfo 100644,${BLOB},$REPO/${THEIR}`,
        `git update-index --cacheinfo 100644,${BLOB},.claude/settings.json; git checkout-index -af`,
        `git update-index --index-info < $EMPTY/list && git checkout-index --force --all`,
        'git read-tree -u -m HEAD~1',
        'git read-tree -mu HEAD',
        'git stash apply stash@{1}',
        "git stash pop 'stash@{1}'",
        'git update-index --index-info < $EMPTY/list',
      ],
      'deny',
    );
    await expectShell5(w, ['git checkout-index -a', 'git checkout-index -f -a', `git update-index --cacheinfo 100644,${BLOB},src/new.ts`, 'git update-index --add src/a.ts', 'git read-tree HEAD', 'git stash pop', 'git stash list', 'git checkout-index -f src/a.ts'], 'allow');
  });
});
