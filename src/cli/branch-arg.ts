// `write --branch`: a name git allows for a branch, and one this clone knows (here or on a remote), else a typo
// ("did you mean main?") refused unless --new-branch says the branch is still to come.
import { HandoffError } from '../errors';
import { isBranchName, knownBranchNames, listRefs } from '../git/refs';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, encodeBranch } from '../handoff/store/names';
import { resolveBranch } from '../handoff/store/store';
import { suggest } from './argv';

/** Checks `--branch` for a write; returns the warning to print when it names a branch nobody has yet (null: none). */
export function checkWriteBranch(repo: Repo, flag: string | undefined, newBranch: boolean | undefined): string | null {
  if (flag === undefined) {
    if (newBranch) throw new HandoffError('usage', 'new-branch-without-branch', '--new-branch goes with --branch <name> (the branch still to be created)');
    return null;
  }
  const branch = resolveBranch(repo, flag);
  if (!isBranchName(repo, branch)) {
    throw new HandoffError(
      'usage',
      'invalid-branch',
      `--branch ${JSON.stringify(flag)}: git does not allow this as a branch name (no spaces, "..", "~", "^", ":", "?", "*", "[", "\\\\" or "@{"; ` +
        `no part starting with "." or ending in ".lock"; no "/" at either end or twice in a row; see \`git check-ref-format --help\`); nothing was written`,
      { branch },
    );
  }
  const names = knownBranchNames(repo);
  if (names.has(branch)) return null;
  // handoffs already kept for it (a branch deleted or not fetched yet): it is meant
  const enc = encodeBranch(branch);
  if (listRefs(repo, [`${HANDOFF_PREFIX}${enc}/`, `${ARCHIVE_PREFIX}${enc}/`]).length) return null;
  if (newBranch) return null;
  const near = suggest(branch, [...names]);
  if (near) {
    throw new HandoffError(
      'usage',
      'unknown-branch',
      `no branch ${branch} here or on a remote; did you mean ${near}? (--branch ${near}; for a branch you will create, add --new-branch); nothing was written`,
      { branch, suggestion: near },
    );
  }
  return `no branch ${branch} here or on a remote yet: no session is shown this handoff until one checks it out (--new-branch says that is meant)`;
}
