// `git handoff fetch`: one git fetch into the tracking namespace, then every handoff merged by the five cases.
import type { RefOp } from '../git/storage';
import type { Repo } from '../git/repo';
import { FORMAT1_ARCHIVE_HINT } from '../handoff/store/format';
import { archivalOf } from '../handoff/store/ref-updates';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, parseRef, NOTES_REF } from '../handoff/store/names';
import { remoteViolations, type Violation } from '../handoff/store/ownership';
import { mergeReceipts, trackingNotesRef, type ReceiptMerge } from '../handoff/store/receipts';
import { ancestryOf, compareTips } from '../handoff/store/sync-state';
import { moveRefs } from '../handoff/store/tx';
import { refOpOf } from '../handoff/store/tx/batch';
import { pastRetention, retentionOf } from '../handoff/store/retention';
import { handoffRefspecs, RECORDS_PREFIX, trackingArchivePrefix, trackingPrefix, trackingRecordsPrefix, fetchFrom } from './remote';
import { RECORD_REF } from '../handoff/store/tx/record';

/** The five ways a handoff can stand after a fetch (SPEC 7). */
export type MergeCase = 'new' | 'same' | 'local-ahead' | 'remote-ahead' | 'diverged';

const CASE_OF = { synced: 'same', ahead: 'local-ahead', behind: 'remote-ahead', diverged: 'diverged' } as const;

/** What the merge did about it. */
type MergeAction = 'created' | 'fast-forwarded' | 'archived' | 'none' | 'refused' | 'lost-race';

export interface HandoffMerge {
  ref: string;
  branch: string;
  topic: string;
  case: MergeCase;
  local: string | null;
  remote: string | null;
  action: MergeAction;
  /** the archive entry: the remote archived this handoff (action archived), or this clone did and has not pushed it yet */
  archivedAs?: string;
  /** the archive entry's commit (action archived): the version that records who archived it */
  archive?: string;
  /** why a remote-ahead move was not applied: the remote history breaks the ownership invariant */
  violation?: Violation;
  message?: string;
}

interface ArchiveMerge {
  ref: string;
  oid: string;
  case: 'new' | 'same' | 'local-only' | 'diverged';
  action: 'created' | 'none' | 'lost-race';
}

export interface FetchResult {
  remote: string;
  handoffs: HandoffMerge[];
  archives: ArchiveMerge[];
  counts: Record<MergeCase, number>;
  /** what became of the remote's read receipts (refs/notes/handoff-reads) */
  receipts?: ReceiptMerge;
}

const byKey = (recs: Array<{ ref: string; oid: string }>, prefix: string) => {
  const m = new Map<string, string>();
  for (const r of recs) if (r.ref.startsWith(prefix)) m.set(r.ref.slice(prefix.length), r.oid);
  return m;
};

/** The refs a merge and a push plan read, from one for-each-ref of names and oids; the loss record is told of them. */
export function readSides(repo: Repo, remote: string, place?: string | null) {
  // with `place` (sync publishes this clone's record): the record and what the remote holds of it
  const recordRefs = place ? [RECORD_REF, trackingRecordsPrefix(remote) + place] : [];
  const recs = repo.listRefNames([HANDOFF_PREFIX, ARCHIVE_PREFIX, trackingPrefix(remote), trackingArchivePrefix(remote), NOTES_REF, trackingNotesRef(remote), ...recordRefs]);
  repo.tellRefsRead(recs, null);
  const notesAt = (ref: string) => recs.find((r) => r.ref === ref)?.oid ?? null;
  return {
    record: place ? { ref: RECORDS_PREFIX + place, local: notesAt(RECORD_REF), remote: notesAt(recordRefs[1]) } : null,
    local: byKey(recs, HANDOFF_PREFIX),
    localArchive: byKey(recs, ARCHIVE_PREFIX),
    remote: byKey(recs, trackingPrefix(remote)),
    remoteArchive: byKey(recs, trackingArchivePrefix(remote)),
    receipts: { local: notesAt(NOTES_REF), remote: notesAt(trackingNotesRef(remote)) },
  };
}
export type Sides = ReturnType<typeof readSides>;

