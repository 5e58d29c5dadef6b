// What a git verb does to the worktree's uncommitted state, decided without git: the one table every rule reads
// (the shared checkout's sweeps, the files git writes, what an earlier step's index change loses, the untracked files
// clean and stash take, the commit the worktree moves to).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { optionValue, options } from '../shell/options';
import type { GitInvocation } from '../shell/git';

/** Which uncommitted paths a command can take or destroy. */
export type Scope = 'all' | 'tracked' | 'untracked';

export interface WorktreeEffect {
  verb: string;
  /**
   * stage: into the index or a commit (the worktree keeps it); discard: made to match the index, HEAD, a tree or a
   * stash (changes lost, or stashed away); remove: the files leave the worktree; switch: the worktree goes to another
   * commit, carrying its changes (`force`: throwing them away); apply: another commit's or a stash's changes written in
   */
  kind: 'stage' | 'discard' | 'remove' | 'switch' | 'apply';
  scope: Scope;
  /** pathspecs relative to `dir`; null: the whole worktree */
  pathspecs: string[] | null;
  /** the directory the pathspecs are relative to */
  dir: string;
  /** switch and reset: the commit it goes to; a branch it creates */
  target?: string | null;
  create?: string | null;
  /** discard, apply: the commit, tree or stash the files come from (absent: the index or HEAD) */
  source?: string;
  force?: boolean;
  /** mv: where the sources go */
  into?: string;
}

type Options = ReturnType<typeof options>;

/** Whether flag `letter` (alone or in a short group) or one of the `long` options is given. */
function has(o: Options, letter: string | null, ...long: string[]): boolean {
  return (letter !== null && o.flags.includes(`-${letter}`)) || long.some((l) => o.values.has(l) || o.flags.some((f) => f.split('=')[0] === l));
}

