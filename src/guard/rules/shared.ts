// A shared checkout nobody can wreck: while another live session in this worktree has uncommitted paths in
// the ledger, commands that would sweep them into this session's commit (add -A, commit -a, stash) or destroy
// them (checkout/switch to another branch, reset --hard, checkout -- ., restore ., clean -f) are refused with
// the exact command that touches only this session's own paths; so is staging one of its files by name. Decided on
// the parsed command first; git (one `status`) starts only for those verbs, and only when another live session has claims here.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { isLive, leaseTtlMs, readLease } from '../../handoff/store/leases';
import { worktreeActivity } from '../../handoff/state/ledger';
import { READER_ENV } from '../../git/run';
import { short } from '../../handoff/state/session';
import type { GuardContext } from '../context';
import type { Location } from '../locate';
import { shellWord } from '../../clients/event';
import { globMatch, isGlob } from '../glob';
import { asWritten } from './as-written';
import { optionValue, options } from '../shell/options';
import type { SimpleCommand } from '../shell/command';
import { stashVerb, type GitInvocation } from '../shell/git';

/** Which uncommitted paths a command can take or destroy. */
type Scope = 'all' | 'tracked' | 'untracked';

export interface Sweep {
  verb: string;
  /** sweep: into this session's commit or stash; destroy: changes are lost; switch: the branch moves under the other session */
  kind: 'sweep' | 'destroy' | 'switch';
  /** pathspecs relative to `dir`; null: the whole worktree */
  pathspecs: string[] | null;
  scope: Scope;
  /** the directory the pathspecs are relative to */
  dir: string;
  /** switch: the branch or commit it goes to, and a branch it creates */
  target?: string | null;
  create?: string | null;
}

type Options = ReturnType<typeof options>;

/** Whether flag `letter` (alone or in a short group) or one of the `long` options is given. */
function has(o: Options, letter: string | null, ...long: string[]): boolean {
  return (letter !== null && o.flags.includes(`-${letter}`)) || long.some((l) => o.values.has(l) || o.flags.some((f) => f.split('=')[0] === l));
}

/** The boolean letters of a short group, up to a letter that takes a value. */
function shortFlags(group: string, valued = 'mFCcteS'): string {
  let out = '';
  for (const c of group.slice(1)) {
    out += c;
    if (valued.includes(c)) break;
  }
  return out;
}

