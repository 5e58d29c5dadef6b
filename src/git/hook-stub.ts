// What marks git-handoff's own hook stub (git-hooks/stub.sh), the hook it chains and the names the stub and its
// handlers share, in one place: hooks/install.ts
// writes and recognises them, and a move of the store's own (src/handoff/store/tx, MoveOptions.own) asks whether the
// hook git would run for it is that stub alone.
import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { configValue } from './config-values';
import type { Config, Storage } from './storage';

/** The hooks git-handoff installs a stub for. */
export const HOOK_NAMES = ['prepare-commit-msg', 'commit-msg', 'pre-commit', 'pre-push', 'reference-transaction'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** The stub's second line (git-hooks/stub.sh): a hook file holding it is ours. */
export const STUB_MARKER = '# git-handoff hook stub.';
/**
 * What the stub of this build passes after git's arguments when it calls `git-handoff githook` (git-hooks/stub.sh):
 * a handler called without it was called by an older build's stub, which leaves to node less than this one does.
 */
export const STUB_FORMAT = 2;
export const STUB_ARG_PREFIX = '--handoff-stub=';
export const STUB_ARG = `${STUB_ARG_PREFIX}${STUB_FORMAT}`;
/** The name (+ the session) of the copy of a message prepare-commit-msg's handler judged whole, beside the message file (src/hooks/commit.ts decidedCopy). */
export const DECIDED_PREFIX = 'handoff-decided-msg.';
/** The hook that was there before install, kept beside the stub under this suffix and run by it. */
export const CHAINED_SUFFIX = '.handoff-chained';

/** Whether the file at `p` (symlinks followed) is a git-handoff stub: a regular file holding the marker. */
export function isStub(p: string): boolean {
  try {
    return statSync(p).isFile() && readFileSync(p, 'utf8').includes(STUB_MARKER);
  } catch {
    return false;
  }
}

/** The git-handoff stubs a hooks directory holds, by hook name. */
export const stubsIn = (dir: string): string[] => HOOK_NAMES.filter((n) => isStub(path.join(dir, n)));

/** Whether a hooks directory holds a git-handoff stub at all: the first one found ends the look (one file read, where stubsIn reads each). */
export const holdsStub = (dir: string): boolean => HOOK_NAMES.some((n) => isStub(path.join(dir, n)));

/**
 * Whether the hook `name` that git runs in this repository is git-handoff's stub and nothing else: no core.hooksPath
 * in `config` (git's answer, command-line configuration included: readConfig), so git looks in the common directory's
 * hooks/; the file there a regular file holding the stub's marker; nothing at all under the chained name beside it.
 * Anything else (no hook, another tool's, a chained one, a hooks path, a file that cannot be read) is false.
 */
export function ownStubAlone(repo: Pick<Storage, 'commonDir'>, config: Config, name: string): boolean {
  if (configValue(config, 'core.hooksPath') !== undefined) return false;
  const hook = path.join(repo.commonDir, 'hooks', name);
  try {
    // not through a symlink: the file itself
    if (!lstatSync(hook).isFile() || !isStub(hook)) return false;
  } catch {
    return false;
  }
  try {
    lstatSync(hook + CHAINED_SUFFIX);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * The folder git takes this repository's hooks from, read from a configuration read (readConfig) without starting
 * git: core.hooksPath (`~/` from the home, a relative path from the worktree's top, as git 2.39 resolves it), else the
 * common directory's hooks/.
 */
export function hooksDirIn(loc: { worktree: string; commonDir: string }, config: Config, home: string): string {
  const set = configValue(config, 'core.hooksPath');
  if (set === undefined) return path.join(loc.commonDir, 'hooks');
  const expanded = set === '~' || set.startsWith('~/') ? home + set.slice(1) : set;
  return path.resolve(loc.worktree, expanded);
}
