// Who is live in which worktree, from leases and the guard's ledger: for the pre-commit rule and `git handoff sessions`.
import path from 'node:path';
import { realpathOr } from '../../read-file';
import type { Config, Storage } from '../../git/storage';
import { isLive, leaseTtlMs, listLeases, releaseLease, type Lease } from './leases';
import { readLedger, recordRelease, worktreeActivity } from '../state/ledger';
import { listRecords } from '../state/lineage-record';
import { processGone, readSessionProcesses } from '../state/session-process';

/**
 * live; ended: its client said so (SessionEnd); released: `git handoff release` (or lineage handed it on);
 * gone: its client process exited without an end event; stale: no heartbeat within handoff.leaseTTL.
 */
export type SessionStatus = 'live' | 'stale' | 'released' | 'ended' | 'gone';

/**
 * A session known in a worktree: its status, client and host (from its lease, or the process the guard recorded), its
 * lease heartbeat and last ledger entry (unix ms), the paths it last wrote there, and how it ended (null while live).
 */
export type SessionInfo = ReturnType<typeof listSessions>[number];

/** How a session ended, from the ledger's release entry (`how`) or what was found. */
function endedHow(status: SessionStatus, how: string | undefined, pid: number | null, ttlMs: number): string | null {
  if (status === 'ended') return `its client ended it (SessionEnd${how && how.includes(':') ? `, reason ${how.slice(how.indexOf(':') + 1)}` : ''})`;
  if (status === 'released') return how === 'lineage' ? 'continued under a new session id (lineage)' : 'released (git handoff release)';
  if (status === 'gone') return `its client process${pid ? ` ${pid}` : ''} exited (no end event)`;
  if (status === 'stale') return `no sign of life for handoff.leaseTTL (${Math.round(ttlMs / 60_000)} min)`;
  return null;
}

/** A worktree path as git reports it (symlinks resolved), so the guard's and git's spellings meet. */
function canonical(p: string, cache: Map<string, string>): string {
  if (!cache.has(p)) cache.set(p, realpathOr(path.resolve(p)));
  return cache.get(p)!;
}

/** Every spelling of each worktree among leases and ledger, grouped by the canonical path. */
function worktreeSpellings(repo: Storage, leases: Lease[]): Map<string, Set<string>> {
  const cache = new Map<string, string>();
  const groups = new Map<string, Set<string>>();
  for (const w of [...leases.map((l) => l.worktree), ...readLedger(repo.commonDir).map((e) => e.worktree)]) {
    const c = canonical(w, cache);
    groups.set(c, (groups.get(c) ?? new Set()).add(w));
  }
  return groups;
}

/** Every session known in each worktree (or in `o.worktree` only), live or not; a released session's claims are gone. */
export function listSessions(repo: Storage, o: { worktree?: string; config?: Config; now?: number } = {}) {
  const ttl = leaseTtlMs(o.config ?? repo.config());
  const now = o.now ?? Date.now();
  const leases = listLeases(repo);
  const procs = readSessionProcesses(repo.commonDir);
  // the client of a session that holds no lease (any more): as lineage first recorded it
  const clients = new Map(listRecords(repo.commonDir).map((r) => [r.session, r.client]));
  const groups = worktreeSpellings(repo, leases);
  const only = o.worktree ? canonical(o.worktree, new Map()) : null;
  if (only && !groups.has(only)) groups.set(only, new Set([o.worktree!]));
  const worktrees = [...groups.keys()].sort().filter((wt) => !only || wt === only);
  return worktrees.flatMap((wt) => {
    const spellings = groups.get(wt)!;
    const acts = worktreeActivity(repo.commonDir, spellings);
    const byLease = new Map<string, Lease>(leases.filter((l) => spellings.has(l.worktree)).map((l) => [l.session, l]));
    return [...new Set([...byLease.keys(), ...acts.keys()])].map((session) => {
      const lease = byLease.get(session) ?? null;
      const act = acts.get(session) ?? null;
      const heartbeat = lease ? lease.time * 1000 : null;
      // A lease refreshed after the release means the session came back.
      const released = !!act?.released && !(heartbeat !== null && heartbeat > act.lastSeen);
      const last = Math.max(heartbeat ?? 0, act?.lastSeen ?? 0);
      const proc = lease?.pid ? { pid: lease.pid, start: lease.pidStart, host: lease.host } : (procs.get(session) ?? null);
      const status: SessionStatus = released
        ? act?.how?.startsWith('session-end') ? 'ended' : 'released'
        : proc && processGone(proc) ? 'gone'
        : isLive({ time: last / 1000 }, ttl, now) ? 'live'
        : 'stale';
      return {
        worktree: wt,
        session,
        status,
        client: lease?.client ?? clients.get(session) ?? null,
        lease: !!lease,
        heartbeat,
        lastActivity: act ? act.lastSeen : null,
        paths: act ? [...act.paths].sort() : [],
        ended: endedHow(status, released ? act?.how : undefined, proc?.pid ?? null, ttl),
        host: proc?.host || null,
      };
    });
  });
}

/** Ends a session's hold on one worktree (under each spelling of its path): its lease and its ledger claims. */
export function releaseSession(repo: Storage, session: string, worktree: string) {
  const leases = listLeases(repo);
  const spellings = worktreeSpellings(repo, leases).get(canonical(worktree, new Map())) ?? new Set([worktree]);
  const paths = worktreeActivity(repo.commonDir, spellings).get(session)?.paths ?? [];
  let lease = false;
  for (const w of spellings) lease = releaseLease(repo, w, session) || lease;
  for (const w of new Set([worktree, ...spellings])) recordRelease(repo.commonDir, session, w);
  return { session, worktree, lease, paths: [...paths].sort() };
}
