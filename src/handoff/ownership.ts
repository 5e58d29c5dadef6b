// The ownership invariant (SPEC 2), the one implementation every writer, hook and sync calls:
// a handoff ref only moves forward, and each added commit keeps the owner or is a takeover naming it.
import { HandoffError } from '../errors';
import { readObjects, parseCommit } from '../git/objects';
import type { Repo } from '../git/repo';
import { parseMessageTrailers, type Trailers } from './document';
import { short } from './session';

export interface Tip {
  oid: string;
  session: string | null;
  time: number;
}

export type WriteMode = 'create' | 'own' | 'takeover';

/** Decides whether `session` may add a version on top of `tip`; throws the refusal (exit 3) when not. */
export function checkWrite(tip: Tip | null, session: string, takeover: boolean, ref: string, topic: string): WriteMode {
  if (!tip) return 'create';
  if (tip.session === session) return 'own';
  if (takeover) return 'takeover';
  throw ownedError(tip, session, ref, topic);
}

export function ownedError(tip: Tip, session: string, ref: string, topic: string): HandoffError {
  const when = tip.time ? new Date(tip.time * 1000).toISOString() : 'unknown time';
  return new HandoffError(
    'owned',
    'owned-by-another-session',
    `${ref} is owned by session ${short(tip.session)} (last version ${when}); you are session ${short(session)}.\n` +
      `Ways on:\n` +
      `  1. write under a new topic: git handoff write <new-topic> …\n` +
      `  2. take it over, on the record: git handoff write ${topic} --take-over --reason "<why>" …`,
    { ref, owner: tip.session, ownerShort: short(tip.session), lastVersion: when, session, tip: tip.oid },
  );
}

export interface Violation {
  rule: 'rewrite' | 'foreign-owner' | 'delete' | 'no-session' | 'missing-object';
  commit?: string;
  message: string;
}

/** Trailers of many commits, read in one process. */
export function readTrailersOf(repo: Repo, oids: string[]): Map<string, Trailers & { parents: string[] }> {
  const objs = readObjects(repo, oids);
  const out = new Map<string, Trailers & { parents: string[] }>();
  objs.forEach((o, i) => {
    if (!o || o.type !== 'commit') return;
    const c = parseCommit(o.content);
    out.set(oids[i], { ...parseMessageTrailers(c.message), parents: c.parents });
  });
  return out;
}

/**
 * Checks a ref move old → new against the invariant. Creation is free; a deletion is reported (only
 * `archive` may delete, and its caller knows). Returns null when the move keeps the invariant.
 */
export function checkAdvance(repo: Repo, oldOid: string | null, newOid: string | null): Violation | null {
  if (!oldOid) return null;
  if (!newOid) return { rule: 'delete', message: `deleting a handoff ref is only done by \`git handoff archive\` (tip ${oldOid.slice(0, 12)})` };
  if (oldOid === newOid) return null;
  const anc = repo.git(['merge-base', '--is-ancestor', oldOid, newOid], { allowFail: true });
  if (anc.status === 1) {
    return { rule: 'rewrite', message: `history rewritten: ${newOid.slice(0, 12)} does not descend from ${oldOid.slice(0, 12)}` };
  }
  if (anc.status !== 0) return { rule: 'missing-object', message: `cannot compare ${oldOid.slice(0, 12)} and ${newOid.slice(0, 12)}: ${anc.stderr.trim()}` };
  const added = repo.out(['rev-list', newOid, `^${oldOid}`]).split('\n').filter(Boolean);
  const first = readTrailersOf(repo, added);
  const parents = new Set<string>();
  for (const t of first.values()) for (const p of t.parents) if (!first.has(p)) parents.add(p);
  return addedViolation(added, new Map([...first, ...readTrailersOf(repo, [...parents])]));
}

/** The rule on each added commit: it carries a session, and keeps each parent's owner or names it as taken over. */
function addedViolation(added: string[], all: Map<string, Trailers & { parents: string[] }>): Violation | null {
  for (const oid of added) {
    const c = all.get(oid);
    if (!c) return { rule: 'missing-object', commit: oid, message: `commit ${oid.slice(0, 12)} cannot be read` };
    if (!c.session) return { rule: 'no-session', commit: oid, message: `commit ${oid.slice(0, 12)} carries no Claude-Session-Id` };
    for (const p of c.parents) {
      const owner = all.get(p)?.session ?? null;
      if (owner && c.session !== owner && c.takeoverFrom !== owner) {
        return {
          rule: 'foreign-owner',
          commit: oid,
          message: `commit ${oid.slice(0, 12)} by session ${short(c.session)} adds to session ${short(owner)}'s handoff without a takeover (Handoff-Takeover-From: ${owner})`,
        };
      }
    }
  }
  return null;
}

export interface Move {
  oldOid: string | null;
  newOid: string | null;
}

/**
 * checkAdvance for many moves at once (a fetch or a push of many handoffs): one rev-list and one cat-file
 * for all of them instead of three processes each. Returns one verdict per move, in order.
 */
export function checkAdvances(repo: Repo, moves: Move[]): Array<Violation | null> {
  const live = moves.filter((m) => m.oldOid && m.newOid && m.oldOid !== m.newOid);
  if (live.length === 0) return moves.map((m) => checkAdvance(repo, m.oldOid, m.newOid));
  const tips = [...new Set(live.flatMap((m) => [m.oldOid!, m.newOid!]))];
  const r = repo.git(['rev-list', '--parents', ...tips], { allowFail: true });
  // A missing object: let the single check name it.
  if (r.status !== 0) return moves.map((m) => checkAdvance(repo, m.oldOid, m.newOid));
  const graph = new Map<string, string[]>();
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const [c, ...ps] = line.split(' ');
    graph.set(c, ps);
  }
  const reach = (from: string, stop: Set<string> = new Set()): Set<string> => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const c = stack.pop()!;
      if (seen.has(c) || stop.has(c)) continue;
      seen.add(c);
      stack.push(...(graph.get(c) ?? []));
    }
    return seen;
  };
  const plans = moves.map((m) => {
    if (!m.oldOid || !m.newOid || m.oldOid === m.newOid) return null;
    const old = reach(m.oldOid);
    if (!reach(m.newOid).has(m.oldOid)) return { rewrite: true, added: [] as string[] };
    return { rewrite: false, added: [...reach(m.newOid, old)] };
  });
  const need = new Set<string>();
  for (const p of plans) for (const oid of p?.added ?? []) for (const x of [oid, ...(graph.get(oid) ?? [])]) need.add(x);
  const all = readTrailersOf(repo, [...need]);
  return moves.map((m, i) => {
    const p = plans[i];
    if (!p) return checkAdvance(repo, m.oldOid, m.newOid);
    if (p.rewrite) return { rule: 'rewrite', message: `history rewritten: ${m.newOid!.slice(0, 12)} does not descend from ${m.oldOid!.slice(0, 12)}` };
    return addedViolation(p.added, all);
  });
}
