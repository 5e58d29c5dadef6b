// Handoffs a remote has that this clone has not taken in: remote-tracking copies (refs/handoff-remotes/<R>/handoffs/<B>/<T>,
// left by a plain `git fetch` with the handoff refspecs, or by session start) with no local ref and no local
// archive entry. boot, list and the startup view show them, marked as on the remote, with the command that brings them.
import type { RefRecord, Storage } from '../../git/storage';
import { ARCHIVE_PREFIX, encodeBranch, HANDOFF_PREFIX, keyOf, REMOTES_ROOT } from './names';
import { readListing, rowOf } from './store';
import { parseTrackingRef, trackingTips } from './sync-state';

/**
 * Remote-only handoffs of one branch (or of all), one row per handoff, from the copy trackingTips picks. From list's
 * listing of the same scope (readListing), with the archive's names read only when a tracking copy needs them.
 */
export function remoteOnlyHandoffs(repo: Storage, o: { branch?: string | null; all?: boolean } = {}) {
  const scope = o.all || !o.branch ? null : `${encodeBranch(o.branch)}/`;
  const recs = readListing(repo, scope ? { branch: o.branch! } : { all: true });
  // no tracking copy (most clones, most of the time): nothing to find, and 10,000 local refs need no set
  const tracking: Array<{ rec: RefRecord; t: ReturnType<typeof parseTrackingRef> }> = [];
  for (const r of recs) if (r.ref.startsWith(REMOTES_ROOT)) tracking.push({ rec: r, t: parseTrackingRef(r.ref) });
  if (!tracking.some((x) => x.t)) return [];
  const local = new Set(recs.filter((r) => r.ref.startsWith(HANDOFF_PREFIX)).map((r) => r.ref));
  // refs/handoff-archive/<B>/<T>/<stamp>: archived here, so not new to this clone
  if (tracking.some((x) => x.t && !local.has(x.t.local))) {
    for (const r of repo.listRefNames([ARCHIVE_PREFIX + (scope ?? '')])) local.add(HANDOFF_PREFIX + keyOf(r.ref));
  }
  const wanted = tracking.filter(({ t }) => t && !local.has(t.local) && (!scope || t.local.startsWith(HANDOFF_PREFIX + scope)));
  const rows = [...trackingTips(repo, wanted.map((x) => x.rec))].flatMap(([ref, t]) => {
    const row = rowOf(t.rec, 'local', ref);
    return row ? [{ ...row, sync: 'remote-only' as const, remote: t.remote, trackingRef: t.rec.ref, fetch: `git handoff fetch ${t.remote}` }] : [];
  });
  return rows.sort((a, b) => a.ref.localeCompare(b.ref));
}
