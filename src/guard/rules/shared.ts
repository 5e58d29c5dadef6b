// A shared checkout nobody can wreck (SPEC 6): while another live session here has uncommitted paths in the ledger,
// what would sweep or destroy them (rules/worktree.ts) is refused with the command that touches only this session's
// paths. git (one `status`) starts only when another live session has claims here.
import path from 'node:path';
import { isLive, leaseTtlMs, readLease } from '../../handoff/store/leases';
import { worktreeActivity } from '../../handoff/state/ledger';
import { READER_ENV } from '../../git/run';
import { short } from '../../handoff/state/session';
import type { GuardContext } from '../context';
import { shellWord } from '../../terminal-text';
import { globMatch, isGlob } from '../glob';
import { asWritten } from './as-written';
import type { GitInvocation } from '../shell/git';
import { isBroad, type Scope, type WorktreeEffect } from './worktree';
import { shortValued } from './git-options';
import { readPathspec } from './git-files';

/** A test for worktree-relative paths: does any pathspec (relative to `dir`) cover it? */
function coverage(sweep: WorktreeEffect, worktree: string): (p: string) => boolean {
  if (sweep.pathspecs === null) return () => true;
  const tests = sweep.pathspecs.map((spec): ((p: string) => boolean) => {
    const read = readPathspec(spec);
    if (!read) return () => true;
    const rel = path.relative(worktree, path.resolve(read.fromTop ? worktree : sweep.dir, read.path || '.')).split(path.sep).join('/');
    if (rel.startsWith('..')) return () => false;
    if (rel === '') return () => true;
    if (!read.literal && isGlob(rel)) return (p) => globMatch(rel, p) || globMatch(`${rel}/*`, p);
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
export async function sharedCheckoutProblem(ctx: GuardContext, inv: GitInvocation, sweep: WorktreeEffect): Promise<string | null> {
  if (inv.gitDir) return null;
  const loc = ctx.locate(sweep.dir);
  if (!loc) return null;
  const me = ctx.session;
  const acts = worktreeActivity(loc.commonDir, loc.worktree);
  const claimed = [...acts.values()].filter((a) => a.session !== me && !a.released && a.paths.length > 0);
  if (claimed.length === 0 || sweep.kind === 'apply') return null;
  // a `git add|commit` of single files counts only when it names one of theirs (from the ledger: no git starts)
  const theirs = new Set(claimed.flatMap((a) => a.paths));
  const named = (p: string) => isBroad(p, sweep.dir) || theirs.has(path.relative(loc.worktree, path.resolve(sweep.dir, p)).split(path.sep).join('/'));
  if (sweep.kind === 'stage' && sweep.pathspecs?.some(named) === false) return null;
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
  const written = [...(me ? acts.get(me)?.paths ?? [] : [])].sort();
  const mine = written.filter(hit);
  // a `git add` that names none of one's own files is answered with the add of all of them
  const ownDirty = written.filter((p) => dirty.has(p));
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
      : sweep.verb === 'stash'
        ? `stash away ${whom}`
        : sweep.kind === 'stage'
          ? `sweep ${whom} into your commit`
          : `destroy ${whom}`;
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

/** By verb, the command that does a sweep's work on `rel` alone (the paths this session wrote, quoted). */
const SAFE: Record<string, (rel: string, inv: GitInvocation, untracked: boolean) => string> = {
  add: (rel) => `git add -- ${rel}`,
  commit: (rel, inv) => `git add -- ${rel} && git commit ${withoutAll(inv.args).map(shellWord).join(' ')}`.trimEnd(),
  stash: (rel, _inv, untracked) => `git stash push ${untracked ? '--include-untracked ' : ''}-- ${rel}`,
  reset: (rel) => `git restore --source=HEAD --staged --worktree -- ${rel}`,
  restore: (rel) => `git restore -- ${rel}`,
  checkout: (rel) => `git restore -- ${rel}`,
  clean: (rel) => `git clean -f -- ${rel}`,
};
/** What is said instead when none of the paths are this session's. */
const NONE_YOURS: Record<string, string> = {
  commit: 'None of those changes are yours: `git add` the files you wrote, by name, then commit without -a.',
  stash: 'None of the uncommitted paths are yours: there is nothing of yours to stash.',
};

function safeCommand(sweep: WorktreeEffect, inv: GitInvocation, mine: string[], worktree: string, dirty: Map<string, boolean>): { command?: string; note?: string } {
  const rel = fromDir(mine, worktree, sweep.dir);
  if (!rel.length || !Object.hasOwn(SAFE, sweep.verb)) {
    return { note: NONE_YOURS[sweep.verb] ?? 'None of the uncommitted paths it covers were written by you: leave them to their session.' };
  }
  return { command: SAFE[sweep.verb](quoted(rel), inv, mine.some((p) => dirty.get(p) === false)) };
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
    // the boolean letters of the group, up to one that takes a value
    const valued = a.slice(1).search(new RegExp(`[${shortValued('commit')}]`));
    const i = a.slice(1, valued < 0 ? undefined : valued + 2).indexOf('a');
    if (i < 0) out.push(a);
    else if (a.length > 2) out.push('-' + a.slice(1, i + 1).replace('a', '') + a.slice(i + 2));
  }
  return out;
}

/** The `git worktree add` that gives this session its own checkout (of the branch it wanted, when it was switching). */
function worktreeAdd(sweep: WorktreeEffect, worktree: string, me: string | null): string {
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
