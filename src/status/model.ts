// What `status` and `web` show: the sessions of this clone and the ones the remote knows of, what each
// holds, the branch's handoffs, and what needs a person, as one value read from the same reads the other commands
// make (list --all's kept listing, the claims tables, the leases and ledger, the loss record's check).
import { readConfig } from '../git/config';
import { trace } from '../trace';
import { shellQuote } from '../terminal-text';
import type { RefRecord } from '../git/storage';
import { trailerBlockLines } from '../git/trailers';
import type { Repo } from '../git/repo';
import { claimsRemote, listClaims } from '../handoff/claims/claims';
import { CLAIMS_PREFIX, readClaimChange, trackingClaimsPrefix } from '../handoff/claims/table';
import { compareRecord, unchangedSinceCheck } from '../handoff/record/record-check';
import { listTracked, readRecord, readSeen, RECORD_REF } from '../handoff/store/tx/record';
import { readContacts } from '../handoff/state/contact';
import { readRefusals } from '../handoff/state/refusals';
import { thisHost } from '../handoff/state/session-process';
import { listSessions, type SessionInfo } from '../handoff/store/sessions';
import { isKnownSession } from '../handoff/state/lineage-record';
import { forReader, isRead, type Reader } from '../handoff/store/address';
import { parseTrailerBlock } from '../handoff/store/document';
import { HANDOFF_PREFIX, handoffRef, LEASE_PREFIX, NOTES_REF } from '../handoff/store/names';
import { readReceipts } from '../handoff/store/receipts';
import { remoteOnlyHandoffs } from '../handoff/store/remote-only';
import { listHandoffs, readListing, type HandoffRow } from '../handoff/store/store';
import { trackingTips } from '../handoff/store/sync-state';
import { resolveStep } from '../sync/resolve';
import type { Attention, Status, StatusClaim, StatusHandoff, StatusSession } from './shape';

/** The JSON of `status --json` and of the page's data (SPEC 4, "status --json"); extra fields may come, none go. */
const STATUS_VERSION = 1;
const DAY_MS = 86_400_000;
/** A live claim ending within this is told as about to expire. */
const EXPIRING_MS = 15 * 60_000;
/** Past this many refs written in the last day, takeovers are read from the tips alone (no history walk). */
const RECENT_WALK_MAX = 200;

const iso = (ms: number) => new Date(ms).toISOString();

/** Reads the whole status once. Git processes: the listing (list's), the leases, one of claims, notes and their times, and the history of the last day where any ref moved. */
export function readStatus(repo: Repo, o: { all?: boolean; branch?: string; reader: Reader | null; justChecked?: boolean }): Status {
  const now = Date.now();
  const config = readConfig(repo);
  const { remote } = claimsRemote(repo, config);
  const all = !!o.all || (!o.branch && !repo.branch);
  const branch = all ? null : (o.branch ?? repo.branch);
  const scope = { all, branch: branch ?? undefined };
  const read = readListing(repo, scope);
  const rows: Array<HandoffRow & { fetch?: string }> = [...listHandoffs(repo, scope), ...remoteOnlyHandoffs(repo, scope)];
  trace('status handoffs');
  // the leases, the claims tables and the receipts' notes, with their times: one for-each-ref
  const side = repo.keepRefs([LEASE_PREFIX, CLAIMS_PREFIX, ...(remote ? [trackingClaimsPrefix(remote)] : []), NOTES_REF]);
  const { claims: views, conflicts } = listClaims(repo, { branch, nowMs: now, remote });
  // a claim's times ISO 8601, without what only its holder's process checks
  const claims = views.map(({ ttl: _ttl, pid: _pid, pidStart: _start, ...c }): StatusClaim => ({ ...c, since: iso(c.since * 1000), expires: iso(c.expires * 1000) }));
  const handoffs = withReceipts(repo, rows, o.reader, side.find((r) => r.ref === NOTES_REF)?.oid ?? null);
  trace('status claims and receipts');
  const here = thisHost();
  const sessions = sessionsOf(repo, handoffs, claims, all, here, now);
  trace('status sessions');
  const attention = [
    ...syncAttention(repo, handoffs, read),
    ...conflicts.filter((c) => now - c.at * 1000 < DAY_MS).map((c): Attention => ({
      kind: 'claim-conflict',
      at: iso(c.at * 1000),
      session: c.session,
      message: `on ${c.branch}: session ${c.session}'s offline claim on ${c.paths.join(', ')} lost to session ${c.holder}'s on ${c.holderPaths.join(', ')}`,
    })),
    ...readRefusals(repo.commonDir, now - DAY_MS).map((r): Attention => ({
      kind: 'refused-call',
      at: r.t,
      session: r.session,
      // the whole reason (holder, note, expiry, ways on): the one-line views shorten it
      message: `${r.by === 'guard' ? `${r.client ?? 'an agent'}'s tool call refused: ${r.what}` : r.by.startsWith('githook:') ? `the git hook ${r.by.slice(8)} refused: ${r.what}` : `${r.what} refused`}\n${r.why}`,
    })),
    ...takeovers(repo, read, side, now),
    ...recordAttention(repo, !!o.justChecked),
    ...claimAttention(claims, remote, now),
    ...contactAttention(repo, remote, now),
  ].sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
  trace('status attention');
  return {
    version: STATUS_VERSION,
    generatedAt: iso(now),
    scope: all ? 'all' : 'branch',
    branch,
    worktree: repo.worktree,
    host: here,
    remote,
    caller: o.reader ? { id: o.reader.id, addressees: o.reader.addressees } : null,
    sessions,
    handoffs,
    claims,
    attention,
  };
}

