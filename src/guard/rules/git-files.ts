// git verbs that write or delete worktree files by the paths they are given (rules/worktree.ts says which), judged as
// the shell's writes are. A pathspec that is a directory, a pattern or magic reaches every handoff file under it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configBool } from '../../git/config';
import type { GuardContext } from '../context';
import type { Location } from '../locate';
import type { SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';
import type { WorktreeEffect } from './worktree';
import { given } from '../shell/options';
import { gitOptions, lastValue } from './git-options';
import type { TargetKind, WriteTarget } from '../shell/writes';
import { handoffFilesUnder, type Budget } from './reach';
import { globMatch } from '../glob';

/**
 * A pathspec as git reads it: the path after its magic, counted from the top (`:/`, `:(top)`) or not, a pattern unless
 * `:(literal)`; null for any other magic (exclude, glob, icase, attr), which may cover anything.
 */
export function readPathspec(spec: string): { path: string; fromTop: boolean; literal: boolean } | null {
  const long = /^:\(([^)]*)\)(.*)$/s.exec(spec);
  if (long) {
    const magic = long[1].split(',').map((w) => w.trim().toLowerCase());
    if (!magic.every((w) => w === 'top' || w === 'literal')) return null;
    return { path: long[2], fromTop: magic.includes('top'), literal: magic.includes('literal') };
  }
  const short = /^:([/!^]*)(.*)$/s.exec(spec);
  if (short && /[!^]/.test(short[1])) return null;
  return short ? { path: short[2], fromTop: short[1].includes('/'), literal: false } : { path: spec, fromTop: false, literal: false };
}

