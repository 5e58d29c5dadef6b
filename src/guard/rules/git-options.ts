// The one table of git's options per verb: which take a value (the next word, or the rest of a short cluster), so
// that every rule reads a git command's operands and flags as git's own parser does.
import { options } from '../shell/options';
import type { GitInvocation } from '../shell/git';

const FETCH = ['--upload-pack', '--depth', '--deepen', '--shallow-since', '--shallow-exclude', '-j', '--jobs', '--negotiation-tip', '--refmap', '-o', '--server-option', '--filter', '--recurse-submodules-default'];
const PUSH = ['--repo', '-o', '--push-option', '--receive-pack', '--exec'];
const APPLY = ['-p', '-C', '--directory', '--exclude', '--include', '--build-fake-ancestor', '--whitespace', '--patch-format', '--resolvemsg'];
const LISTING = ['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format'];

/** Per verb, the options that take a value. */
const VALUED: Record<string, string[]> = {
  add: ['--chmod', '--pathspec-from-file'],
  commit: ['-m', '--message', '-F', '--file', '-C', '--reuse-message', '-c', '--reedit-message', '--author', '--date', '-t', '--template', '--fixup', '--squash', '--cleanup', '--trailer', '--pathspec-from-file'],
  stash: ['-m', '--message', '--pathspec-from-file'],
  checkout: ['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file'],
  switch: ['-c', '--create', '-C', '--force-create', '--orphan', '--conflict'],
  restore: ['-s', '--source', '--pathspec-from-file', '--conflict'],
  reset: ['--pathspec-from-file'],
  rm: ['--pathspec-from-file'],
  'read-tree': ['--prefix', '--exclude-per-directory', '--index-output'],
  'checkout-index': ['--prefix', '--stage'],
  clean: ['-e', '--exclude'],
  rebase: ['--onto', '-s', '--strategy', '-X', '--strategy-option', '-x', '--exec', '--empty', '-C', '--whitespace'],
  'update-ref': ['-m'],
  'commit-tree': ['-m', '-F', '-p'],
  'hash-object': ['-t', '--path'],
  'symbolic-ref': ['-m'],
  push: PUSH,
  'send-pack': PUSH,
  fetch: FETCH,
  pull: [...FETCH, '-s', '--strategy', '-X', '--strategy-option'],
  branch: ['-u', '--set-upstream-to', ...LISTING],
  tag: ['-m', '--message', '-F', '--file', '-u', '--local-user', '--cleanup', '--trailer', ...LISTING],
  remote: ['-t', '-m'],
  notes: ['--ref', '-m', '-F', '-C', '-c', '--strategy', '-s'],
  replace: ['--format'],
  config: ['-f', '--file', '--blob', '--type', '--default', '--comment', '--value', '--url'],
  init: ['--separate-git-dir', '--template', '--object-format', '--ref-format', '--shared', '--initial-branch', '-b'],
  worktree: ['--reason', '--expire'],
  'merge-file': ['-L', '--marker-size'],
  bundle: ['--version'],
  archive: ['-o', '--output', '--prefix', '--format', '--remote', '--exec', '--add-file', '--add-virtual-file', '--mtime'],
  apply: APPLY,
  am: APPLY,
};

/** A git command's operands, option values and flags (short clusters split into letters), as its verb reads them. */
export const gitOptions = (inv: Pick<GitInvocation, 'sub' | 'args'>) => options(inv.args, VALUED[inv.sub] ?? []);

export type GitOptions = ReturnType<typeof gitOptions>;

/** The value-taking short letters of a verb (`mFCct` for commit). */
export const shortValued = (sub: string) => (VALUED[sub] ?? []).filter((o) => /^-[^-]$/.test(o)).map((o) => o[1]).join('');

/** The last value given to any of `names`. */
export const lastValue = (o: GitOptions, ...names: string[]): string | undefined => o.all(...names).pop();
