// The ownership invariant (SPEC 2), for every writer, hook and sync: a handoff ref only moves forward, and each added
// commit keeps the owner or is a takeover naming it.
import path from 'node:path';
import { HandoffError } from '../../errors';
import { statOr } from '../../read-file';
import { reachableIn, type Storage } from '../../git/storage';
import { BODY_MAX, COMMIT_MAX, parseTrailerLines, STATE_MAX, type Trailers } from './document';
import { short } from '../state/session';
import { relativeTime } from './time';
import { ranHere } from '../state/ledger';

export interface Tip {
  oid: string;
  session: string | null;
  time: number;
}

/** The refusal for acting on another session's handoff; `retry`: the command that takes it over (write by default). */
export function ownedError(tip: Tip, session: string, ref: string, topic: string, retry?: { command: 'archive' | 'restore' | 'edit' | 'rename-branch' | 'redact'; target: string }): HandoffError {
  const when = tip.time ? new Date(tip.time * 1000).toISOString() : 'unknown time';
  const ago = tip.time ? relativeTime(when) : when;
  const ways = retry
    ? [
        `  1. leave it to its owner (session ${short(tip.session, [session])})`,
        `  2. take it over, on the record: git handoff ${retry.command} ${retry.target} --take-over --reason "<why>"`,
      ]
    : [`  1. write under a new topic: git handoff write <new-topic> …`, `  2. take it over, on the record: git handoff write ${topic} --take-over --reason "<why>" …`];
  return new HandoffError(
    'owned',
    'owned-by-another-session',
    `${ref} is owned by session ${short(tip.session, [session])} (last version ${ago}); you are session ${session}.\nWays on:\n${ways.join('\n')}`,
    { ref, owner: tip.session, ownerShort: short(tip.session, [session]), lastVersion: when, session, tip: tip.oid },
  );
}

export interface Violation {
  rule: 'rewrite' | 'foreign-owner' | 'delete' | 'no-session' | 'missing-object' | 'ambiguous-trailers' | 'too-large' | 'not-written-here';
  commit?: string;
  message: string;
}

/** Trailers of many commits as git reads them (the product's one reading), in one process. */
export function readTrailersOf(repo: Storage, oids: string[]): Map<string, Trailers & { parents: string[] }> {
  return new Map(repo.describeCommits(oids).map((c) => [c.oid, { ...parseTrailerLines(c.trailers), parents: c.parents }]));
}

/** `git rev-list` arguments for the commits deleting `refs` takes out of the history (branches, or one remote's tracking refs). */
export function onlyInArgs(refs: readonly string[]): string[] {
  const except = (prefix: string) => refs.filter((r) => r.startsWith(prefix)).map((r) => `--exclude=${r.slice(prefix.length)}`);
  const remote = /^refs\/remotes\/([^/]+)\//.exec(refs[0] ?? '')?.[1];
  if (remote !== undefined) return [...refs, '--not', ...except('refs/remotes/'), `--remotes=${remote}`];
  return [...refs, '--not', ...except('refs/heads/'), '--branches', ...except('refs/remotes/'), '--remotes', '--tags'];
}

/** The commits among `oids` another session may own (an ambiguous block protects every session any reader could take from it). */
export function foreignCommits(repo: Storage, oids: string[], session: string): Array<{ oid: string; session: string }> {
  return [...readTrailersOf(repo, oids)].flatMap(([oid, t]) => {
    const other = t.session ?? t.claimed?.find((s) => s !== session) ?? null;
    return other && other !== session ? [{ oid, session: other }] : [];
  });
}

/** checkAdvances of one move. */
export const checkAdvance = (repo: Storage, oldOid: string | null, newOid: string | null): Violation | null => checkAdvances(repo, [{ oldOid, newOid }])[0];

/** The commits one move adds, from the graph of every move's commits. */
function addedIn(graph: Map<string, string[]>, m: Move): string[] | Violation {
  const now = reachableIn(graph, m.newOid!);
  if (!m.oldOid) return [...now];
  if (!now.has(m.oldOid)) return { rule: 'rewrite', message: `history rewritten: ${m.newOid!.slice(0, 12)} does not descend from ${m.oldOid.slice(0, 12)}` };
  // what the new tip reaches only through the old one, the old one reaches too
  const old = reachableIn(graph, m.oldOid);
  return [...now].filter((c) => !old.has(c));
}

