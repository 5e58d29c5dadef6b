// Where each local handoff stands against its remote-tracking copy (refs/handoff-remotes/<R>/handoffs/…).
import { reachableIn, type RefRecord, type Storage } from '../../git/storage';
import { HANDOFF_PREFIX, REMOTES_ROOT } from './names';
import { historyOf, remoteViolations } from './ownership';
import { setting } from '../../config-keys';

/**
 * `remote-only`: a remote-tracking copy of a handoff this clone has not fetched into refs/handoffs/;
 * `refused`: the remote's version breaks the ownership invariant (a host without the check let it through; SPEC 7)
 */
export type SyncState = 'local' | 'synced' | 'ahead' | 'behind' | 'diverged' | 'refused' | 'remote-only';

export const TRACKING_PATTERN = `${REMOTES_ROOT}*/handoffs/*/*`;

const TRACKING_RE = new RegExp(`^${REMOTES_ROOT.replace(/[/-]/g, '\\$&')}([^/]+)\\/handoffs\\/([^/]+\\/[^/]+)$`);

/** refs/handoff-remotes/<R>/handoffs/<B>/<T> → { remote, ref: refs/handoffs/<B>/<T> } */
export function parseTrackingRef(ref: string): { remote: string; local: string } | null {
  const m = TRACKING_RE.exec(ref);
  return m ? { remote: m[1], local: HANDOFF_PREFIX + m[2] } : null;
}

/** The for-each-ref pattern of one local handoff ref's tracking copies on every remote. */
export const trackingPatternOf = (localRef: string) => `${REMOTES_ROOT}*/handoffs/${localRef.slice(HANDOFF_PREFIX.length)}`;

/** The tracking tip of each local handoff ref: handoff.remote first, then origin, then the first by name (`recs`: the tracking refs' records). */
export function trackingTips(repo: Storage, recs: RefRecord[] = repo.listRefs([TRACKING_PATTERN])): Map<string, { remote: string; oid: string; rec: RefRecord }> {
  const out = new Map<string, { remote: string; oid: string; rec: RefRecord }>();
  const remotes = new Set(recs.map((r) => parseTrackingRef(r.ref)?.remote));
  // handoff.remote decides only when several remotes carry handoffs: no extra process otherwise
  const preferred = remotes.size > 1 ? setting(repo.config(), 'remote') : undefined;
  const rank = (r: string) => `${r === preferred ? 0 : r === 'origin' ? 1 : 2}${r}`;
  for (const rec of recs) {
    const t = parseTrackingRef(rec.ref);
    if (!t) continue;
    const seen = out.get(t.local);
    if (!seen || rank(t.remote) < rank(seen.remote)) out.set(t.local, { remote: t.remote, oid: rec.oid, rec });
  }
  return out;
}

/** Ancestry among tips (historyOf: at most one `git rev-list --parents`): isAncestor(a, b). */
export function ancestryOf(repo: Storage, tips: string[]): (a: string, b: string) => boolean {
  const parents = historyOf(repo, tips) ?? new Map<string, string[]>();
  return (a, b) => a === b || reachableIn(parents, b).has(a);
}

export function compareTips(isAncestor: (a: string, b: string) => boolean, local: string, remote: string): 'synced' | 'ahead' | 'behind' | 'diverged' {
  if (local === remote) return 'synced';
  if (isAncestor(remote, local)) return 'ahead';
  if (isAncestor(local, remote)) return 'behind';
  return 'diverged';
}

/** Sync state of each given local handoff ref; at most one extra git process for all that differ. */
export function computeSyncStates(repo: Storage, recs: RefRecord[], trackingRecs: RefRecord[]): Map<string, SyncState> {
  const out = new Map<string, SyncState>();
  if (recs.length === 0) return out;
  const tracking = trackingTips(repo, trackingRecs);
  const differing: Array<[string, string, string]> = [];
  for (const rec of recs) {
    const t = tracking.get(rec.ref);
    if (!t) out.set(rec.ref, 'local');
    else if (t.oid === rec.oid) out.set(rec.ref, 'synced');
    else differing.push([rec.ref, rec.oid, t.oid]);
  }
  if (differing.length) {
    const isAnc = ancestryOf(repo, differing.flatMap(([, l, r]) => [l, r]));
    for (const [ref, l, r] of differing) out.set(ref, compareTips(isAnc, l, r));
    const open = differing.filter(([ref]) => out.get(ref) === 'behind' || out.get(ref) === 'diverged');
    remoteViolations(repo, open.map(([ref, local, remote]) => ({ local, remote, state: out.get(ref) as 'behind' | 'diverged' }))).forEach((v, i) => {
      if (v) out.set(open[i][0], 'refused');
    });
  }
  return out;
}
