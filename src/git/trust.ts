// git's safe.directory rule (git 2.35.2+): a repository owned by another user is refused unless the user's global
// or system configuration (never the repository's own) lists it. git-handoff's guard follows the same rule.
import { realpathOr, statOr } from '../read-file';
import { git } from './run';

/** The uid git compares owners with: the effective uid, or SUDO_UID for root under sudo (as git does). */
function expectedOwner(env: NodeJS.ProcessEnv): number | null {
  const uid = process.geteuid?.();
  if (uid === undefined) return null;
  if (uid === 0 && env.SUDO_UID && /^\d+$/.test(env.SUDO_UID)) return Number(env.SUDO_UID);
  return uid;
}

/** Whether git would work in this repository: its worktree and git directory are this user's, or safe.directory lists it. */
export function trustedRepository(worktree: string, gitDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const uid = expectedOwner(env);
  if (uid === null) return true; // no owners to compare (Windows): git's own check differs there
  const owners = [statOr(worktree)?.uid, statOr(gitDir)?.uid];
  if (owners.every((o) => o === undefined || o === uid)) return true;
  return listedSafe(worktree, env);
}

/** safe.directory values from the configuration git trusts for this (system, global, command line), as git reads them. */
function listedSafe(worktree: string, env: NodeJS.ProcessEnv): boolean {
  // run outside any repository, so the repository's own configuration is never read
  let r;
  try {
    r = git(['config', '--get-all', 'safe.directory'], { cwd: '/', env: { ...env, GIT_DIR: '/nonexistent-git-handoff' }, allowFail: true });
  } catch {
    return false;
  }
  if (r.status !== 0) return false;
  const real = realpathOr(worktree);
  // a later empty value resets the list, as in git
  const values = r.stdout.split('\n').slice(0, -1);
  const from = values.lastIndexOf('');
  return values.slice(from + 1).some((v) => v === '*' || v === worktree || v === real || v.replace(/\/+$/, '') === real);
}