/** Each added commit, its body and its state within the stored limits (SPEC 2), from one batch-check. */
function oversizedEach(repo: Storage, added: string[]): Map<string, Violation> {
  const out = new Map<string, Violation>();
  const sizes = repo.objectInfo(added.flatMap((o) => [o, `${o}:handoff.md`, `${o}:state.json`]));
  const limits = [COMMIT_MAX, BODY_MAX, STATE_MAX];
  const names = ['commit', 'handoff.md', 'state.json'];
  sizes.forEach((s, i) => {
    const oid = added[Math.floor(i / 3)];
    if (!s || s.size <= limits[i % 3] || out.has(oid)) return;
    out.set(oid, { rule: 'too-large', commit: oid, message: `commit ${oid.slice(0, 12)}: its ${names[i % 3]} is ${s.size} bytes, over the ${limits[i % 3]}-byte limit of a handoff` });
  });
  return out;
}

/** The rule on each added commit: git reads one unambiguous trailer block with a session, which keeps each parent's owner or names it as taken over. */
function addedViolation(added: string[], all: Map<string, Trailers & { parents: string[] }>): Violation | null {
  for (const oid of added) {
    const c = all.get(oid);
    if (!c) return { rule: 'missing-object', commit: oid, message: `commit ${oid.slice(0, 12)} cannot be read` };
    if (c.problem) return { rule: 'ambiguous-trailers', commit: oid, message: `commit ${oid.slice(0, 12)} has an ${c.problem}: a handoff commit names its owner once, in plain \`Key: value\` lines` };
    if (!c.session) return { rule: 'no-session', commit: oid, message: `commit ${oid.slice(0, 12)} carries no Claude-Session-Id` };
    for (const p of c.parents) {
      if (p === refusedParent(c)) continue;
      const parent = all.get(p);
      if (parent?.problem) return { rule: 'ambiguous-trailers', commit: p, message: `commit ${oid.slice(0, 12)} builds on ${p.slice(0, 12)}, which has an ${parent.problem}` };
      const owner = parent?.session ?? null;
      if (!keepsOwner(c, owner)) {
        return {
          rule: 'foreign-owner',
          commit: oid,
          message: `commit ${oid.slice(0, 12)} by session ${short(c.session, [owner])} adds to session ${short(owner, [c.session])}'s handoff without a takeover (Handoff-Takeover-From: ${owner})`,
        };
      }
    }
  }
  return null;
}

/** Whether a version may follow one owned by `owner`: it is that owner's, or names it as taken over (SPEC 2). */
export const keepsOwner = (c: Pick<Trailers, 'session' | 'takeoverFrom'>, owner: string | null) =>
  !owner || c.session === owner || c.takeoverFrom === owner;

/** The parent a restoring version refuses (`Handoff-Refused`, SPEC 7): never its first parent, whose owner it keeps. */
const refusedParent = (c: Trailers & { parents: string[] }): string | null =>
  c.refused && c.parents.length > 1 && c.parents.indexOf(c.refused) > 0 ? c.refused : null;

/** The added commits reached from the new tip without crossing into a refused parent (a stolen version is not held to the rule again). */
function withoutRefused(tip: string, added: string[], all: Map<string, Trailers & { parents: string[] }>): string[] {
  if (!added.some((o) => all.get(o)?.refused)) return added;
  const inside = new Set(added);
  const seen = new Set<string>();
  const stack = [tip];
  while (stack.length) {
    const c = stack.pop()!;
    if (!inside.has(c) || seen.has(c)) continue;
    seen.add(c);
    const t = all.get(c);
    if (!t) continue;
    const refused = refusedParent(t);
    for (const p of t.parents) if (p !== refused) stack.push(p);
  }
  return added.filter((o) => seen.has(o));
}

/**
 * The commits' parents this process has read, by repository and its shallow boundary: a commit's parents never change
 * (sync's merge, then its push plan) but where a deepened clone's walk goes on past what was its boundary.
 */
const histories = new Map<string, { boundary: string; parents: Map<string, string[]> }>();

/**
 * The tips' histories, each commit with its parents: those this process has not read yet from one `git rev-list
 * --parents` (the tips on stdin: a first fetch of 100,000 handoffs names more than a command line holds), none when
 * every tip's is read. Null when that walk fails on a missing object.
 */
