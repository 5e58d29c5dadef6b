// What a git verb does to the worktree's uncommitted state, decided without git: the one table every rule reads
// (the shared checkout's sweeps, the files git writes, what an earlier step's index change loses, the untracked files
// clean and stash take, the commit the worktree moves to).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { given } from '../shell/options';
import { gitOptions, lastValue, type GitOptions } from './git-options';
import type { GitInvocation } from '../shell/git';
import { statOr } from '../../read-file';

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

/** A pathspec that reaches more than the one file it names: a directory, a pattern, magic. */
export const isBroad = (p: string, dir: string) =>
  p === '.' || p === '..' || p.endsWith('/') || /[*?[]/.test(p) || p.startsWith(':') || !!statOr(path.resolve(dir, p))?.isDirectory();

const STASH_VERBS = new Set(['list', 'show', 'drop', 'pop', 'apply', 'branch', 'clear', 'create', 'store', 'push', 'save']);
/** Verbs that write another commit's changes into the worktree (git refuses where they would overwrite local changes). */
const APPLYING = ['am', 'merge', 'cherry-pick', 'revert', 'pull', 'rebase'];

type Row = (o: GitOptions, a: string[], dir: string, branch: string | null) => Omit<WorktreeEffect, 'verb' | 'dir'> | null;
const whole = (kind: WorktreeEffect['kind'], scope: Scope = 'tracked') => ({ kind, scope, pathspecs: null });
/** The named pathspecs (none: nothing), or the whole worktree when they come from a file the guard does not see. */
const named = (kind: WorktreeEffect['kind'], o: GitOptions, scope: Scope = 'tracked') =>
  given(o, '', '--pathspec-from-file') ? whole(kind, scope) : o.operands.length ? { kind, scope, pathspecs: o.operands } : null;

/** The switch to `target` (and a branch it creates); staying on `branch` is nothing, or a discard when forced. */
function switchTo(target: string | undefined, create: string | undefined, branch: string | null, force: boolean, detach = false) {
  const moves = { kind: 'switch', scope: 'all', pathspecs: null, force } as const;
  if (create !== undefined) return { ...moves, target: target ?? null, create };
  if (target === undefined || (target === branch && !detach)) return force ? whole('discard') : null;
  return { ...moves, target };
}

const VERBS: Record<string, Row> = {
  add: (o) => {
    if (given(o, 'n', '--dry-run')) return null;
    if (given(o, '', '--pathspec-from-file')) return whole('stage', 'all');
    const all = given(o, 'A', '--all', '--no-ignore-removal');
    const scope = given(o, 'u', '--update') && !all ? 'tracked' : 'all';
    if (o.operands.length) return { kind: 'stage', scope, pathspecs: o.operands };
    return all || scope === 'tracked' ? whole('stage', scope) : null;
  },
  commit: (o) => {
    if (given(o, '', '--dry-run')) return null;
    return given(o, 'a', '--all') ? whole('stage') : named('stage', o);
  },
  stash: (first, a) => {
    const verb = first.dashdash === 0 || !STASH_VERBS.has(first.operands[0]) ? 'push' : first.operands[0];
    const stash = first.operands[verb === 'branch' ? 2 : 1] ?? 'stash@{0}';
    if (/^(apply|pop|branch)$/.test(verb)) return { ...whole('apply', 'all'), source: stash };
    if (verb !== 'push' && verb !== 'save') return null;
    const o = verb === first.operands[0] ? gitOptions({ sub: 'stash', args: a.slice(a.indexOf(verb) + 1) }) : first;
    const scope = given(o, 'a', '--all') || given(o, 'u', '--include-untracked') ? 'all' : 'tracked';
    // `save` takes a message, not paths
    return (verb === 'push' && named('discard', o, scope)) || whole('discard', scope);
  },
  checkout: (o, _a, dir, branch) => {
    const force = given(o, 'f', '--force');
    const create = lastValue(o, '-b', '-B', '--orphan');
    if (create !== undefined) return switchTo(o.operands[0], create, branch, force);
    if (given(o, '', '--pathspec-from-file')) return whole('discard');
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
    const detach = given(o, '', '--detach');
    return switchTo(first === undefined && detach ? 'HEAD' : first, undefined, branch, force, detach);
  },
  switch: (o, _a, _dir, branch) => {
    // --orphan empties the worktree of every tracked file
    if (given(o, '', '--orphan')) return whole('remove');
    const create = lastValue(o, '-c', '--create', '-C', '--force-create');
    return switchTo(o.operands[0], create, branch, given(o, 'f', '--force', '--discard-changes'), given(o, 'd', '--detach'));
  },
  restore: (o) => {
    const restored = given(o, 'S', '--staged') && !given(o, 'W', '--worktree') ? null : named('discard', o);
    return restored && { ...restored, source: lastValue(o, '-s', '--source') };
  },
  reset: (o) =>
    given(o, '', '--hard', '--merge', '--keep') ? { ...whole('discard'), target: o.operands.length === 1 ? o.operands[0] : undefined } : null,
  // -u with --reset or -m rewrites the worktree to the tree read (--reset even over local changes)
  'read-tree': (o) => (given(o, 'u') && given(o, 'm', '--reset') ? { ...whole('discard'), source: o.operands[0] ?? '' } : null),
  // without -f it writes only what is missing; with --prefix, elsewhere (rules/git-files.ts)
  'checkout-index': (o) => {
    if (!given(o, 'f', '--force') || given(o, '', '--prefix')) return null;
    return given(o, 'a', '--all') || given(o, '', '--stdin') ? whole('discard') : named('discard', o);
  },
  // -f: even a file with local changes (without it git refuses); --cached leaves the worktree alone
  rm: (o) => {
    const removed = given(o, '', '--cached') || given(o, 'n', '--dry-run') ? null : named('remove', o);
    return removed && { ...removed, force: given(o, 'f', '--force') };
  },
  // the sources leave; -f moves over an existing destination, whose uncommitted content is lost
  mv: (o) => {
    if (given(o, 'n', '--dry-run') || o.operands.length < 2) return null;
    const into = o.operands.at(-1)!;
    const force = given(o, 'f', '--force');
    return { kind: 'remove', scope: 'all', pathspecs: [...(force ? [into] : []), ...o.operands.slice(0, -1)], into, force };
  },
  // below the current directory unless given paths; without -f too where clean.requireForce is false
  clean: (o) => (given(o, 'n', '--dry-run') ? null : { kind: 'remove', scope: 'untracked', pathspecs: o.operands.length ? o.operands : ['.'] }),
  ...Object.fromEntries(APPLYING.map((v) => [v, () => whole('apply', 'all')])),
};

/** What a git command does to the worktree's uncommitted state; null when it leaves it alone. `branch`: the one checked out. */
export function worktreeEffect(inv: GitInvocation, dir: string, branch: string | null): WorktreeEffect | null {
  const row = Object.hasOwn(VERBS, inv.sub) ? VERBS[inv.sub](gitOptions(inv), inv.args, dir, branch) : null;
  return row && { verb: inv.sub, dir, ...row };
}
