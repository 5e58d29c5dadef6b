// Worktree leases (SPEC 2): refs/handoff-leases/<encoded worktree> → a commit naming the session; its
// committer time is the heartbeat. Local only, moved by compare-and-swap like every other ref.
import { parseCommit, RefRecord, type Config, type Storage } from '../../git/storage';
import { setting } from '../../config-keys';
import { trailerReader } from '../../git/trailers';
import { COMMIT_MAX, TRAILER } from './document';
import { LEASE_PREFIX, decodeBranch, leaseRef } from './names';
import { commitRecord, moveRef } from './tx';
import { LOST, LOST_RACE, untilWon, type BackoffPolicy } from '../../retry';
import { processGone, type ClientProcess } from '../state/session-process';

/** A lease as its ref and commit say: the holder, its worktree, its client process (pid, start time, host) and heartbeat (unix seconds). */
export type Lease = ReturnType<typeof listLeases>[number];

export const leaseTtlMs = (c: Config) => setting(c, 'leaseTTL');
/** Live: a heartbeat younger than the TTL, and the client process it names on this host not gone. */
export const isLive = (l: { time: number; pid?: number | null; pidStart?: string | null; host?: string | null }, ttlMs: number, now = Date.now()) =>
  now - l.time * 1000 < ttlMs && !processGone({ pid: l.pid ?? null, start: l.pidStart, host: l.host });

/** A lease commit's trailers, in the order written; `from` is written for the record only. */
const LEASE_TRAILER = {
  session: TRAILER.session,
  worktree: 'Handoff-Worktree',
  client: TRAILER.client,
  pid: 'Handoff-Pid',
  pidStart: 'Handoff-Pid-Start',
  host: 'Handoff-Host',
  from: 'Handoff-Lineage-From',
};
// through the one parser: an ambiguous block names no holder (SPEC 2); a worktree path may hold a tab
const readLeaseTrailers = trailerReader(LEASE_TRAILER, {}, { controlsInValues: true });

/** Every lease of the repository, from one for-each-ref, or from `recs`. */
export function listLeases(repo: Storage, recs: readonly RefRecord[] = repo.listRefs([LEASE_PREFIX])) {
  return recs.flatMap((r) => {
    const t = readLeaseTrailers(r.trailers);
    const session = t.session;
    if (!session) return [];
    const pid = Number(t.pid ?? undefined);
    return [{
      ref: r.ref,
      oid: r.oid,
      session,
      worktree: t.worktree ?? decodeBranch(r.ref.slice(LEASE_PREFIX.length)) ?? '',
      client: t.client,
      pid: Number.isFinite(pid) && pid > 0 ? pid : null,
      pidStart: t.pidStart,
      host: t.host,
      time: r.time,
    }];
  });
}

export function readLease(repo: Storage, worktree: string): Lease | null {
  const ref = leaseRef(worktree);
  return listLeases(repo).find((l) => l.ref === ref) ?? null;
}

export interface TouchOptions {
  client?: string | null;
  pid?: number | null;
  /** the client process the pid names (its start time and host), recorded beside it */
  process?: ClientProcess | null;
  /** do not rewrite a heartbeat younger than this (default one minute) */
  minIntervalMs?: number;
  config?: Config;
  now?: number;
  /** take the lease over from this session even while it is live (lineage: the same client process, a new session id), recorded as Handoff-Lineage-From */
  from?: string | null;
}

/** `lost`: every try lost its race, so this session neither took nor refreshed the lease (`lease`: what is there now). */
export type TouchResult =
  | { status: 'acquired' | 'refreshed' | 'fresh' | 'lost'; lease: Lease | null }
  | { status: 'held'; lease: Lease };

/** A heartbeat is not worth a long wait: the next call tries again. */
const LEASE_RACE: BackoffPolicy = { ...LOST_RACE, attempts: 5 };

let emptyTree: string | null = null;

/** Acquires or refreshes this worktree's lease for `session`; a live lease of another session is left alone. */
export function touchLease(repo: Storage, session: string, worktree: string, o: TouchOptions = {}): TouchResult {
  const config = o.config ?? repo.config();
  const now = o.now ?? Date.now();
  const ttl = leaseTtlMs(config);
  return untilWon<TouchResult>(() => {
    const cur = readLease(repo, worktree);
    if (cur && cur.session !== session && isLive(cur, ttl, now) && cur.session !== o.from) return { status: 'held', lease: cur };
    if (cur && cur.session === session && now - cur.time * 1000 < (o.minIntervalMs ?? 60_000) && (o.pid ?? null) === cur.pid) {
      return { status: 'fresh', lease: cur };
    }
    emptyTree ??= repo.writeTree([]);
    const proc = o.pid && o.process?.pid === o.pid ? o.process : null;
    const values = { session, worktree, client: o.client, pid: o.pid, pidStart: proc?.start, host: proc?.host, from: o.from };
    const lines = Object.entries(values).flatMap(([k, v]) => (v ? [`${LEASE_TRAILER[k as keyof typeof values]}: ${String(v).replace(/[\r\n]/g, ' ')}`] : []));
    const oid = commitRecord(repo, emptyTree, [], `lease: ${session}\n\n${lines.join('\n')}\n`, config);
    const r = moveRef(repo, leaseRef(worktree), oid, cur?.oid ?? null, 'handoff lease');
    return r.ok ? { status: cur?.session === session ? 'refreshed' : 'acquired', lease: writtenLease(repo, leaseRef(worktree), oid, lines) } : LOST;
  }, { policy: LEASE_RACE, otherwise: () => ({ status: 'lost', lease: readLease(repo, worktree) }) });
}

/** The lease just written, from its own trailer lines and its commit's time: no listing of every lease again. */
function writtenLease(repo: Storage, ref: string, oid: string, lines: string[]): Lease | null {
  const [[commit]] = repo.readCommitFiles([oid], [], [COMMIT_MAX]);
  const time = commit && !('oversize' in commit) ? parseCommit(commit.content).committerTime : 0;
  return listLeases(repo, [new RefRecord(ref, oid, time, `${lines.join('\n')}\n`)])[0] ?? null;
}

/** Deletes this worktree's lease if `session` holds it (compare-and-swap on its current value). */
export function releaseLease(repo: Storage, worktree: string, session: string): boolean {
  const cur = readLease(repo, worktree);
  if (!cur || cur.session !== session) return false;
  return moveRef(repo, cur.ref, null, cur.oid, 'handoff lease release').ok;
}
