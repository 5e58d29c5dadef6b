// Whether a handoff's owner is live (SPEC 3), so a takeover of a live owner needs `--from-live`: live as `sessions`
// says it, for the owner or a session continuing it (lineage), or a live claim of it in a claims table this clone knows.
import type { Config, Storage } from '../../git/storage';
import { claimLive, readMarker } from '../state/claims-marker';
import { listRecords, successorOf } from '../state/lineage-record';
import { listSessions } from './sessions';
import { thisHost } from '../state/session-process';
import { PERSON_PREFIX } from './person';

export interface LiveOwner {
  /** the owner named by the handoff */
  owner: string;
  /** the session that is live: the owner, or the one that continues it after /clear (lineage) */
  session: string;
  client: string | null;
  host: string | null;
  worktree: string | null;
  /** unix ms of its last sign of life */
  lastActivity: number;
  /** `here`: this clone's sessions; `remote`: a live claim the handoff remote's table shows */
  where: 'here' | 'remote';
}

/** The owner and the sessions that continue it, in order (lineage records of this clone). */
function chainFrom(commonDir: string, owner: string): string[] {
  const records = listRecords(commonDir);
  const chain = [owner];
  for (let next = successorOf(owner, records); next && !chain.includes(next); next = successorOf(next, records)) chain.push(next);
  return chain;
}

/** The live session behind `owner`, or null (a person, an ended, gone or stale session, one never seen here). */
export function liveOwner(repo: Storage, owner: string | null, o: { config?: Config; now?: number } = {}): LiveOwner | null {
  if (!owner || owner.startsWith(PERSON_PREFIX)) return null;
  const now = o.now ?? Date.now();
  const chain = chainFrom(repo.commonDir, owner);
  const found: LiveOwner[] = [];
  for (const s of listSessions(repo, { config: o.config, now })) {
    if (s.status !== 'live' || !chain.includes(s.session)) continue;
    found.push({ owner, session: s.session, client: s.client, host: s.host ?? thisHost(), worktree: s.worktree, lastActivity: Math.max(s.heartbeat ?? 0, s.lastActivity ?? 0), where: 'here' });
  }
  for (const c of readMarker(repo.commonDir)) {
    if (!chain.includes(c.session) || !claimLive(c, now)) continue;
    found.push({ owner, session: c.session, client: c.client, host: c.host, worktree: c.worktree, lastActivity: c.since * 1000, where: c.where === 'remote' ? 'remote' : 'here' });
  }
  return found.sort((a, b) => b.lastActivity - a.lastActivity)[0] ?? null;
}