/** The handoff (`<B>/<T>`) an archive entry's key (`<B>/<T>/<stamp>`) is of. */
export const handoffKeyOf = (archiveKey: string) => archiveKey.split('/').slice(0, 2).join('/');

/** Archive entries by handoff key: an entry is a version on top of the tip it archived, naming who archived it. */
function entriesOf(archive: Map<string, string>): Map<string, Array<{ ref: string; oid: string }>> {
  const m = new Map<string, Array<{ ref: string; oid: string }>>();
  for (const [k, oid] of archive) {
    const hk = handoffKeyOf(k);
    m.set(hk, [...(m.get(hk) ?? []), { ref: ARCHIVE_PREFIX + k, oid }]);
  }
  return m;
}

/**
 * Both sides' archive entries and one ancestry read (isAnc) for what the merge and the push plan compare: each handoff's
 * two differing tips, each handoff live on one side only with its archive entries (archivalOf), and `extra`.
 */
export function compareSides(repo: Repo, s: Sides, extra: string[] = []) {
  const ours = entriesOf(s.localArchive);
  const theirs = entriesOf(s.remoteArchive);
  const differing = [...s.local].filter(([k, oid]) => s.remote.has(k) && s.remote.get(k) !== oid).flatMap(([k, oid]) => [oid, s.remote.get(k)!]);
  const oneSided = [...new Set([...s.local.keys(), ...s.remote.keys()])].filter((k) => s.local.has(k) !== s.remote.has(k) && (ours.has(k) || theirs.has(k)));
  const archival = oneSided.flatMap((k) => [s.local.get(k) ?? s.remote.get(k)!, ...[...(ours.get(k) ?? []), ...(theirs.get(k) ?? [])].map((e) => e.oid)]);
  return { ours, theirs, isAnc: ancestryOf(repo, [...differing, ...archival, ...extra]) };
}

/** The archive entries on either side past this clone's retention (handoff.archiveRetention). */
export const pastRetentionOf = (repo: Repo, s: Sides) => pastRetention([...new Set([...s.localArchive.keys(), ...s.remoteArchive.keys()])], retentionOf(repo));

/**
 * The one `git fetch` of both handoff namespaces (and `extra` refspecs: sync's claims) into refs/handoff-remotes/<R>/…;
 * returns the handoff keys whose tracking copy it pruned, from git's own list of what it changed.
 */
export function fetchTracking(repo: Repo, remote: string, extra: string[] = []): { pruned: Set<string>; quiet: boolean } {
  const stderr = fetchFrom(repo, remote, [...handoffRefspecs(remote), ...extra], { atomic: true, prune: true, full: true });
  const pruned = new Set<string>();
  const prefix = trackingPrefix(remote);
  for (const m of stderr.matchAll(/^ - \[deleted\] +\(none\) +-> (\S+)$/gm)) if (m[1].startsWith(prefix)) pruned.add(m[1].slice(prefix.length));
  // git prints nothing when no tracking ref moved (the claims' and the record's count too: then it is not quiet)
  return { pruned, quiet: stderr.trim() === '' };
}

/** Fetches, then merges every handoff by the five cases; with the sides as the merge left them, for the push that follows. */
export function fetchAndMerge(repo: Repo, remote: string, progress?: (line: string) => void, extra: string[] = [], place?: string | null, quietBefore = false): { result: FetchResult; sides: Sides | null } {
  const { pruned, quiet } = fetchTracking(repo, remote, extra);
  // nothing moved here since a sync that ended clean, and nothing there since: nothing to merge (src/sync/sync-seen.ts)
  if (quiet && quietBefore) return { result: { remote, handoffs: [], archives: [], counts: countsOf([]), receipts: 'same' }, sides: null };
  const now = readSides(repo, remote, place);
  const result = mergeHandoffs(repo, remote, { remote: { has: (k) => now.remote.has(k) || pruned.has(k) } }, now, progress);
  const receipts = mergeReceipts(repo, remote);
  return { result: { ...result, receipts }, sides: afterMerge(repo, now, result, receipts) };
}