/** Each row with whether it is addressed to the caller and unread by it (the notes read only when some row is for it). */
function withReceipts(repo: Repo, rows: Array<HandoffRow & { fetch?: string }>, reader: Reader | null, notes: string | null): StatusHandoff[] {
  // the rows are this read's own: completed in place (a whole store is 10,000 of them)
  const out = rows as StatusHandoff[];
  const forCaller = (r: HandoffRow) => !!reader && r.session !== reader.id && forReader(r.to, reader);
  const wanted = rows.filter(forCaller).map((r) => r.oid);
  const receipts = wanted.length && notes ? readReceipts(repo, wanted, notes) : new Map();
  for (const r of out) {
    r.addressed = !!reader && r.to.some((a) => reader.addressees.includes(a));
    r.unread = forCaller(r) ? !isRead(receipts.get(r.oid), reader!) : null;
  }
  return out;
}

/**
 * One entry per session: this clone's (leases and ledger), the holders of live claims (this clone's tables and the
 * remote's as last fetched) and the owners of the scope's handoffs (here and on the remote's tracking refs).
 */
function sessionsOf(repo: Repo, handoffs: StatusHandoff[], claims: StatusClaim[], all: boolean, here: string, now: number): StatusSession[] {
  // `seen`: the newest sign of each, as ISO 8601 (which sorts as time does)
  const out = new Map<string, StatusSession & { seen: string }>();
  const local = new Map<string, SessionInfo & { seen: string }>();
  for (const l of listSessions(repo, { now })) {
    const last = Math.max(l.heartbeat ?? 0, l.lastActivity ?? 0);
    const seen = last ? iso(last) : '';
    // a session known in several worktrees: the one it was seen in last
    if ((local.get(l.session)?.seen ?? '') <= seen) local.set(l.session, { ...l, seen });
  }
  // a session that ran in this clone (its leases, ledger or lineage record) is placed here, with the status its
  // records give, in every scope, whether or not its handoffs have reached the remote since
  const touch = (id: string, mine: boolean, seen: string): StatusSession & { seen: string } => {
    let s = out.get(id);
    if (!s) {
      const l = local.get(id);
      out.set(id, (s = { session: id, client: l?.client ?? null, status: l?.status ?? 'known', where: mine || !!l || isKnownSession(repo.commonDir, id) ? 'here' : 'remote', worktree: l?.worktree ?? null, host: l ? (l.host ?? here) : null, lastActivity: null, handoffs: [], claims: [], seen: l && l.seen > seen ? l.seen : seen }));
    } else {
      if (mine) s.where = 'here';
      if (seen > s.seen) s.seen = seen;
    }
    return s;
  };
  // this clone's worktrees, as its sessions name them: a claim made in one is a session of this clone
  const worktrees = new Set([repo.worktree, ...[...local.values()].map((l) => l.worktree)]);
  for (const l of local.values()) if (all || l.status === 'live') touch(l.session, true, l.seen);
  for (const c of claims) {
    const s = touch(c.session, c.where === 'local' || worktrees.has(c.worktree), c.since);
    s.claims.push(c);
    if (s.status === 'known') s.status = 'claiming';
    s.client ??= c.client;
    s.host ??= c.host;
    s.worktree ??= c.worktree;
  }
  for (const h of handoffs) {
    if (!h.session) continue;
    const s = touch(h.session, h.sync === 'local' || h.sync === 'ahead', h.updatedAt);
    s.handoffs.push({ branch: h.branch, topic: h.topic });
    s.client ??= h.client;
  }
  // this clone's own records are of this machine
  for (const s of out.values()) if (s.where === 'here') s.host ??= here;
  const rank = (s: StatusSession) => (s.status === 'live' ? 0 : s.status === 'claiming' ? 1 : 2);
  return [...out.values()]
    .sort((a, b) => rank(a) - rank(b) || b.seen.localeCompare(a.seen) || a.session.localeCompare(b.session))
    .map(({ seen, ...s }) => ({ ...s, lastActivity: seen || null }));
}

