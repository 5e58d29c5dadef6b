// The check at command start: the handoff refs against the loss record. No git process when the ref storage is as
// it was at the last check that found everything in place; else one for-each-ref and one cat-file.
import type { Storage } from '../../git/storage';
import { ARCHIVE_PREFIX, DROPPED_PREFIX, droppedPrefixOf, HANDOFF_PREFIX, keyOf, NOTES_REF, stampedRef } from '../store/names';
import { checkAdvances } from '../store/ownership';
import { droppedReceipts } from '../store/receipts';
import {
  amendRecord,
  emptyRecord,
  listTracked,
  now,
  readRecord,
  readSeen,
  recordBlocked,
  RECORD_REF,
  fingerprintTaken,
  refsFingerprint,
  seenAfterMove,
  writeSeen,
  type RecordState,
  type Removal,
} from '../store/tx/record';
import { orphanOf, pushWitness, restoreWitness, retireWitness, witnessOf, witnessTip, witnessWrote } from '../store/tx/witness';

export interface Loss {
  ref: string;
  kind: 'deleted' | 'rewritten' | 'rogue-advance' | 'receipts-deleted' | 'receipts-dropped';
  /** the version the record holds */
  recorded: string;
  /** null: gone */
  current: string | null;
  /** ISO 8601: the last time git-handoff saw the recorded version in place */
  lastSeen: string;
  detail: string;
  /** the command that restores it */
  command: string;
}

export interface RecordCheck {
  losses: Loss[];
  /** the record itself was missing or damaged (rebuilt from the last verified record or the refs) */
  problem: string | null;
  /** answered from the verified cache, no git process */
  cached: boolean;
  /** a lock left behind on the record kept it from taking what was found */
  blocked?: string;
}

const REBUILT = 'rebuilt from the refs as they are now (`git handoff recover --scan` looks for versions lost before)';
/** How many refs one record commit takes in (GIT_HANDOFF_RECORD_BATCH: a test's smaller batches). */
const recordBatch = () => Number(process.env.GIT_HANDOFF_RECORD_BATCH) || 5000;
export const recoverCommand = (ref: string) => `git handoff recover ${ref}`;

/** A deleted live handoff whose recorded tip is inside an archive entry of the same handoff was archived, not lost. */
export function archivedIn(repo: Storage, refs: Map<string, string>, ref: string, oid: string): boolean {
  return [...refs].some(([r, o]) => r.startsWith(ARCHIVE_PREFIX) && keyOf(r) === keyOf(ref) && (o === oid || repo.isAncestor(oid, o)));
}

interface Comparison {
  losses: Array<Omit<Loss, 'lastSeen'> & { seen: number }>;
  /** refs whose new value the record takes (legitimate advances, new refs) */
  absorb: Map<string, string>;
  archived: Map<string, Removal>;
  /** entries naming a version that is not in the repository (a damaged or forged record): ref → what is there now */
  unfounded: Map<string, string | null>;
}

