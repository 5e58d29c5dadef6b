// git verbs that write or delete worktree files by the paths they are given — rm, mv, checkout and restore of paths,
// checkout-index, merge-file, bundle create, archive -o — judged as the shell's writes are. A pathspec that is a
// directory, a pattern (git's `*` crosses `/`) or carries magic reaches every handoff file under its literal part.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configBool } from '../../git/config';
import type { GuardContext } from '../context';
import type { Location } from '../locate';
import type { SimpleCommand } from '../shell/command';
import { stashVerb, type GitInvocation } from '../shell/git';
import type { WorktreeEffect } from './worktree';
import { flagGiven, getopt, isLong } from '../shell/options';
import type { TargetKind, WriteTarget } from '../shell/writes';
import type { Budget } from './reach';
import { handoffFilesUnder } from './reach';
import { globMatch } from '../glob';

/**
 * A pathspec as the target it names: magic (`:(top)`, `:/`, `:!`) read, excludes dropped (null); a pattern (git's `*`
 * crosses `/`) as the literal directory before it, the pattern kept in names to match each handoff file under it.
 */
export function pathspecTarget(spec: string, cwd: string | null, top: string | null, kind: TargetKind, tree = false): WriteTarget | null {
  let s = spec;
  let literal = false;
  let fromTop = false;
  let m: RegExpExecArray | null;
  if ((m = /^:\(([^)]*)\)(.*)$/s.exec(s))) {
    const magic = m[1].split(',').map((w) => w.trim().toLowerCase());
    if (magic.some((w) => w === 'exclude')) return null;
    literal = magic.includes('literal');
    fromTop = magic.includes('top');
    s = m[2];
  } else if ((m = /^:([/!^]*)(.*)$/s.exec(s)) && s.startsWith(':')) {
    if (/[!^]/.test(m[1])) return null;
    fromTop = m[1].includes('/');
    s = m[2];
  }
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
    const target = p === undefined || p === '-' ? null : pathspecTarget(p, cwd, top, kind, tree);
    if (target) out.push(target);
  };
  const a = inv.args;
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
      if (/^(set|add|init|reapply)$/.test(a.find((x) => !x.startsWith('-')) ?? '')) add(top ?? undefined, 'delete');
      break;
    case 'checkout-index': {
      // `--prefix=<string>`: each index path is written at <string><path from the top>, anywhere (`--prefix=$HOME/`
      // writes ~/.gitconfig from an index entry set on the same line); without -f it still creates what is absent
      const o = getopt(a, '', ['--prefix', '--stage']);
      const prefix = o.values.get('--prefix')?.at(-1);
      if (!prefix) break;
      const at = path.isAbsolute(prefix) || cwd === null ? prefix : path.join(cwd, prefix);
      if (flagGiven(o.flags, 'a', '--all') || o.flags.includes('--stdin')) add(prefix.endsWith('/') ? at : path.dirname(at), 'write', true);
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
      const ops = getopt(a, '', ['--reason', '--expire']).operands;
      if ((ops[0] === 'remove' || ops[0] === 'move') && ops[1] !== undefined) add(ops[1], 'delete');
      if (ops[0] === 'move' && ops[2] !== undefined) add(ops[2], 'write', true);
      break;
    }
    case 'merge-file': {
      const o = getopt(a, 'L', ['--marker-size']);
      if (!flagGiven(o.flags, 'p', '--stdout')) add(o.operands[0], 'write');
      break;
    }
    case 'bundle': {
      const ops = getopt(a, '', ['--version']).operands;
      if (ops[0] === 'create') add(ops[1], 'write');
      break;
    }
    case 'archive': {
      const o = getopt(a, 'o', ['--output', '--prefix', '--format', '--remote', '--exec', '--add-file', '--add-virtual-file', '--mtime']);
      for (const f of [...(o.values.get('-o') ?? []), ...(o.values.get('--output') ?? [])]) add(f, 'write');
      break;
    }
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
 * Which of these worktree paths may be entries of the index, read from the index file without git: a path that a
 * version 2 or 3 index does not name is not tracked (what `ls-files` would answer), and no index means nothing is.
 * null when only git can tell: an index elsewhere (GIT_INDEX_FILE), version 4's compressed names, a split index
 * (its entries in a shared file). A sparse index's directory entry counts for every path under it.
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

/** Whether a write of these worktree files by checkout or restore changes them: tracked, and changed against HEAD. */
export async function changedByCheckout(ctx: GuardContext, inv: GitInvocation, files: string[], cwd: string): Promise<string[]> {
  if (!files.length) return files;
  // written under a prefix of the session's choosing: whatever the index holds lands there, tracked here or not
  if (inv.sub === 'checkout-index' && inv.args.some((x) => x.startsWith('--prefix=') ? x.length > 9 : x === '--prefix')) return files;
  const loc = ctx.locate(cwd);
  if (!loc) return files;
  const stash = inv.sub === 'stash' ? /^(apply|pop|branch)$/.exec(stashVerb(inv.args) ?? '') : null;
  if (!stash) {
    // everything below counts only files the index tracks: those it does not name are left out before git is
    // started, so a checkout or stash over the perimeter's untracked files (git's own, the clients' hook files)
    // costs no git process, as a tree without handoff files never did
    const indexed = maybeIndexed(loc, files.map((f) => path.relative(loc.worktree, f)), ctx.env, configBool(await ctx.config(loc), 'core.ignorecase'));
    if (indexed) files = files.filter((_, i) => indexed[i]);
    if (!files.length) return files;
  }
  const repo = await ctx.repo(loc);
  const rel = files.map((f) => path.relative(loc.worktree, f));
  const tracked = new Set(repo.git(['ls-files', '-z', '--', ...rel.map((r) => `:(literal)${r}`)], { cwd: loc.worktree, allowFail: true }).stdout.split('\0').filter(Boolean));
  const literal = rel.map((r) => `:(literal)${r}`);
  const names = (args: string[]) => repo.git(args, { cwd: loc.worktree, allowFail: true }).stdout.split('\0').filter(Boolean);
  // `stash apply|pop|branch`: what the stash holds (its tracked changes and its untracked files), whatever is here now
  if (stash) {
    const ops = inv.args.filter((x) => !x.startsWith('-'));
    const ref = (stash[1] === 'branch' ? ops[2] : ops[1]) ?? 'stash@{0}';
    const held = new Set([...names(['diff', '--name-only', '-z', `${ref}^1`, ref, '--', ...literal]), ...names(['ls-tree', '-r', '--name-only', '-z', `${ref}^3`, '--', ...rel])]);
    return files.filter((_, i) => held.has(rel[i]));
  }
  // another source than the index (`checkout <tree-ish> --`, `restore --source`, a tree read): any tracked file may change
  const source =
    inv.sub === 'restore' ? inv.args.some((x) => x === '-s' || /^-s./.test(x) || (isLong(x, '--source') && x.split('=')[0].length > 3)) : inv.sub === 'read-tree' || (inv.sub === 'checkout' && inv.args.indexOf('--') > 0 && !inv.args[0].startsWith('-'));
  if (source) return files.filter((_, i) => tracked.has(rel[i]));
  // from HEAD or from the index: a file changes when either differs from what is here (an index entry set by
  // `update-index --cacheinfo` differs from HEAD, not the worktree, until the checkout writes it)
  const dirty = new Set([...names(['diff', '--name-only', '-z', 'HEAD', '--', ...literal]), ...names(['diff', '--cached', '--name-only', '-z', 'HEAD', '--', ...literal])]);
  return files.filter((_, i) => tracked.has(rel[i]) && dirty.has(rel[i]));
}