/**
 * Diverged and refused handoffs, each with the `sync --resolve` its owner pastes at a terminal, naming the remote
 * whose copy it stands against (from the listing's tracking records, no git process), and the owner of its local
 * version (one git process per such handoff).
 */
function syncAttention(repo: Repo, handoffs: StatusHandoff[], read: RefRecord[]): Attention[] {
  const open = handoffs.filter((h) => h.sync === 'diverged' || h.sync === 'refused');
  if (open.length === 0) return [];
  const tips = trackingTips(repo, read.filter((r) => !r.ref.startsWith(HANDOFF_PREFIX)));
  return open.map((h): Attention => {
    const remote = tips.get(h.ref)?.remote;
    const theirs = remote ? `${remote}'s copy` : "the remote's copy";
    const diverged = h.sync === 'diverged';
    return {
      kind: diverged ? 'diverged' : 'refused-handoff',
      at: h.updatedAt,
      session: h.session,
      ref: h.ref,
      message: diverged ? `${h.topic} on ${h.branch} diverged from ${theirs}: both sides wrote a version` : `${h.topic} on ${h.branch}: ${theirs} breaks the ownership rule and is not taken`,
      command: resolveStep(repo, h.ref, h.oid, repo.branch, remote, diverged ? 'both' : null),
    };
  });
}