const isBroad = (p: string, dir: string) => {
  if (p === '.' || p === '..' || p.endsWith('/') || /[*?[]/.test(p) || p.startsWith(':')) return true;
  try {
    return statSync(path.resolve(dir, p)).isDirectory();
  } catch {
    return false;
  }
};

const ADD_VALUED = ['--chmod', '--pathspec-from-file'];
const COMMIT_VALUED = ['-m', '--message', '-F', '--file', '-C', '--reuse-message', '-c', '--reedit-message', '--author', '--date', '-t', '--template', '--fixup', '--squash', '--cleanup', '--trailer', '--pathspec-from-file'];

/** The paths a `git add` or `git commit` names to stage (`git commit <paths>`, `-i`, `-o`), or none (a dry run, another verb). */
function stagedPaths(inv: GitInvocation): string[] {
  if (inv.sub !== 'add' && inv.sub !== 'commit') return [];
  const o = options(inv.args, inv.sub === 'add' ? ADD_VALUED : COMMIT_VALUED);
  return has(o, inv.sub === 'add' ? 'n' : null, '--dry-run') ? [] : o.operands;
}

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

/** What a git command would sweep or destroy in the worktree, decided without git; null for anything else. */
export function sweepOf(inv: GitInvocation, cmd: SimpleCommand, eventCwd: string, branch: string | null): Sweep | null {
  const dir = inv.cwd ?? cmd.cwd ?? eventCwd;
  const args = inv.args;
  switch (inv.sub) {
    case 'add': {
      const opts = options(args, ADD_VALUED);
      if (has(opts, 'n', '--dry-run')) return null;
      // paths read from a file (or stdin) the guard does not see: any of them may be another session's
      if (has(opts, null, '--pathspec-from-file')) return { verb: 'add', kind: 'sweep', pathspecs: null, scope: 'all', dir };
      const all = has(opts, 'A', '--all', '--no-ignore-removal');
      const update = has(opts, 'u', '--update');
      if (opts.operands.length === 0) return all || update ? { verb: 'add', kind: 'sweep', pathspecs: null, scope: update && !all ? 'tracked' : 'all', dir } : null;
      const broad = opts.operands.filter((p) => isBroad(p, dir));
      return broad.length ? { verb: 'add', kind: 'sweep', pathspecs: broad, scope: update && !all ? 'tracked' : 'all', dir } : null;
    }
    case 'commit': {
      const opts = options(args, COMMIT_VALUED);
      if (has(opts, null, '--dry-run')) return null;
      if (has(opts, 'a', '--all') || has(opts, null, '--pathspec-from-file')) return { verb: 'commit', kind: 'sweep', pathspecs: null, scope: 'tracked', dir };
      const broad = opts.operands.filter((p) => isBroad(p, dir));
      return broad.length ? { verb: 'commit', kind: 'sweep', pathspecs: broad, scope: 'tracked', dir } : null;
    }
    case 'stash': {
      const first = stashVerb(args);
      const subs = new Set(['list', 'show', 'drop', 'pop', 'apply', 'branch', 'clear', 'create', 'store', 'push', 'save']);
      const sub = first !== undefined && subs.has(first) ? first : 'push';
      if (sub !== 'push' && sub !== 'save') return null;
      const rest = first === sub ? args.slice(args.indexOf(first) + 1) : args;
      const opts = options(rest, ['-m', '--message', '--pathspec-from-file']);
      const scope: Scope = has(opts, 'a', '--all') || has(opts, 'u', '--include-untracked') ? 'all' : 'tracked';
      // `save` takes a message, not paths.
      const specs = sub === 'save' || has(opts, null, '--pathspec-from-file') ? [] : opts.operands;
      return { verb: 'stash', kind: 'sweep', pathspecs: specs.length ? specs : null, scope, dir };
    }
    case 'checkout': {
      const opts = options(args, ['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file']);
      const created = optionValue(args, ['-b', '-B', '--orphan']);
      if (created !== undefined) return { verb: 'checkout', kind: 'switch', pathspecs: null, scope: 'all', dir, target: opts.operands[0] ?? null, create: created };
      if (has(opts, null, '--pathspec-from-file')) return { verb: 'checkout', kind: 'destroy', pathspecs: null, scope: 'tracked', dir };
      // -f throws away every local change to tracked files, on the branch it stays on or the one it goes to
      const force = has(opts, 'f', '--force');
      if (force && (opts.operands.length === 0 || (opts.operands.length === 1 && opts.dashdash < 0 && opts.operands[0] === branch))) return { verb: 'checkout', kind: 'destroy', pathspecs: null, scope: 'tracked', dir };
      if (opts.dashdash >= 0) {
        const specs = opts.operands.slice(opts.dashdash);
        return specs.length ? { verb: 'checkout', kind: 'destroy', pathspecs: specs, scope: 'tracked', dir } : null;
      }
      if (opts.operands.length === 0) return has(opts, null, '--detach') ? { verb: 'checkout', kind: 'switch', pathspecs: null, scope: 'all', dir, target: 'HEAD' } : null;
      // git reads the first word as a revision unless it names a path; so do we, by looking at the worktree.
      const pathFirst = opts.operands[0] === '.' || /[*?[]/.test(opts.operands[0]) || opts.operands[0].startsWith(':') || existsSync(path.resolve(dir, opts.operands[0]));
      if (pathFirst) return { verb: 'checkout', kind: 'destroy', pathspecs: opts.operands, scope: 'tracked', dir };
      if (opts.operands.length > 1) return { verb: 'checkout', kind: 'destroy', pathspecs: opts.operands.slice(1), scope: 'tracked', dir };
      if (opts.operands[0] === branch && !has(opts, null, '--detach')) return null;
      return { verb: 'checkout', kind: 'switch', pathspecs: null, scope: 'all', dir, target: opts.operands[0] };
    }
    case 'switch': {
      const opts = options(args, ['-c', '--create', '-C', '--force-create', '--orphan', '--conflict']);
      const created = optionValue(args, ['-c', '--create', '-C', '--force-create', '--orphan']);
      if (created !== undefined) return { verb: 'switch', kind: 'switch', pathspecs: null, scope: 'all', dir, target: opts.operands[0] ?? null, create: created };
      const discard = has(opts, 'f', '--force', '--discard-changes');
      if (opts.operands.length === 0 || (opts.operands[0] === branch && !has(opts, 'd', '--detach'))) return discard && opts.operands.length > 0 ? { verb: 'switch', kind: 'destroy', pathspecs: null, scope: 'tracked', dir } : null;
      return { verb: 'switch', kind: 'switch', pathspecs: null, scope: 'all', dir, target: opts.operands[0] };
    }
    case 'read-tree': {
      // -u with --reset or -m rewrites the worktree to the tree read (--reset even over local changes)
      const opts = options(args, ['--prefix', '--exclude-per-directory', '--index-output']);
      if (!has(opts, 'u') || !has(opts, 'm', '--reset')) return null;
      return { verb: 'read-tree', kind: 'destroy', pathspecs: null, scope: 'tracked', dir };
    }
    case 'checkout-index': {
      const opts = options(args, ['--prefix', '--stage']);
      if (!has(opts, 'f', '--force') || has(opts, null, '--prefix') || args.some((a) => a.startsWith('--prefix='))) return null;
      if (has(opts, 'a', '--all') || has(opts, null, '--stdin')) return { verb: 'checkout-index', kind: 'destroy', pathspecs: null, scope: 'tracked', dir };
      return opts.operands.length ? { verb: 'checkout-index', kind: 'destroy', pathspecs: opts.operands, scope: 'tracked', dir } : null;
    }
    case 'rm': {
      // without -f git refuses to remove a file with local changes; --cached leaves the worktree alone
      const opts = options(args, ['--pathspec-from-file']);
      if (!has(opts, 'f', '--force') || has(opts, null, '--cached') || has(opts, 'n', '--dry-run')) return null;
      if (has(opts, null, '--pathspec-from-file')) return { verb: 'rm', kind: 'destroy', pathspecs: null, scope: 'tracked', dir };
      return opts.operands.length ? { verb: 'rm', kind: 'destroy', pathspecs: opts.operands, scope: 'tracked', dir } : null;
    }
    case 'mv': {
      // -f moves over an existing file: the destination's uncommitted content is lost
      const opts = options(args, []);
      if (!has(opts, 'f', '--force') || has(opts, 'n', '--dry-run') || opts.operands.length < 2) return null;
      return { verb: 'mv', kind: 'destroy', pathspecs: [opts.operands.at(-1)!, ...opts.operands.slice(0, -1)], scope: 'all', dir };
    }
    case 'reset': {
      const opts = options(args, ['--pathspec-from-file']);
      return has(opts, null, '--hard') ? { verb: 'reset', kind: 'destroy', pathspecs: null, scope: 'tracked', dir } : null;
    }
    case 'restore': {
      const opts = options(args, ['-s', '--source', '--pathspec-from-file', '--conflict']);
      if (has(opts, 'S', '--staged') && !has(opts, 'W', '--worktree')) return null;
      if (has(opts, null, '--pathspec-from-file')) return { verb: 'restore', kind: 'destroy', pathspecs: null, scope: 'tracked', dir };
      return opts.operands.length ? { verb: 'restore', kind: 'destroy', pathspecs: opts.operands, scope: 'tracked', dir } : null;
    }
    case 'clean': {
      const opts = options(args, ['-e', '--exclude']);
      if (!has(opts, 'f', '--force') || has(opts, 'n', '--dry-run')) return null;
      // git clean works below the current directory unless given paths.
      return { verb: 'clean', kind: 'destroy', pathspecs: opts.operands.length ? opts.operands : ['.'], scope: 'untracked', dir };
    }
    default:
      return null;
  }
}

/** A test for worktree-relative paths: does any pathspec (relative to `dir`) cover it? */
function coverage(sweep: Sweep, worktree: string): (p: string) => boolean {
  if (sweep.pathspecs === null) return () => true;
  const tests = sweep.pathspecs.map((spec): ((p: string) => boolean) => {
    let base = sweep.dir;
    let s = spec;
    if (s.startsWith(':/') || s.startsWith(':(top)')) {
      base = worktree;
      s = s.replace(/^:(\/|\(top\))/, '');
    } else if (s.startsWith(':')) return () => true; // other pathspec magic: assume the worst
    const rel = path.relative(worktree, path.resolve(base, s || '.')).split(path.sep).join('/');
    if (rel.startsWith('..')) return () => false;
    if (rel === '') return () => true;
    if (isGlob(rel)) return (p) => globMatch(rel, p) || globMatch(`${rel}/*`, p);
    return (p) => p === rel || p.startsWith(rel + '/');
  });
  return (p) => tests.some((t) => t(p));
}

/** `git status --porcelain`: worktree-relative path → tracked (false for untracked). */
function uncommitted(status: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const parts = status.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const e = parts[i];
    if (e.length < 4) continue;
    const xy = e.slice(0, 2);
    out.set(e.slice(3), xy !== '??');
    // A rename or copy is followed by its source path.
    if (xy[0] === 'R' || xy[0] === 'C') out.set(parts[++i], true);
  }
  return out;
}

const inScope = (scope: Scope, tracked: boolean) => scope === 'all' || (scope === 'tracked') === tracked;
const quoted = (ps: string[]) => ps.map(shellWord).join(' ');
const MAX_SHOWN = 10;

/** The refusal for a sweep over another live session's uncommitted paths in this worktree, or null. */
export async function sharedCheckoutProblem(ctx: GuardContext, inv: GitInvocation, sweep: Sweep): Promise<string | null> {
  if (inv.gitDir) return null;
  const loc = ctx.locate(sweep.dir);
  if (!loc) return null;
  const me = ctx.session;
  const acts = worktreeActivity(loc.commonDir, loc.worktree);
  const claimed = [...acts.values()].filter((a) => a.session !== me && !a.released && a.paths.length > 0);
  if (claimed.length === 0) return null;
  const ttl = leaseTtlMs(await ctx.config(loc));
  const repo = await ctx.repo(loc);
  const lease = readLease(repo, loc.worktree);
  const now = Date.now();
  // The lease holder is live while its lease is; a session beside it, while it keeps writing.
  const live = claimed.filter((a) => (lease?.session === a.session ? isLive(lease, ttl, now) : now - a.lastSeen < ttl));
  if (live.length === 0) return null;
  const dirty = uncommitted(repo.git(['status', '--porcelain', '-z', '--untracked-files=all'], { allowFail: true, env: READER_ENV }).stdout);
  const covers = coverage(sweep, loc.worktree);
  const hit = (p: string) => dirty.has(p) && (sweep.kind === 'switch' || inScope(sweep.scope, dirty.get(p)!)) && covers(p);
  const victims = live.map((a) => ({ a, paths: a.paths.filter(hit).sort() })).filter((v) => v.paths.length > 0);
  if (victims.length === 0) return null;
  const mine = (me ? acts.get(me)?.paths ?? [] : []).filter(hit).sort();
  // a `git add` that names none of one's own files is answered with the add of all of them
  const ownDirty = (me ? acts.get(me)?.paths ?? [] : []).filter((p) => dirty.has(p)).sort();
  const shown = asWritten(ctx.event.action.type === 'shell' ? ctx.event.action.command : null, inv, sweep.dir);
  const whose = victims
    .map(({ a, paths }) => {
      const holder = lease?.session === a.session ? `${lease.client ?? 'unknown client'}, holds this worktree's lease` : 'works in this worktree';
      const age = Math.max(0, Math.round((now - Math.max(a.lastSeen, lease?.session === a.session ? lease.time * 1000 : 0)) / 60_000));
      const list = paths.slice(0, MAX_SHOWN).join(', ') + (paths.length > MAX_SHOWN ? `, … (${paths.length} in all)` : '');
      return `session ${short(a.session, [me, ...victims.map((v) => v.a.session)])} (${holder}, last active ${age} min ago): ${list}`;
    })
    .join('; ');
  const whom = `the uncommitted work of another live session in this worktree`;
  const effect =
    sweep.kind === 'switch'
      ? 'switch this worktree to another branch under another live session, taking its uncommitted work along'
      : sweep.kind === 'destroy'
        ? `destroy ${whom}`
        : sweep.verb === 'stash'
          ? `stash away ${whom}`
          : `sweep ${whom} into your commit`;
  const own = worktreeAdd(sweep, loc.worktree, me);
  const safe = sweep.kind === 'switch' ? null : safeCommand(sweep, inv, mine.length || sweep.verb !== 'add' ? mine : ownDirty, loc.worktree, dirty);
  const way = !safe
    ? `Run exactly this instead, to work on it in your own worktree: ${own}\n`
    : (safe.command ? `Run exactly this instead (it touches only the paths you wrote):\n  ${safe.command}\n` : `${safe.note}\n`) +
      `Or work beside it in your own worktree: ${own}\n`;
  return (
    `\`${shown}\` would ${effect} — ${whose}. You are session ${me ?? '(none)'}.\n` +
    way +
    `This is allowed again once that session releases the worktree (git handoff release, run by it) or its lease expires (handoff.leaseTTL).`
  );
}

/** Paths (worktree-relative) as the command's directory sees them. */
const fromDir = (ps: string[], worktree: string, dir: string) => ps.map((p) => path.relative(dir, path.join(worktree, p)).split(path.sep).join('/') || '.');

function safeCommand(sweep: Sweep, inv: GitInvocation, mine: string[], worktree: string, dirty: Map<string, boolean>): { command?: string; note?: string } {
  const rel = fromDir(mine, worktree, sweep.dir);
  const none = { note: 'None of the uncommitted paths it covers were written by you: leave them to their session.' };
  switch (sweep.verb) {
    case 'add':
      return rel.length ? { command: `git add -- ${quoted(rel)}` } : none;
    case 'commit': {
      if (!rel.length) return { note: 'None of those changes are yours: `git add` the files you wrote, by name, then commit without -a.' };
      return { command: `git add -- ${quoted(rel)} && git commit ${withoutAll(inv.args).map(shellWord).join(' ')}`.trimEnd() };
    }
    case 'stash': {
      if (!rel.length) return { note: 'None of the uncommitted paths are yours: there is nothing of yours to stash.' };
      const untracked = mine.some((p) => dirty.get(p) === false);
      return { command: `git stash push ${untracked ? '--include-untracked ' : ''}-- ${quoted(rel)}` };
    }
    case 'reset':
      return rel.length ? { command: `git restore --source=HEAD --staged --worktree -- ${quoted(rel)}` } : none;
    case 'restore':
    case 'checkout':
      return rel.length ? { command: `git restore -- ${quoted(rel)}` } : none;
    case 'clean':
      return rel.length ? { command: `git clean -f -- ${quoted(rel)}` } : none;
    default:
      return none;
  }
}

/** `git commit` arguments without -a / --all (taken out of a short group like -am). */
function withoutAll(args: string[]): string[] {
  const out: string[] = [];
  let opts = true;
  for (const a of args) {
    if (opts && a === '--') opts = false;
    if (!opts || !a.startsWith('-') || a.startsWith('--')) {
      if (a !== '--all') out.push(a);
      continue;
    }
    const flags = shortFlags(a);
    const i = flags.indexOf('a');
    if (i < 0) out.push(a);
    else if (a.length > 2) out.push('-' + a.slice(1, i + 1).replace('a', '') + a.slice(i + 2));
  }
  return out;
}

/** The `git worktree add` that gives this session its own checkout (of the branch it wanted, when it was switching). */
function worktreeAdd(sweep: Sweep, worktree: string, me: string | null): string {
  const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'work';
  const parent = path.dirname(worktree);
  const name = path.basename(worktree);
  if (sweep.kind === 'switch' && sweep.create) {
    const dir = path.join(parent, `${name}-${slug(sweep.create)}`);
    return `git worktree add -b ${shellWord(sweep.create)} ${shellWord(dir)}${sweep.target ? ' ' + shellWord(sweep.target) : ''}`;
  }
  if (sweep.kind === 'switch' && sweep.target && sweep.target !== '-') {
    const dir = path.join(parent, `${name}-${slug(sweep.target)}`);
    return `git worktree add ${shellWord(dir)} ${shellWord(sweep.target)}`;
  }
  const branch = `work-${slug(short(me ?? 'session'))}`;
  return `git worktree add -b ${branch} ${shellWord(path.join(parent, `${name}-${branch}`))}`;
}