export function historyOf(repo: Storage, tips: string[]): Map<string, string[]> | null {
  const shallow = statOr(path.join(repo.commonDir, 'shallow'));
  const boundary = shallow ? `${shallow.ino}.${shallow.mtimeMs}.${shallow.size}` : '';
  let h = histories.get(repo.commonDir);
  if (h?.boundary !== boundary) histories.set(repo.commonDir, (h = { boundary, parents: new Map() }));
  const known = h.parents;
  const unread = [...new Set(tips)].filter((t) => !known.has(t));
  if (!unread.length) return known;
  const read = repo.parentsOf(unread);
  if (!read) return null;
  for (const [c, ps] of read) known.set(c, ps);
  return known;
}

export interface Move {
  oldOid: string | null;
  newOid: string | null;
}

/**
 * The ownership invariant on ref moves old → new (creation checks the whole history; a deletion is reported: only
 * `archive` deletes). One rev-list, one git log and one cat-file for every move (a fetch or push of many handoffs).
 * Returns one verdict per move, in order; null keeps the invariant.
 */
export function checkAdvances(repo: Storage, moves: Move[], ranHere?: (session: string) => boolean): Array<Violation | null> {
  const tips = [...new Set(moves.filter((m) => m.newOid && m.oldOid !== m.newOid).flatMap((m) => [m.oldOid, m.newOid!].filter((o) => o !== null)))];
  const graph = historyOf(repo, tips);
  const plans = moves.map((m): string[] | Violation | null => {
    if (!m.newOid) return m.oldOid ? { rule: 'delete', message: `deleting a handoff ref is only done by \`git handoff archive\` (tip ${m.oldOid.slice(0, 12)})` } : null;
    if (m.oldOid === m.newOid) return null;
    // the batch's walk failed on a missing object: each move read on its own, only the one that lacks it refused
    const own = graph ?? repo.parentsOf(m.oldOid ? [m.oldOid, m.newOid] : [m.newOid]);
    return own ? addedIn(own, m) : { rule: 'missing-object', message: `cannot read the history of ${m.newOid.slice(0, 12)}: an object is missing` };
  });
  const added = plans.filter((p): p is string[] => Array.isArray(p));
  const addedAll = [...new Set(added.flat())];
  const all = readTrailersOf(repo, [...new Set(addedAll.flatMap((o) => [o, ...(graph?.get(o) ?? [])]))]);
  // without the graph, the parents outside what was added are read after their children
  const parents = [...new Set(addedAll.flatMap((o) => all.get(o)?.parents ?? []).filter((p) => !all.has(p)))];
  for (const [oid, t] of readTrailersOf(repo, parents)) all.set(oid, t);
  // one batch-check for every added commit of every move
  const big = oversizedEach(repo, addedAll);
  return moves.map((m, i) => {
    const p = plans[i];
    if (!Array.isArray(p)) return p;
    return addedViolation(withoutRefused(m.newOid!, p, all), all) ?? p.map((o) => big.get(o)).find(Boolean) ?? (ranHere ? notWrittenHere(p, all, ranHere) : null);
  });
}

/** A version arriving from elsewhere that names a session which ran in this clone: someone else's text under its name. */
function notWrittenHere(added: string[], all: Map<string, Trailers & { parents: string[] }>, ranHere: (session: string) => boolean): Violation | null {
  const oid = added.find((o) => ranHere(all.get(o)?.session ?? ''));
  if (oid === undefined) return null;
  const session = all.get(oid)!.session!;
  return { rule: 'not-written-here', commit: oid, message: `commit ${oid.slice(0, 12)} names session ${short(session, [])}, which runs in this clone, but this clone did not write it` };
}

/**
 * Why the remote's version of each handoff cannot be taken (fetch, push, sync states, --resolve), or null: the rule from
 * the local tip (null: none here), from the merge base when diverged, and no version naming a session that ran here.
 */
export function remoteViolations(
  repo: Storage,
  pairs: Array<{ local: string | null; remote: string; state: 'behind' | 'diverged' }>,
): Array<Violation | null> {
  if (pairs.length === 0) return [];
  const bases = pairs.map((p) => (p.state === 'behind' ? p.local : repo.mergeBase(p.local!, p.remote)));
  return checkAdvances(repo, pairs.map((p, i) => ({ oldOid: bases[i], newOid: p.remote })), ranHere(repo.commonDir));
}