/** A pathspec as the target it names (magic that may cover anything: the whole worktree); a pattern as the literal directory before it. */
export function pathspecTarget(spec: string, cwd: string | null, top: string | null, kind: TargetKind, tree = false): WriteTarget {
  const { path: s, fromTop, literal } = readPathspec(spec) ?? { path: '', fromTop: true, literal: true };
  const base = fromTop ? top : cwd;
  const at = base ? path.resolve(base, s || '.') : s;
  // git's own pattern characters (it matches them itself when the shell passed them through quoted)
  const pattern = (base === null && !path.isAbsolute(s)) || (!literal && /[*?[]/.test(s));
  if (!pattern) return { path: at, kind, cwd: null, tree };
  return { path: at.slice(0, at.search(/[*?[]/)).replace(/[^/]*$/, '') || '/', kind, cwd: null, tree: true, names: [`${at}\0path`] };
}

/** The files a git verb writes or deletes in the worktree, by the paths it names (`effect`: what it does to the worktree). */
export function gitFileTargets(inv: GitInvocation, cmd: SimpleCommand, top: string | null, effect: WorktreeEffect | null): WriteTarget[] {
  const cwd = inv.cwd ?? cmd.cwd;
  const out: WriteTarget[] = [];
  const add = (p: string | undefined, kind: TargetKind, tree = false) => {
    if (p !== undefined && p !== '-') out.push(pathspecTarget(p, cwd, top, kind, tree));
  };
  const a = inv.args;
  const o = gitOptions(inv);
  // the pathspecs it names, or the whole worktree (its top; the directory it runs in when that is not known)
  const each = (kind: TargetKind, specs = effect?.pathspecs ?? [top ?? cwd ?? undefined]) => {
    for (const p of specs) add(p, kind, kind === 'write');
  };
  // made to match the index, HEAD, a tree or a stash (what a merge or rebase brings in is a commit's, judged as history)
  if (effect?.kind === 'discard' || (effect?.kind === 'switch' && effect.force) || (effect?.kind === 'apply' && effect.verb === 'stash')) each('write');
  // `git checkout <word>`: a word that names no path now may still name one in the index (a branch names no handoff file)
  if (effect?.verb === 'checkout' && effect.kind === 'switch') add(effect.target ?? undefined, 'write', true);
  if (effect?.kind === 'remove' && effect.scope !== 'untracked') {
    const into = effect.into;
    each('delete', effect.pathspecs?.filter((p) => p !== into));
    if (into !== undefined) for (const src of [...effect.pathspecs!.filter((p) => p !== into), '']) add(path.join(into, path.basename(src)), 'write', true);
  }
  switch (inv.sub) {
    case 'sparse-checkout':
      // set/add/init/reapply take every file outside the patterns out of the worktree
      if (/^(set|add|init|reapply)$/.test(o.operands[0] ?? '')) add(top ?? undefined, 'delete');
      break;
    case 'checkout-index': {
      // `--prefix=<string>`: each index path is written at <string><path from the top>, anywhere (`--prefix=$HOME/`
      // writes ~/.gitconfig from an index entry set on the same line); without -f it still creates what is absent
      const prefix = lastValue(o, '--prefix');
      if (!prefix) break;
      const at = path.isAbsolute(prefix) || cwd === null ? prefix : path.join(cwd, prefix);
      if (given(o, 'a', '--all') || o.flags.includes('--stdin')) add(prefix.endsWith('/') ? at : path.dirname(at), 'write', true);
      for (const p of o.operands) add(at + (cwd !== null && top !== null ? path.relative(top, path.resolve(cwd, p)) : p), 'write', true);
      break;
    }
    case 'update-index': {
      // an index entry given its content (`--cacheinfo <mode>,<blob>,<path>`): the next checkout from the index writes it
      for (let i = 0; i < a.length; i++) {
        if (a[i] !== '--cacheinfo') continue;
        const packed = a[i + 1]?.split(',');
        if (packed && packed.length >= 3) add(packed.slice(2).join(','), 'write');
        else add(a[i + 3], 'write');
      }
      // entries read from input the guard does not see: any file of the worktree
      if (a.includes('--index-info')) add(top ?? cwd ?? undefined, 'write', true);
      break;
    }
    case 'worktree': {
      // `git worktree remove [-f] <path>` deletes another worktree with everything in it; `move` takes it all away
      // from where its session works (a delete there and a write where it goes)
      const [verb, from, to] = o.operands;
      if ((verb === 'remove' || verb === 'move') && from !== undefined) add(from, 'delete');
      if (verb === 'move' && to !== undefined) add(to, 'write', true);
      break;
    }
    case 'merge-file':
      if (!given(o, 'p', '--stdout')) add(o.operands[0], 'write');
      break;
    case 'bundle':
      if (o.operands[0] === 'create') add(o.operands[1], 'write');
      break;
    case 'archive':
      for (const f of o.all('-o', '--output')) add(f, 'write');
      break;
  }
  return out;
}

/** Handoff files under a pathspec target that its pattern (kept in names as `<abs pattern>\0path`) matches. */
export function pathspecMatches(t: WriteTarget, budget: Budget): string[] {
  return handoffFilesUnder(t.path, budget).filter((f) => pathspecCovers(t, f));
}

/** Whether a file under a target is among what its pathspec pattern (if any) matches. */
export function pathspecCovers(t: WriteTarget, f: string): boolean {
  const pattern = t.names?.find((n) => n.endsWith('\0path'))?.slice(0, -5);
  return pattern === undefined || globMatch(pattern, f) || globMatch(`${pattern}/*`, f);
}

/**
 * Which of these worktree paths may be entries of the index, read from a version 2 or 3 index file without git (no
 * index: none); null when only git can tell (GIT_INDEX_FILE, version 4, a split index).
 */
function maybeIndexed(loc: Location, rel: string[], env: NodeJS.ProcessEnv, icase: boolean): boolean[] | null {
  if (env.GIT_INDEX_FILE) return null;
  let buf: Buffer;
  try {
    buf = readFileSync(path.join(loc.gitDir, 'index'));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? rel.map(() => false) : null;
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC' || ![2, 3].includes(buf.readUInt32BE(4))) return null;
  try {
    if (readdirSync(loc.gitDir).some((n) => n.startsWith('sharedindex.'))) return null;
  } catch {
    return null;
  }
  // names as stored (UTF-8 bytes, each followed by NUL); a longer name ending the same way only sends the path to git
  const text = icase ? buf.toString('latin1').toLowerCase() : buf.toString('latin1');
  const named = (n: string) => text.includes(`${Buffer.from(icase ? n.toLowerCase() : n, 'utf8').toString('latin1')}\0`);
  return rel.map((r) => {
    if (r.startsWith('..') || path.isAbsolute(r)) return false;
    const parts = r.split(path.sep);
    return named(parts.join('/')) || parts.slice(0, -1).some((_, i) => named(`${parts.slice(0, i + 1).join('/')}/`));
  });
}

/** Which of these worktree files a verb that discards or applies changes (`effect`): tracked, and changed against what it writes. */
export async function changedByCheckout(ctx: GuardContext, effect: WorktreeEffect, files: string[], cwd: string): Promise<string[]> {
  if (!files.length) return files;
  const loc = ctx.locate(cwd);
  if (!loc) return files;
  const stash = effect.kind === 'apply' ? effect.source : undefined;
  if (stash === undefined) {
    // only files the index tracks count: the others are left out before git starts
    const indexed = maybeIndexed(loc, files.map((f) => path.relative(loc.worktree, f)), ctx.env, configBool(await ctx.config(loc), 'core.ignorecase'));
    if (indexed) files = files.filter((_, i) => indexed[i]);
    if (!files.length) return files;
  }
  const repo = await ctx.repo(loc);
  const rel = files.map((f) => path.relative(loc.worktree, f));
  const literal = rel.map((r) => `:(literal)${r}`);
  const names = (args: string[]) => new Set(repo.git(args, { cwd: loc.worktree, allowFail: true }).stdout.split('\0').filter(Boolean));
  // `stash apply|pop|branch`: what the stash holds (its tracked changes and its untracked files), whatever is here now
  if (stash !== undefined) {
    const held = new Set([...names(['diff', '--name-only', '-z', `${stash}^1`, stash, '--', ...literal]), ...names(['ls-tree', '-r', '--name-only', '-z', `${stash}^3`, '--', ...rel])]);
    return files.filter((_, i) => held.has(rel[i]));
  }
  const tracked = names(['ls-files', '-z', '--', ...literal]);
  // another source than the index (`checkout <tree-ish> --`, `restore --source`, a tree read): any tracked file may change
  if (effect.source !== undefined) return files.filter((_, i) => tracked.has(rel[i]));
  // from HEAD or from the index: a file changes when either differs from what is here (an index entry set by
  // `update-index --cacheinfo` differs from HEAD, not the worktree, until the checkout writes it)
  const dirty = new Set([...names(['diff', '--name-only', '-z', 'HEAD', '--', ...literal]), ...names(['diff', '--cached', '--name-only', '-z', 'HEAD', '--', ...literal])]);
  return files.filter((_, i) => tracked.has(rel[i]) && dirty.has(rel[i]));
}