/** Takeovers of handoffs and of claims in the last day: the tips of the listing, and the history of the refs that moved that day. */
function takeovers(repo: Repo, read: RefRecord[], side: RefRecord[], now: number): Attention[] {
  const since = Math.floor((now - DAY_MS) / 1000);
  const recent = read.filter((r) => r.time >= since && (r.ref.startsWith('refs/handoffs/') || /^refs\/remotes\/[^/]+\/handoffs\//.test(r.ref)));
  const out = new Map<string, Attention>();
  const add = (oid: string, time: number, block: string) => {
    const t = parseTrailerBlock(block);
    if (!t.takeoverFrom || time < since || out.has(oid)) return;
    out.set(oid, {
      kind: 'takeover',
      at: iso(time * 1000),
      session: t.session,
      ref: t.branch && t.topic ? handoffRef(t.branch, t.topic) : undefined,
      message: `${t.topic ?? 'a handoff'}${t.branch ? ` on ${t.branch}` : ''} taken over by ${t.session ?? 'unknown'} from ${t.takeoverFrom}${t.reason ? `: ${t.reason}` : ''}`,
      command: t.topic ? `git handoff log ${t.topic}${t.branch ? ` --branch ${shellQuote(t.branch)}` : ''}` : undefined,
    });
  };
  if (recent.length > RECENT_WALK_MAX) for (const r of recent) add(r.oid, r.time, r.block);
  else for (const c of logSince(repo, recent.map((r) => r.ref), since)) add(c.oid, c.time, c.block);
  const claimRefs = side.filter((r) => r.ref !== NOTES_REF && !r.ref.startsWith(LEASE_PREFIX) && r.time >= since);
  for (const c of logSince(repo, claimRefs.map((r) => r.ref), since)) {
    const t = readClaimChange(trailerBlockLines(c.block));
    if (t.problem || t.action !== 'take-over') continue;
    const message = `claim on ${t.paths.join(', ')}${t.branch ? ` (${t.branch})` : ''} taken over by ${t.session ?? 'unknown'} from ${t.from.join(', ')}${t.reason ? `: ${t.reason}` : ''}`;
    // a table's commit reached from both the local and the remote's ref is one takeover
    if (!out.has(message + c.time)) out.set(message + c.time, { kind: 'claim-takeover', at: iso(c.time * 1000), session: t.session, message });
  }
  return [...out.values()];
}

/** The commits reachable from `refs` made since `since` (unix seconds): oid, time and git's trailer block. */
const logSince = (repo: Repo, refs: string[], since: number) =>
  repo.logFields(refs, ['%H', '%ct', '%(trailers)'], { since }).map(([oid, time, block]) => ({ oid, time: Number(time), block }));

/**
 * What the loss record's comparison finds now, read only (the page writes nothing, and a command's start has run the
 * check that takes legitimate moves into the record already): stat calls alone while the ref storage is as the last
 * check that found everything in place left it, else the refs against the record (record-check.ts's comparison).
 * `justChecked`: that check ran a moment ago in this process, and its stat calls stand.
 */
function recordAttention(repo: Repo, justChecked: boolean): Attention[] {
  try {
    if (unchangedSinceCheck(repo.commonDir, justChecked)) return [];
    const refs = listTracked(repo);
    const recorded = refs.get(RECORD_REF) ?? null;
    refs.delete(RECORD_REF);
    const problem = (why: string): Attention[] => [{ kind: 'record-problem', at: null, session: null, message: `the loss record: ${why}`, command: 'git handoff recover' }];
    if (!recorded) return readSeen(repo)?.record ? problem(`it (${RECORD_REF}) was deleted`) : [];
    const rec = readRecord(repo, recorded);
    if (rec.problem) return problem(rec.problem);
    const last = readSeen(repo)?.at ?? 0;
    return compareRecord(repo, rec, refs).losses.map((l): Attention => ({ kind: 'loss', at: iso(Math.max(l.seen, last) * 1000), session: null, ref: l.ref, message: `${l.ref}: ${l.detail}`, command: l.command }));
  } catch {
    return [];
  }
}

function claimAttention(claims: StatusClaim[], remote: string | null, now: number): Attention[] {
  return claims.flatMap((c): Attention[] => {
    const out: Attention[] = [];
    const left = Date.parse(c.expires) - now;
    if (left < EXPIRING_MS) {
      // renewed by the holder's own activity (SPEC 10), or by it claiming the same paths again: nothing to run for it here
      out.push({ kind: 'claim-expiring', at: c.expires, session: c.session, message: `${c.session}'s claim on ${c.paths.join(', ')} (${c.branch}) expires in ${Math.max(1, Math.round(left / 60_000))} min${c.note ? ` ("${c.note}")` : ''}` });
    }
    if (c.where === 'local' && remote) {
      out.push({ kind: 'claim-unpublished', at: c.since, session: c.session, message: `${c.session}'s claim on ${c.paths.join(', ')} (${c.branch}) is not published to ${remote}: other clones do not see it`, command: 'git handoff sync' });
    }
    return out;
  });
}

function contactAttention(repo: Repo, remote: string | null, now: number): Attention[] {
  return Object.entries(readContacts(repo.commonDir)).flatMap(([name, c]): Attention[] => {
    if (c.ok || now - Date.parse(c.at) > DAY_MS || (remote && name !== remote)) return [];
    return [{ kind: 'remote-unreachable', at: c.at, session: null, message: `${name} was not reached (${c.why ?? 'no answer'})${c.lastOk ? `; last reached ${c.lastOk}` : '; never reached from here'}: what is shown of it is as of the last fetch`, command: `git handoff fetch ${name}` }];
  });
}