/** The sides with the merge's moves applied (created, fast-forwarded, archived, new entries; receipts read again when they moved). */
function afterMerge(repo: Repo, s: Sides, r: FetchResult, receipts: ReceiptMerge): Sides {
  const local = new Map(s.local);
  const localArchive = new Map(s.localArchive);
  for (const h of r.handoffs) {
    const k = h.ref.slice(HANDOFF_PREFIX.length);
    if (h.action === 'created' || h.action === 'fast-forwarded') local.set(k, h.remote!);
    else if (h.action === 'archived') local.delete(k);
  }
  for (const a of r.archives) if (a.action === 'created') localArchive.set(a.ref.slice(ARCHIVE_PREFIX.length), a.oid);
  const notes = ['none', 'same', 'local-ahead'].includes(receipts) ? s.receipts.local : repo.readRef(NOTES_REF);
  return { ...s, local, localArchive, receipts: { ...s.receipts, local: notes } };
}

/** A handoff ref's branch (encoded when it does not decode) and topic, as the merge reports them. */
export const namesOf = (ref: string) => {
  const p = parseRef(ref);
  return { branch: p?.branch ?? p?.encodedBranch ?? '', topic: p?.topic ?? '' };
};

/** Classifies each handoff against the fetched tracking refs and applies what may move; `before`: what the remote had live before the fetch. */
export function mergeHandoffs(repo: Repo, remote: string, before: { remote: { has(key: string): boolean } }, now: Sides, progress?: (line: string) => void): FetchResult {
  const keys = [...new Set([...now.local.keys(), ...now.remote.keys()])].filter((k) => parseRef(HANDOFF_PREFIX + k));
  const { ours: localEntries, theirs: remoteEntries, isAnc } = compareSides(repo, now);
  if (keys.length > 20) progress?.(`merging ${keys.length} handoffs from ${remote}`);

  const handoffs: HandoffMerge[] = [];
  for (const k of keys) {
    const ref = HANDOFF_PREFIX + k;
    const local = now.local.get(k) ?? null;
    const rem = now.remote.get(k) ?? null;
    const base = { ref, ...namesOf(ref), local, remote: rem };
    if (local && !rem) {
      const a = archivalOf(repo, remoteEntries.get(k), local, isAnc);
      // archived over there (an entry at the tip itself counts only where the remote held the handoff before this fetch)
      if (!a || (a.bare && !before.remote.has(k))) handoffs.push({ ...base, case: 'local-ahead', action: 'none' });
      else if (!a.refused) handoffs.push({ ...base, case: 'same', action: 'archived', archivedAs: a.entry.ref, archive: a.entry.oid });
      else {
        const violation: Violation = { rule: 'delete', message: `${a.refused}; ${FORMAT1_ARCHIVE_HINT}` };
        handoffs.push({ ...base, case: 'same', action: 'refused', violation, message: `archive not applied: ${violation.message}` });
      }
    } else if (!local && rem) {
      // archived here and not sent yet (an entry the remote has already was restored over there: taken in)
      const unsent = localEntries.get(k)?.filter((e) => !now.remoteArchive.has(e.ref.slice(ARCHIVE_PREFIX.length)));
      const archivedHere = archivalOf(repo, unsent, rem, isAnc);
      if (archivedHere) handoffs.push({ ...base, case: 'local-ahead', action: 'none', archivedAs: archivedHere.entry.ref });
      else handoffs.push({ ...base, case: 'new', action: 'created' });
    } else {
      const c = CASE_OF[compareTips(isAnc, local!, rem!)];
      handoffs.push({ ...base, case: c, action: c === 'remote-ahead' ? 'fast-forwarded' : 'none' });
    }
  }

  // A remote history that breaks the ownership invariant is reported, never applied (SPEC 7: src/sync/refused.ts).
  const refuse = (h: HandoffMerge, v: Violation | null) => v && Object.assign(h, { action: 'refused', violation: v, message: `not applied: the remote history breaks the ownership invariant (${v.message})` });
  const incoming = handoffs.filter(
    (h) => h.case === 'remote-ahead' || h.action === 'created' || h.action === 'archived' || (h.case === 'diverged' && h.action === 'none'),
  );
  const pairs = incoming.map((h) => ({
    local: h.local,
    remote: h.action === 'archived' ? h.archive! : h.remote!,
    state: h.case === 'diverged' ? ('diverged' as const) : ('behind' as const),
  }));
  remoteViolations(repo, pairs).forEach((v, i) => refuse(incoming[i], v));

  const archives: ArchiveMerge[] = [];
  // an entry past this clone's retention is not taken in, unless a handoff archived by this merge moves into it
  const fresh = [...now.remoteArchive.keys()].filter((k) => !now.localArchive.has(k));
  const past = fresh.length ? pastRetentionOf(repo, now) : new Set<string>();
  for (const h of handoffs) if (h.archivedAs) past.delete(h.archivedAs.slice(ARCHIVE_PREFIX.length));
  for (const [k, oid] of now.remoteArchive) {
    const mine = now.localArchive.get(k);
    const ref = ARCHIVE_PREFIX + k;
    if (!parseRef(ref) || (mine === undefined && past.has(k))) continue;
    archives.push({ ref, oid, case: mine === undefined ? 'new' : mine === oid ? 'same' : 'diverged', action: mine === undefined ? 'created' : 'none' });
  }
  for (const [k, oid] of now.localArchive) if (!now.remoteArchive.has(k)) archives.push({ ref: ARCHIVE_PREFIX + k, oid, case: 'local-only', action: 'none' });

  applyMerge(repo, handoffs, archives);
  return { remote, handoffs, archives, counts: countsOf(handoffs) };
}

