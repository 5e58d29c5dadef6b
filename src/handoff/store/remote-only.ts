// Handoffs a remote has that this clone has not taken in: remote-tracking copies (refs/handoff-remotes/<R>/handoffs/<B>/<T>,
// left by a plain `git fetch` with the handoff refspecs, or by session start) with no local ref and no local
// archive entry. boot, list and the startup view show them, marked as on the remote, with the command that brings them.
import type { RefRecord, Storage } from '../../git/storage';
import { ARCHIVE_PREFIX, encodeBranch, HANDOFF_PREFIX, REMOTES_ROOT } from './names';
import { readListing, rowOf, type HandoffRow } from './store';
import { parseTrackingRef } from './sync-state';

export interface RemoteOnlyRow extends HandoffRow {
  sync: 'remote-only';
  /** the remote whose tracking ref holds it */
  remote: string;
  /** the tracking ref (the local ref it would become is `ref`) */
  trackingRef: string;
  /** the command that brings it into this clone */
  fetch: string;
}

/**
 * Remote-only handoffs of one branch (or of all), one row per handoff: when several remotes carry it, origin first,
 * then the first by name. From list's listing of the same scope (readListing), with the archive's names read only
 * when a tracking copy needs them.
 */
export function remoteOnlyHandoffs(repo: Storage, o: { branch?: string | null; all?: boolean } = {}): RemoteOnlyRow[] {
  const scope = o.all || !o.branch ? null : `${encodeBranch(o.branch)}/`;
  const recs = readListing(repo, scope ? { branch: o.branch! } : { all: true });
  // no tracking copy (most clones, most of the time): nothing to find, and 10,000 local refs need no set
  const tracking: Array<{ rec: RefRecord; t: ReturnType<typeof parseTrackingRef> }> = [];
  for (const r of recs) if (r.ref.startsWith(REMOTES_ROOT)) tracking.push({ rec: r, t: parseTrackingRef(r.ref) });
  if (!tracking.some((x) => x.t)) return [];
  const local = new Set(recs.filter((r) => r.ref.startsWith(HANDOFF_PREFIX)).map((r) => r.ref));
  // refs/handoff-archive/<B>/<T>/<stamp>: archived here, so not new to this clone
  if (tracking.some((x) => x.t && !local.has(x.t.local))) {
    for (const r of repo.listRefNames([ARCHIVE_PREFIX + (scope ?? '')])) local.add(HANDOFF_PREFIX + r.ref.slice(ARCHIVE_PREFIX.length).split('/').slice(0, 2).join('/'));
  }
  const rank = (remote: string) => (remote === 'origin' ? 0 : 1);
  const best = new Map<string, RemoteOnlyRow>();
  for (const { rec, t } of tracking) {
    if (!t || local.has(t.local)) continue;
    if (scope && !t.local.startsWith(HANDOFF_PREFIX + scope)) continue;
    const row = rowOf(rec, 'local', t.local);
    if (!row) continue;
    const seen = best.get(t.local);
    if (seen && (rank(seen.remote) < rank(t.remote) || (rank(seen.remote) === rank(t.remote) && seen.remote <= t.remote))) continue;
    best.set(t.local, { ...row, sync: 'remote-only', remote: t.remote, trackingRef: rec.ref, fetch: `git handoff fetch ${t.remote}` });
  }
  return [...best.values()].sort((a, b) => a.ref.localeCompare(b.ref));
}
