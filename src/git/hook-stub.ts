// What marks git-handoff's own hook stub (git-hooks/stub.sh), the hook it chains and the names the stub and its
// handlers share: hooks/install.ts writes them, the store's own moves ask whether the stub alone would run.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { readTextOr, statOr } from '../read-file';
import { configValue } from './config-values';
import type { Config, Storage } from './storage';

/** The hooks git-handoff installs a stub for. */
export const HOOK_NAMES = ['prepare-commit-msg', 'commit-msg', 'pre-commit', 'pre-push', 'reference-transaction'] as const;

/** The stub's second line (git-hooks/stub.sh): a hook file holding it is ours. */
const STUB_MARKER = '# git-handoff hook stub.';
/** What this build's stub passes after git's arguments to `git-handoff githook` (an older stub passes none). */
export const STUB_FORMAT = 2;
export const STUB_ARG_PREFIX = '--handoff-stub=';
export const STUB_ARG = `${STUB_ARG_PREFIX}${STUB_FORMAT}`;
/** The name (+ the session) of the copy of a message prepare-commit-msg's handler judged whole, beside the message file (src/hooks/commit.ts decidedCopy). */
export const DECIDED_PREFIX = 'handoff-decided-msg.';
/** The hook that was there before install, kept beside the stub under this suffix and run by it. */
export const CHAINED_SUFFIX = '.handoff-chained';

/** Whether the file at `p` (symlinks followed) is a git-handoff stub: a regular file holding the marker. */
export const isStub = (p: string): boolean => !!statOr(p)?.isFile() && !!readTextOr(p)?.includes(STUB_MARKER);

/** The git-handoff stubs a hooks directory holds, by hook name. */
export const stubsIn = (dir: string): string[] => HOOK_NAMES.filter((n) => isStub(path.join(dir, n)));

/** Whether a hooks directory holds a git-handoff stub at all: the first one found ends the look (one file read, where stubsIn reads each). */
export const holdsStub = (dir: string): boolean => HOOK_NAMES.some((n) => isStub(path.join(dir, n)));

/** Whether the hook `name` git runs here is git-handoff's stub and nothing else (no core.hooksPath, no chained hook). */
export function ownStubAlone(repo: Pick<Storage, 'commonDir'>, config: Config, name: string): boolean {
  if (configValue(config, 'core.hooksPath') !== undefined) return false;
  const hook = path.join(repo.commonDir, 'hooks', name);
  try {
    // not through a symlink: the file itself, and nothing at all beside it under the chained name
    return lstatSync(hook).isFile() && isStub(hook) && !lstatSync(hook + CHAINED_SUFFIX, { throwIfNoEntry: false });
  } catch {
    return false;
  }
}

/** The folder git takes hooks from, without starting git: core.hooksPath resolved as git 2.39 does, else hooks/. */
export function hooksDirIn(loc: { worktree: string; commonDir: string }, config: Config, home: string): string {
  const set = configValue(config, 'core.hooksPath');
  if (set === undefined) return path.join(loc.commonDir, 'hooks');
  const expanded = set === '~' || set.startsWith('~/') ? home + set.slice(1) : set;
  return path.resolve(loc.worktree, expanded);
}