function countsOf(handoffs: HandoffMerge[]): Record<MergeCase, number> {
  const counts = { new: 0, same: 0, 'local-ahead': 0, 'remote-ahead': 0, diverged: 0 };
  for (const h of handoffs) counts[h.case]++;
  return counts;
}

/** The merge's move of a handoff to the remote's value (none there: archived), for the actions that move one. */
const opsOf = (h: HandoffMerge): RefOp[] =>
  ['created', 'fast-forwarded', 'archived'].includes(h.action) ? [refOpOf({ ref: h.ref, newOid: h.remote, oldOid: h.local })] : [];

/** All moves in one transaction; if a local writer raced it, each move alone by CAS so the others still land. */
function applyMerge(repo: Repo, handoffs: HandoffMerge[], archives: ArchiveMerge[]): void {
  const moving = handoffs.filter((h) => opsOf(h).length);
  const newArchives = archives.filter((a) => a.action === 'created');
  // An archive entry a local handoff moves into is created with it (or exists already from the remote's list).
  const ops: RefOp[] = [...newArchives.map((a): RefOp => ({ op: 'create', ref: a.ref, newOid: a.oid })), ...moving.flatMap(opsOf)];
  if (ops.length === 0) return;
  const what = { what: 'the fetched handoffs' };
  if (moveRefs(repo, ops, 'handoff fetch', what).ok) return;
  for (const a of newArchives) if (!moveRefs(repo, [{ op: 'create', ref: a.ref, newOid: a.oid }], 'handoff fetch', what).ok) a.action = 'lost-race';
  for (const h of moving) {
    if (!moveRefs(repo, opsOf(h), 'handoff fetch', what).ok) Object.assign(h, { action: 'lost-race', message: `changed locally during the fetch; left as it is (run \`git handoff fetch\` again)` });
  }
}
