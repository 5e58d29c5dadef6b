// Ownership follows the work across a new session id in the same client process (/clear, compaction): the successor
// inherits the lease, the handoffs on the branch (takeovers, `Handoff-Reason: lineage (<source>)`) and the claims.
import { HandoffError } from '../../errors';
import type { Config, Storage } from '../../git/storage';
import { parseTrailerLines } from './document';
import { isLive, leaseTtlMs, readLease, touchLease } from './leases';
import { recordRelease, recordWrites, worktreeActivity } from '../state/ledger';
import { claimRecord, listRecords, processStart, readRecord, successorOf, writeRecord, type LineageRecord } from '../state/lineage-record';
import { branchPrefix, parseRef } from './names';
import type { SessionRef } from '../state/session';
import { writeHandoff } from './store';

/** Sources after which a new id in the same process continues the earlier session (`tool`: first seen at a tool call). */
const CONTINUING = new Set(['clear', 'compact', 'tool']);

export interface Arrival {
  session: SessionRef;
  worktree: string;
  /** the checked-out branch, null when detached */
  branch: string | null;
  /** the client process, null when the client does not tell */
  pid: number | null;
  /** SessionStart source (startup, resume, clear, compact) or `tool` */
  source: string;
  config?: Config;
}

/** The session this arrival continues: the latest unsucceeded one seen in the same process, else the live lease holder with its pid. */
export function findPredecessor(repo: Storage, a: Arrival, records: LineageRecord[], ttlMs: number): string | null {
  if (a.pid === null || !CONTINUING.has(a.source)) return null;
  const start = processStart(a.pid);
  const same = records.filter(
    (r) =>
      r.session !== a.session.id &&
      r.pid === a.pid &&
      r.client === a.session.client &&
      start !== null &&
      r.procStart === start &&
      !successorOf(r.session, records),
  );
  if (same.length) return same[same.length - 1].session;
  const lease = readLease(repo, a.worktree);
  if (!lease || lease.session === a.session.id || lease.pid !== a.pid || !isLive(lease, ttlMs)) return null;
  const known = records.find((r) => r.session === lease.session);
  if (known && (successorOf(known.session, records) || (known.procStart && start && known.procStart !== start))) return null;
  return lease.session;
}

/** Notes a session at its first sight (`created`; or a resume's new pid) and, when it continues another, inherits from it. */
export function noteArrival(repo: Storage, a: Arrival): { record: LineageRecord; created: boolean; inherited: ReturnType<typeof inherit> | null } {
  const me = a.session.id;
  const existing = readRecord(repo.commonDir, me);
  if (existing) {
    // A resumed id in a new process: only the pid changes.
    if (a.pid !== null && existing.pid !== a.pid) {
      const record = { ...existing, pid: a.pid, procStart: processStart(a.pid) };
      writeRecord(repo.commonDir, record);
      return { record, created: false, inherited: null };
    }
    return { record: existing, created: false, inherited: null };
  }
  const config = a.config ?? repo.config();
  const records = listRecords(repo.commonDir);
  const from = findPredecessor(repo, a, records, leaseTtlMs(config));
  const record: LineageRecord = {
    session: me,
    client: a.session.client,
    pid: a.pid,
    procStart: a.pid === null ? null : processStart(a.pid),
    worktree: a.worktree,
    source: a.source,
    from,
    t: Date.now(),
    inherited: [],
    lease: false,
  };
  // Parallel tool calls start guards at once: the first to claim the record does the inheriting.
  if (!claimRecord(repo.commonDir, record)) return { record: readRecord(repo.commonDir, me) ?? record, created: false, inherited: null };
  if (!from) return { record, created: true, inherited: null };
  const inherited = inherit(repo, a, from, config);
  const done = { ...record, inherited: inherited.refs, lease: inherited.lease };
  writeRecord(repo.commonDir, done);
  return { record: done, created: true, inherited };
}

/** What a new session takes over from the one it continues: its handoff refs, its lease, its ledger paths. */
function inherit(repo: Storage, a: Arrival, from: string, config: Config) {
  const me = a.session.id;
  const reason = `lineage (${a.source})`;
  let lease = false;
  if (readLease(repo, a.worktree)?.session === from) {
    const r = touchLease(repo, me, a.worktree, { client: a.session.client, pid: a.pid, config, from, minIntervalMs: 0 });
    lease = r.status === 'acquired';
  }
  const refs: string[] = [];
  if (a.branch) {
    for (const rec of repo.listRefs([branchPrefix(a.branch)])) {
      const p = parseRef(rec.ref);
      if (!p || parseTrailerLines(rec.trailers).session !== from) continue;
      const [body] = repo.readObjects([`${rec.oid}:handoff.md`]);
      try {
        const w = writeHandoff(repo, { topic: p.topic, body: body ? body.content : '', branch: a.branch, session: a.session, takeover: { reason, from }, config });
        refs.push(w.ref);
      } catch (e) {
        // It changed hands in the meantime (its owner wrote elsewhere, or someone took it over): leave it.
        if (!(e instanceof HandoffError && e.kind === 'owned')) throw e;
      }
    }
  }
  const paths = worktreeActivity(repo.commonDir, a.worktree).get(from)?.paths ?? [];
  recordWrites(repo.commonDir, me, a.worktree, paths);
  recordRelease(repo.commonDir, from, a.worktree, 'lineage');
  return { from, refs, lease, paths };
}