/** The refs now against the record: what was lost, and what moved on legitimately (status reads it too). */
export function compareRecord(repo: Storage, rec: RecordState, refs: Map<string, string>): Comparison {
  const out: Comparison = { losses: [], absorb: new Map(), archived: new Map(), unfounded: new Map() };
  // what the record holds for the refs that differ must exist: the record keeps every version it names reachable,
  // so a missing one is a damaged or forged record, never a loss (one cat-file for all of them)
  const differ = [...rec.entries].filter(([ref, e]) => refs.get(ref) !== e.oid);
  const found = repo.objectInfo(differ.map(([, e]) => e.oid));
  differ.forEach(([ref], i) => {
    if (!found[i]) out.unfounded.set(ref, refs.get(ref) ?? null);
  });
  // every ref moved since the record, checked together: one walk and one read of trailers for all of them
  const moved = differ.filter(([ref]) => ref !== NOTES_REF && refs.has(ref) && !out.unfounded.has(ref));
  const verdicts = new Map(checkAdvances(repo, moved.map(([ref, e]) => ({ oldOid: e.oid, newOid: refs.get(ref)! }))).map((v, i) => [moved[i][0], v]));
  for (const [ref, e] of differ) {
    if (out.unfounded.has(ref)) continue;
    const cur = refs.get(ref) ?? null;
    const base = { ref, recorded: e.oid, current: cur, seen: e.seen, command: recoverCommand(ref) };
    const notes = ref === NOTES_REF;
    const dropped = notes && cur ? droppedReceipts(repo, e.oid, cur) : [];
    const v = verdicts.get(ref);
    if (notes && !cur) out.losses.push({ ...base, kind: 'receipts-deleted', detail: `the read receipts (${NOTES_REF}) were deleted` });
    else if (dropped.length) {
      const lines = `${dropped.length} read receipt line${dropped.length === 1 ? ' was' : 's were'}`;
      out.losses.push({ ...base, kind: 'receipts-dropped', detail: `${lines} dropped from ${NOTES_REF} (${dropped.slice(0, 2).join('; ')})` });
    } else if (notes) out.absorb.set(ref, cur!);
    else if (!cur && ref.startsWith(HANDOFF_PREFIX) && archivedIn(repo, refs, ref, e.oid)) out.archived.set(ref, { oid: e.oid, at: now(), why: 'archived' });
    else if (!cur) out.losses.push({ ...base, kind: 'deleted', detail: `${ref} was deleted outside git-handoff (its recorded tip ${e.oid.slice(0, 12)})` });
    else if (!v) out.absorb.set(ref, cur);
    else if (v.rule !== 'rewrite') out.losses.push({ ...base, kind: 'rogue-advance', detail: `${ref} was moved from ${e.oid.slice(0, 12)} to ${cur.slice(0, 12)}, which breaks the ownership rule: ${v.message}` });
    else out.losses.push({ ...base, kind: 'rewritten', detail: `${ref} was moved to ${cur.slice(0, 12)}, a history that does not contain its recorded version ${e.oid.slice(0, 12)}` });
  }
  for (const [ref, oid] of refs) if (!rec.entries.has(ref) && ref !== RECORD_REF) out.absorb.set(ref, oid);
  out.losses.push(...undoesLost(repo, rec, refs));
  return out;
}

/**
 * A drop's undo gone: a handoff the record holds as dropped on purpose whose kept versions under refs/handoff-dropped/
 * are gone. The loss is that ref, named from the record's removal (<seconds>-<tip>). One for-each-ref, only while such a drop stands.
 */
function undoesLost(repo: Storage, rec: RecordState, refs: Map<string, string>): Comparison['losses'] {
  const standing = [...rec.removed].filter(([ref, rm]) => rm.why === 'removed' && ref.startsWith(HANDOFF_PREFIX) && !refs.has(ref));
  if (standing.length === 0) return [];
  const kept = [...listTracked(repo, [DROPPED_PREFIX]).keys()];
  const gone = standing.filter(([ref, rm]) => !kept.some((k) => k.startsWith(droppedPrefixOf(ref))) && !archivedIn(repo, refs, ref, rm.oid));
  // a version not in the repository is no undo to bring back (the record's damage is said elsewhere)
  const found = repo.objectInfo(gone.map(([, rm]) => rm.oid));
  return gone
    .filter((_, i) => found[i])
    .map(([ref, rm]) => {
      const keptAs = stampedRef(droppedPrefixOf(ref), rm.at, rm.oid);
      const detail = `${keptAs}, the versions of the dropped ${ref} that \`git handoff restore\` brings back, was deleted outside git-handoff (its dropped tip ${rm.oid.slice(0, 12)})`;
      return { ref: keptAs, kind: 'deleted' as const, recorded: rm.oid, current: null, seen: rm.at, detail, command: recoverCommand(keptAs) };
    });
}

/**
 * Whether the ref storage is as it was at the last check that found everything in place: stat calls only, no git;
 * with `justChecked` (the check at this command's start ran a moment ago), none where it took the fingerprint.
 */
export function unchangedSinceCheck(commonDir: string, justChecked = false): boolean {
  const fp = (justChecked ? fingerprintTaken(commonDir) : null) ?? refsFingerprint({ commonDir });
  return fp !== null && readSeen({ commonDir })?.fp === fp;
}

/**
 * Compares the refs with the record and reports what was lost; legitimate advances and new refs are taken into the
 * record, a damaged or missing one rebuilt from the last verified one (else from the refs). `force` skips the cache.
 */
