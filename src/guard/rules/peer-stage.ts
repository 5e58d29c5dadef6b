// Staging another live session's uncommitted file by name (`git add <it>`, `git commit [-i|-o] <it>`) is refused before
// anything is staged, by the shared checkout rule (./shared.ts, which also takes the broad forms): this module only
// says which named paths are another session's.
import path from 'node:path';
import { worktreeActivity } from '../../handoff/state/ledger';
import type { Location } from '../locate';
import type { SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';
import { stagedPaths, type Sweep } from './shared';

/**
 * The sweep of a `git add` or `git commit` that names a path another session's unreleased claim in this worktree covers
 * (from the ledger alone: no git starts for any other add or commit), or null: a dry run, no such path, any other verb.
 */
export function namedStageSweep(inv: GitInvocation, cmd: SimpleCommand, eventCwd: string, loc: Location, me: string | null): Sweep | null {
  const paths = stagedPaths(inv);
  if (paths.length === 0) return null;
  const dir = inv.cwd ?? cmd.cwd ?? eventCwd;
  const theirs = new Set([...worktreeActivity(loc.commonDir, loc.worktree).values()].filter((a) => a.session !== me && !a.released).flatMap((a) => a.paths));
  const named = paths.map((p) => path.relative(loc.worktree, path.resolve(dir, p)).split(path.sep).join('/'));
  if (!named.some((p) => theirs.has(p))) return null;
  return { verb: inv.sub === 'commit' ? 'commit' : 'add', kind: 'sweep', pathspecs: paths, scope: inv.sub === 'commit' ? 'tracked' : 'all', dir };
}
