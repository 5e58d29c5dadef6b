// The claims table of a branch (SPEC 10): refs/claims/<B> → a commit whose tree holds claims.json; each change a new
// commit on top whose trailers say who changed what. One ref per branch makes a claim a compare-and-swap.
import type { Config, Storage } from '../../git/storage';
import { HandoffError } from '../../errors';
import { trailerReader } from '../../git/trailers';
import { oneLine } from '../store/document';
import { encodeBranch, trackingOf } from '../store/names';
import { commitRecord } from '../store/tx';
import { claimLive, type Claim } from '../state/claims-marker';
import { overlapping } from './overlap';

export const CLAIMS_PREFIX = 'refs/claims/';
export const claimsRef = (branch: string) => `${CLAIMS_PREFIX}${encodeBranch(branch)}`;
export const trackingClaimsPrefix = (remote: string) => trackingOf(remote, CLAIMS_PREFIX);
export const trackingClaimsRef = (remote: string, branch: string) => `${trackingClaimsPrefix(remote)}${encodeBranch(branch)}`;
/** Every branch's claims table of a remote into its tracking refs (sync carries it in its one handoff fetch). */
export const claimsRefspec = (remote: string) => `+${CLAIMS_PREFIX}*:${trackingClaimsPrefix(remote)}*`;
const TABLE_FILE = 'claims.json';
/** A table larger than this is not read (it is data from a remote): a write over it is refused. */
const TABLE_MAX = 1024 * 1024;

/** A claim made offline that lost to a published one at the next sync. */
export interface ClaimConflict {
  id: string;
  session: string;
  paths: string[];
  note: string | null;
  holder: string;
  holderPaths: string[];
  /** unix seconds */
  at: number;
}

export interface Table {
  claims: Claim[];
  conflicts: ClaimConflict[];
}

export const EMPTY: Table = { claims: [], conflicts: [] };