export function checkRecord(repo: Storage, o: { force?: boolean } = {}): RecordCheck {
  const fp = refsFingerprint(repo);
  const seen = readSeen(repo);
  if (!o.force && fp && seen?.fp === fp && witnessAgrees(repo, seen.record)) return { losses: [], problem: null, cached: true };
  let refs = listTracked(repo);
  const witnessed = fromWitness(repo, refs.get(RECORD_REF) ?? null);
  if (witnessed) refs = listTracked(repo);
  const recOid = refs.get(RECORD_REF) ?? null;
  refs.delete(RECORD_REF);
  let rec = recOid ? readRecord(repo, recOid) : null;
  const damaged = !!rec?.problem;
  let problem: string | null = witnessed ?? rec?.problem ?? (!recOid && seen?.record ? `the record (${RECORD_REF}) was deleted` : null);
  let fallback: RecordState | undefined;
  if ((problem || !rec) && seen?.record && seen.record !== recOid) {
    const last = readRecord(repo, seen.record);
    if (!last.problem) {
      fallback = last;
      rec = last;
      problem = problem ? `${problem}; compared against the last verified record ${last.commit!.slice(0, 12)}` : null;
    }
  }
  if (problem && !fallback && !witnessed) problem += `; ${REBUILT}`;
  const base: RecordState = rec && !rec.problem ? rec : emptyRecord();
  const cmp = compareRecord(repo, base, refs);
  if (cmp.unfounded.size) {
    const named = [...cmp.unfounded.keys()].map((ref) => `${ref} at ${base.entries.get(ref)!.oid.slice(0, 12)}`);
    const what = `it names version${named.length === 1 ? '' : 's'} that ${named.length === 1 ? 'is' : 'are'} not in the repository (${named.slice(0, 3).join('; ')}${named.length > 3 ? '; …' : ''}): ${REBUILT}`;
    problem = problem ? `${problem}; ${what}` : what;
  }
  let blocked: string | null = null;
  let commit = recOid && !rec?.problem && !fallback ? recOid : null;
  // a repository that never held a handoff gets no record commit and no witness outside .git
  const nothing = !recOid && refs.size === 0 && !fallback && !problem && !witnessed;
  // a record of the first format (one file) is written shelved by the first check that reads it
  const firstFormat = !!rec && !rec.problem && !rec.shelves;
  if (cmp.absorb.size || cmp.archived.size || cmp.unfounded.size || damaged || firstFormat || (!recOid && !nothing)) {
    // taken in by batches, each landing before the next: a run killed midway leaves the next only the rest; the
    // witness takes the last one alone (a push per batch walks its whole history each time)
    const absorb = [...cmp.absorb];
    const size = recordBatch();
    for (let at = 0; at === 0 || at < absorb.length; at += size) {
      const batch = absorb.slice(at, at + size);
      const last = at + size >= absorb.length;
      const t = now();
      commit = amendRecord(
        repo,
        (r) => {
          for (const [ref, oid] of batch) {
            r.entries.set(ref, { oid, seen: t });
            r.removed.delete(ref);
          }
          // the archives and the damage go with the last batch
          for (const [ref, rm] of last ? cmp.archived : []) {
            r.entries.delete(ref);
            r.removed.set(ref, rm);
          }
          for (const [ref, oid] of last ? cmp.unfounded : []) {
            if (oid) r.entries.set(ref, { oid, seen: t });
            else r.entries.delete(ref);
          }
          return batch.map(([, oid]) => oid);
        },
        base,
        false,
        last,
      );
      if (commit === null) break;
    }
    blocked = commit === null ? recordBlocked() : null;
  }
  const last = seen?.at ?? 0;
  const losses: Loss[] = cmp.losses.map(({ seen: s, ...l }) => ({ ...l, lastSeen: new Date(Math.max(s, last) * 1000).toISOString() }));
  if (losses.length === 0 && !problem && (nothing || (commit !== null && commit === recOid))) writeSeen(repo, { fp, record: commit, at: now() });
  // the record moved: the fingerprint stands for the refs only when they are what it says now
  else if (losses.length === 0 && !problem && commit) seenAfterMove(repo, commit);
  else if (commit || seen) {
    writeSeen(repo, { fp: null, record: commit ?? seen?.record ?? null, at: seen?.at ?? 0 });
  }
  return { losses, problem, cached: false, ...(blocked ? { blocked } : {}) };
}

/** Whether the witness holds the verified record (no git); one deleted alone is rebuilt here without a word. */
function witnessAgrees(repo: Storage, record: string | null): boolean {
  const w = record ? witnessOf(repo) : null;
  if (!w) return true;
  const tip = witnessTip(w);
  if (tip === null) pushWitness(repo, record!, w);
  return tip === null || tip === record;
}

/**
 * The store's record against its witness outside .git: a witness missing or behind is brought up to date silently; a
 * record that vanished or went back is taken back from the witness (takeInRecord), and what was missing is said.
 */