/** A pathspec that reaches more than the one file it names: a directory, a pattern, magic. */
export const isBroad = (p: string, dir: string) => {
  if (p === '.' || p === '..' || p.endsWith('/') || /[*?[]/.test(p) || p.startsWith(':')) return true;
  try {
    return statSync(path.resolve(dir, p)).isDirectory();
  } catch {
    return false;
  }
};

const ADD_VALUED = ['--chmod', '--pathspec-from-file'];
const COMMIT_VALUED = ['-m', '--message', '-F', '--file', '-C', '--reuse-message', '-c', '--reedit-message', '--author', '--date', '-t', '--template', '--fixup', '--squash', '--cleanup', '--trailer', '--pathspec-from-file'];
const STASH_VERBS = new Set(['list', 'show', 'drop', 'pop', 'apply', 'branch', 'clear', 'create', 'store', 'push', 'save']);
/** Verbs that write another commit's changes into the worktree (git refuses where they would overwrite local changes). */
const APPLYING = ['am', 'merge', 'cherry-pick', 'revert', 'pull', 'rebase'];

type Row = (a: string[], dir: string, branch: string | null) => Omit<WorktreeEffect, 'verb' | 'dir'> | null;
const whole = (kind: WorktreeEffect['kind'], scope: Scope = 'tracked') => ({ kind, scope, pathspecs: null });
/** The named pathspecs (none: nothing), or the whole worktree when they come from a file the guard does not see. */
const named = (kind: WorktreeEffect['kind'], o: Options, scope: Scope = 'tracked') =>
  has(o, null, '--pathspec-from-file') ? whole(kind, scope) : o.operands.length ? { kind, scope, pathspecs: o.operands } : null;

/** The switch to `target` (and a branch it creates); staying on `branch` is nothing, or a discard when forced. */
function switchTo(target: string | undefined, create: string | undefined, branch: string | null, force: boolean, detach = false) {
  const moves = { kind: 'switch', scope: 'all', pathspecs: null, force } as const;
  if (create !== undefined) return { ...moves, target: target ?? null, create };
  if (target === undefined || (target === branch && !detach)) return force ? whole('discard') : null;
  return { ...moves, target };
}

const VERBS: Record<string, Row> = {
  add: (a) => {
    const o = options(a, ADD_VALUED);
    if (has(o, 'n', '--dry-run')) return null;
    if (has(o, null, '--pathspec-from-file')) return whole('stage', 'all');
    const all = has(o, 'A', '--all', '--no-ignore-removal');
    const scope = has(o, 'u', '--update') && !all ? 'tracked' : 'all';
    if (o.operands.length) return { kind: 'stage', scope, pathspecs: o.operands };
    return all || scope === 'tracked' ? whole('stage', scope) : null;
  },
  commit: (a) => {
    const o = options(a, COMMIT_VALUED);
    if (has(o, null, '--dry-run')) return null;
    return has(o, 'a', '--all') ? whole('stage') : named('stage', o);
  },
  stash: (a) => {
    const first = options(a, ['-m', '--message', '--pathspec-from-file']);
    const verb = first.dashdash === 0 || !STASH_VERBS.has(first.operands[0]) ? 'push' : first.operands[0];
    const stash = first.operands[verb === 'branch' ? 2 : 1] ?? 'stash@{0}';
    if (/^(apply|pop|branch)$/.test(verb)) return { ...whole('apply', 'all'), source: stash };
    if (verb !== 'push' && verb !== 'save') return null;
    const o = verb === first.operands[0] ? options(a.slice(a.indexOf(verb) + 1), ['-m', '--message', '--pathspec-from-file']) : first;
    const scope = has(o, 'a', '--all') || has(o, 'u', '--include-untracked') ? 'all' : 'tracked';
    // `save` takes a message, not paths
    return (verb === 'push' && named('discard', o, scope)) || whole('discard', scope);
  },
  checkout: (a, dir, branch) => {
    const o = options(a, ['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file']);
    const force = has(o, 'f', '--force');
    const create = optionValue(a, ['-b', '-B', '--orphan']);
    if (create !== undefined) return switchTo(o.operands[0], create, branch, force);
    if (has(o, null, '--pathspec-from-file')) return whole('discard');
    // `checkout [<tree-ish>] -- <paths>`
    if (o.dashdash >= 0) {
      const source = o.dashdash > 0 ? o.operands[0] : undefined;
      return o.operands.length > o.dashdash ? { kind: 'discard', scope: 'tracked', pathspecs: o.operands.slice(o.dashdash), source } : null;
    }
    const [first, ...rest] = o.operands;
    // git reads the first word as a revision unless it names a path; so do we, by looking at the worktree (a lone
    // path may still be a commit the worktree moves to)
    const pathFirst = first !== undefined && (first === '.' || /[*?[]/.test(first) || first.startsWith(':') || existsSync(path.resolve(dir, first)));
    if (pathFirst) return { kind: 'discard', scope: 'tracked', pathspecs: o.operands, target: rest.length ? undefined : first };
    if (rest.length) return { kind: 'discard', scope: 'tracked', pathspecs: rest, source: first };
    const detach = has(o, null, '--detach');
    return switchTo(first === undefined && detach ? 'HEAD' : first, undefined, branch, force, detach);
  },
  switch: (a, _dir, branch) => {
    const o = options(a, ['-c', '--create', '-C', '--force-create', '--orphan', '--conflict']);
    // --orphan empties the worktree of every tracked file
    if (has(o, null, '--orphan')) return whole('remove');
    const create = optionValue(a, ['-c', '--create', '-C', '--force-create']);
    return switchTo(o.operands[0], create, branch, has(o, 'f', '--force', '--discard-changes'), has(o, 'd', '--detach'));
  },
  restore: (a) => {
    const o = options(a, ['-s', '--source', '--pathspec-from-file', '--conflict']);
    const restored = has(o, 'S', '--staged') && !has(o, 'W', '--worktree') ? null : named('discard', o);
    const source = [...(o.values.get('-s') ?? []), ...(o.values.get('--source') ?? [])].pop();
    return restored && { ...restored, source };
  },
  reset: (a) => {
    const o = options(a, ['--pathspec-from-file']);
    return has(o, null, '--hard', '--merge', '--keep') ? { ...whole('discard'), target: o.operands.length === 1 ? o.operands[0] : undefined } : null;
  },
  // -u with --reset or -m rewrites the worktree to the tree read (--reset even over local changes)
  'read-tree': (a) => {
    const o = options(a, ['--prefix', '--exclude-per-directory', '--index-output']);
    return has(o, 'u') && has(o, 'm', '--reset') ? { ...whole('discard'), source: o.operands[0] ?? '' } : null;
  },
  // without -f it writes only what is missing; with --prefix, elsewhere (rules/git-files.ts)
  'checkout-index': (a) => {
    const o = options(a, ['--prefix', '--stage']);
    if (!has(o, 'f', '--force') || has(o, null, '--prefix')) return null;
    return has(o, 'a', '--all') || has(o, null, '--stdin') ? whole('discard') : named('discard', o);
  },
  // -f: even a file with local changes (without it git refuses); --cached leaves the worktree alone
  rm: (a) => {
    const o = options(a, ['--pathspec-from-file']);
    const removed = has(o, null, '--cached') || has(o, 'n', '--dry-run') ? null : named('remove', o);
    return removed && { ...removed, force: has(o, 'f', '--force') };
  },
  // the sources leave; -f moves over an existing destination, whose uncommitted content is lost
  mv: (a) => {
    const o = options(a, []);
    if (has(o, 'n', '--dry-run') || o.operands.length < 2) return null;
    const into = o.operands.at(-1)!;
    const force = has(o, 'f', '--force');
    return { kind: 'remove', scope: 'all', pathspecs: [...(force ? [into] : []), ...o.operands.slice(0, -1)], into, force };
  },
  // below the current directory unless given paths; without -f too where clean.requireForce is false
  clean: (a) => {
    const o = options(a, ['-e', '--exclude']);
    return has(o, 'n', '--dry-run') ? null : { kind: 'remove', scope: 'untracked', pathspecs: o.operands.length ? o.operands : ['.'] };
  },
  ...Object.fromEntries(APPLYING.map((v) => [v, () => whole('apply', 'all')])),
};

/** What a git command does to the worktree's uncommitted state; null when it leaves it alone. `branch`: the one checked out. */
export function worktreeEffect(inv: GitInvocation, dir: string, branch: string | null): WorktreeEffect | null {
  const row = Object.hasOwn(VERBS, inv.sub) ? VERBS[inv.sub](inv.args, dir, branch) : null;
  return row && { verb: inv.sub, dir, ...row };
}