const str = (v: unknown): v is string => typeof v === 'string';
const strOrNull = (v: unknown) => (str(v) ? oneLine(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function parseClaim(v: any): Claim | null {
  if (!v || !str(v.id) || !str(v.session) || !Array.isArray(v.paths) || !v.paths.every(str) || num(v.since) === null || num(v.expires) === null) return null;
  return {
    id: v.id,
    session: v.session,
    client: strOrNull(v.client),
    paths: v.paths.map(oneLine),
    note: strOrNull(v.note),
    since: v.since,
    expires: v.expires,
    ttl: num(v.ttl) ?? Math.max(1, v.expires - v.since),
    pid: Number.isInteger(v.pid) && v.pid > 0 ? v.pid : null,
    pidStart: strOrNull(v.pidStart),
    host: strOrNull(v.host),
    topic: strOrNull(v.topic),
    worktree: strOrNull(v.worktree),
  };
}

const tableText = (t: Table) => JSON.stringify({ version: 1, claims: t.claims, conflicts: t.conflicts }, null, 1) + '\n';

/** The tables this process wrote or read, by commit: a commit's table never changes, so git is asked once. */
const known = new Map<string, string>();

/** A commit of a table (on no ref yet), remembered so reading it back starts no git. */
export function commitTable(repo: Storage, t: Table, parents: string[], message: ChangeMessage, config: Config): string {
  const text = tableText(t);
  const tree = repo.writeTree([{ name: TABLE_FILE, oid: repo.writeBlobs([text])[0] }]);
  const oid = commitRecord(repo, tree, parents, changeMessage(message), config);
  known.set(oid, text);
  return oid;
}

/** The table at a commit (null: none yet). A table that does not parse is refused (exit 6), never read as empty. */
export function readTable(repo: Storage, oid: string | null): Table {
  if (!oid) return EMPTY;
  let text = known.get(oid);
  let j: any;
  try {
    if (text === undefined) {
      const [blob] = repo.readObjectsBounded([`${oid}:${TABLE_FILE}`], [TABLE_MAX]);
      if (!blob || 'oversize' in blob || blob.type !== 'blob') throw new Error(!blob ? `no ${TABLE_FILE} in it` : 'oversize' in blob ? `${TABLE_FILE} is ${blob.oversize} bytes, over ${TABLE_MAX}` : `${TABLE_FILE} is a ${blob.type}`);
      text = blob.content.toString('utf8');
    }
    j = JSON.parse(text);
  } catch (e) {
    throw new HandoffError('integrity', 'claims-unreadable', `the claims table ${oid.slice(0, 12)} cannot be read (${(e as Error).message.slice(0, 200)}); nothing was changed`, { oid });
  }
  const claims = Array.isArray(j?.claims) ? j.claims.map(parseClaim) : null;
  if (!claims || claims.includes(null)) throw new HandoffError('integrity', 'claims-unreadable', `the claims table ${oid.slice(0, 12)} holds an entry that does not parse; nothing was changed`, { oid });
  const conflicts = Array.isArray(j.conflicts) ? j.conflicts.filter((c: any) => c && str(c.id) && str(c.session) && str(c.holder)) : [];
  known.set(oid, text);
  return { claims, conflicts };
}

export interface ChangeMessage {
  branch: string;
  session: string;
  action: 'claim' | 'renew' | 'release' | 'take-over' | 'publish';
  paths: string[];
  note?: string | null;
  expires?: number | null;
  takeoverFrom?: string[];
  reason?: string | null;
}

/** A table's change as changeMessage's trailers say it. */
export const readClaimChange = trailerReader(
  { session: 'Claude-Session-Id', branch: 'Handoff-Branch', action: 'Handoff-Claim', reason: 'Handoff-Reason' },
  { paths: 'Handoff-Claim-Path', from: 'Handoff-Takeover-From' },
);

function changeMessage(m: ChangeMessage): string {
  const shown = m.paths.slice(0, 3).join(' ') + (m.paths.length > 3 ? ` (+${m.paths.length - 3})` : '');
  const lines = [`Claude-Session-Id: ${m.session}`, `Handoff-Branch: ${oneLine(m.branch)}`, `Handoff-Claim: ${m.action}`];
  for (const p of m.paths) lines.push(`Handoff-Claim-Path: ${oneLine(p)}`);
  if (m.note) lines.push(`Handoff-Claim-Note: ${oneLine(m.note)}`);
  if (m.expires) lines.push(`Handoff-Claim-Expires: ${new Date(m.expires * 1000).toISOString()}`);
  for (const f of m.takeoverFrom ?? []) lines.push(`Handoff-Takeover-From: ${f}`);
  if (m.reason) lines.push(`Handoff-Reason: ${oneLine(m.reason)}`);
  return `claim(${oneLine(m.branch)}): ${m.action} ${oneLine(shown)}\n\n${lines.join('\n')}\n`;
}

/** Claims added here that lost to a live overlapping claim of another session's, each with the claim it lost to. */
export type Lost = Array<{ claim: Claim; holder: Claim }>;

/**
 * Three-way merge by claim id: `theirs` (the remote's table) with what `mine` changed since `base`. A claim added here
 * that overlaps a live one of another session's there is not taken: it is returned in `lost`.
 */
export function mergeTables(base: Table, mine: Table, theirs: Table, nowMs: number): { table: Table; lost: Lost } {
  const baseIds = new Map(base.claims.map((c) => [c.id, c]));
  const mineIds = new Map(mine.claims.map((c) => [c.id, c]));
  const out = new Map(theirs.claims.map((c) => [c.id, c]));
  // released here: in the base, gone from mine
  for (const id of baseIds.keys()) if (!mineIds.has(id)) out.delete(id);
  const lost: Lost = [];
  for (const c of mine.claims) {
    const b = baseIds.get(c.id);
    if (b) {
      // renewed here: the later expiry, while theirs still has it
      const t = out.get(c.id);
      if (t && c.expires > t.expires) out.set(c.id, { ...t, expires: c.expires, note: c.note });
      continue;
    }
    if (out.has(c.id) || !claimLive(c, nowMs)) continue;
    const holder = [...out.values()].find((x) => x.session !== c.session && claimLive(x, nowMs) && overlapping(c.paths, x.paths).length > 0);
    if (holder) lost.push({ claim: c, holder });
    else out.set(c.id, c);
  }
  const conflicts = [...theirs.conflicts, ...lost.map(({ claim, holder }) => ({ id: claim.id, session: claim.session, paths: claim.paths, note: claim.note, holder: holder.session, holderPaths: holder.paths, at: Math.floor(nowMs / 1000) }))];
  return { table: { claims: [...out.values()], conflicts: conflicts.slice(-50) }, lost };
}