function fromWitness(repo: Storage, recOid: string | null): string | null {
  try {
    const w = witnessOf(repo);
    if (!w) return null;
    let tip = witnessTip(w);
    // a clone the witness does not know yet may be the one made again after its predecessor's place was deleted
    const src = (tip ? null : orphanOf(w)) ?? w;
    if (src !== w) tip = witnessTip(src);
    if (tip === recOid) return null;
    if (!tip || (recOid && repo.isAncestor(tip, recOid))) {
      if (recOid) pushWitness(repo, recOid, w);
      return null;
    }
    // this clone's own witness holds a record git-handoff neither wrote there last nor verified: changed outside it
    let foreign: string | null = null;
    if (src === w) {
      const trusted = [witnessWrote(repo), readSeen(repo)?.record ?? null].filter((t): t is string => t !== null);
      if (trusted.length && !trusted.includes(tip)) {
        foreign = `the witness of the loss record (${w.ref} in ${w.dir}) was changed outside git-handoff: it holds ${tip.slice(0, 12)}, where git-handoff last wrote ${trusted[0].slice(0, 12)}; not trusted (kept in the witness at refs/witness-foreign/…)`;
        const back = trusted.find((t) => t !== recOid && restoreWitness(repo, w, t, tip!)) ?? null;
        if (back === null) {
          if (recOid && !restoreWitness(repo, w, recOid, tip)) pushWitness(repo, recOid, w);
          return foreign;
        }
        tip = back;
      }
    }
    // its objects brought into this repository, no ref moved
    if (!repo.objectInfo([tip])[0] && repo.fetchRefs(src.dir, [src.ref], { noHooks: true }).status !== 0) return null;
    const t = takeInRecord(repo, recOid, tip);
    if (!t) {
      // a damaged witness is no evidence, and one holding nothing newer is behind: rebuilt from the store's record
      if (recOid) pushWitness(repo, recOid, w);
      return foreign;
    }
    if (t.took && src !== w) retireWitness(src);
    const whose = src === w ? '' : ` (the record of the clone at ${src.where}, which is gone)`;
    const taken = `the store's record (${RECORD_REF}) ${t.state} against its witness outside .git (${w.dir})${whose}, which holds ${t.holds}; taken back into the record`;
    return foreign ? `${foreign}; ${taken}` : taken;
  } catch {
    // the witness is a third line of defence: it never fails the check
    return null;
  }
}

/**
 * Takes a record commit kept elsewhere (the witness, or this clone's record on a remote) into the store's record: the
 * entries the store's lacks or holds older merged into a new record on top (`tip` a parent, so all stays reachable).
 * Null when `tip` holds nothing newer; else what the store's record was against it and the versions it held.
 */
export function takeInRecord(repo: Storage, recOid: string | null, tip: string): { state: string; holds: string; took: boolean } | null {
  const kept = readRecord(repo, tip);
  if (kept.problem) return null;
  const cur = recOid ? readRecord(repo, recOid) : null;
  const newer = (r: RecordState) =>
    [...kept.entries].filter(([ref, e]) => {
      const mine = r.entries.get(ref);
      const gone = r.removed.get(ref);
      if (gone && gone.at >= e.seen) return false;
      return !mine || (mine.oid !== e.oid && repo.isAncestor(mine.oid, e.oid));
    });
  const missing = newer(cur && !cur.problem ? cur : emptyRecord());
  if (missing.length === 0) return null;
  const took = amendRecord(
    repo,
    (r) => {
      for (const [ref, e] of newer(r)) {
        r.entries.set(ref, e);
        r.removed.delete(ref);
      }
      return [tip];
    },
    kept,
  );
  const names = missing.map(([ref]) => ref);
  const state = !recOid ? 'is gone' : cur?.problem ? `is damaged (${cur.problem})` : 'went back';
  const holds = `${names.length} version${names.length === 1 ? '' : 's'} it did not: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
  return { state, holds, took: took !== null };
}

export function renderLosses(check: Pick<RecordCheck, 'losses' | 'problem' | 'blocked'>): string {
  const lines: string[] = [];
  if (check.problem) lines.push(`git-handoff: the loss record is damaged or missing: ${check.problem}`);
  if (check.blocked) lines.push(`git-handoff: warning: the loss record was not updated: ${check.blocked}`);
  for (const l of check.losses) lines.push(`git-handoff: ${l.detail}; last seen in place ${l.lastSeen}.\n  restore it: ${l.command}`);
  if (check.losses.length > 1) lines.push('  or restore everything lost: git handoff recover');
  return lines.length ? lines.join('\n') + '\n' : '';
}
