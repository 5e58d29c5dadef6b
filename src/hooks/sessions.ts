// Who is live in which worktree: leases (heartbeats) and the guard's ledger (paths written), one view
// for the pre-commit rule and for `git handoff sessions`.
import { readConfig, type Config } from '../git/config';
import type { Repo } from '../git/repo';
import { isLive, leaseTtlMs, listLeases, releaseLease, type Lease } from '../handoff/leases';
import { readLedger, recordRelease, worktreeActivity } from '../handoff/ledger';

export type SessionStatus = 'live' | 'stale' | 'released';

export interface SessionInfo {
  worktree: string;
  session: string;
  status: SessionStatus;
  client: string | null;
  /** a lease ref names this session in this worktree */
  lease: boolean;
  /** lease heartbeat, unix ms */
  heartbeat: number | null;
  /** last ledger entry, unix ms */
  lastActivity: number | null;
  /** paths whose latest writer in this worktree is this session */
  paths: string[];
}

export interface SessionsOptions {
  /** only this worktree */
  worktree?: string;
  config?: Config;
  now?: number;
}

/** Every session known in each worktree, live or not; a released session's claims are gone. */
export function listSessions(repo: Repo, o: SessionsOptions = {}): SessionInfo[] {
  const ttl = leaseTtlMs(o.config ?? readConfig(repo));
  const now = o.now ?? Date.now();
  const leases = listLeases(repo).filter((l) => !o.worktree || l.worktree === o.worktree);
  const worktrees = new Set<string>(leases.map((l) => l.worktree));
  if (o.worktree) worktrees.add(o.worktree);
  else for (const e of readLedger(repo.commonDir)) worktrees.add(e.worktree);
  const out: SessionInfo[] = [];
  for (const wt of [...worktrees].sort()) {
    const acts = worktreeActivity(repo.commonDir, wt);
    const byLease = new Map<string, Lease>(leases.filter((l) => l.worktree === wt).map((l) => [l.session, l]));
    for (const session of new Set([...byLease.keys(), ...acts.keys()])) {
      const lease = byLease.get(session) ?? null;
      const act = acts.get(session) ?? null;
      const heartbeat = lease ? lease.time * 1000 : null;
      // A lease refreshed after the release means the session came back.
      const released = !!act?.released && !(heartbeat !== null && heartbeat > act.lastSeen);
      const last = Math.max(heartbeat ?? 0, act?.lastSeen ?? 0);
      const status: SessionStatus = released ? 'released' : isLive({ time: last / 1000 }, ttl, now) ? 'live' : 'stale';
      out.push({
        worktree: wt,
        session,
        status,
        client: lease?.client ?? null,
        lease: !!lease,
        heartbeat,
        lastActivity: act ? act.lastSeen : null,
        paths: act ? [...act.paths].sort() : [],
      });
    }
  }
  return out;
}

export interface ReleaseResult {
  session: string;
  worktree: string;
  /** the lease ref was held by the session and is gone */
  lease: boolean;
  /** the paths whose claims were dropped */
  paths: string[];
}

/** Ends a session's hold on one worktree: its lease (compare-and-swap delete) and its ledger claims. */
export function releaseSession(repo: Repo, session: string, worktree: string): ReleaseResult {
  const paths = worktreeActivity(repo.commonDir, worktree).get(session)?.paths ?? [];
  const lease = releaseLease(repo, worktree, session);
  recordRelease(repo.commonDir, session, worktree);
  return { session, worktree, lease, paths: [...paths].sort() };
}
