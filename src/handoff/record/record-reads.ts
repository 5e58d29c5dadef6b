// The refs a command reads anyway, against the last verified record (issue 23). The check at command start is a stat
// fingerprint of the ref storage; a loose ref file rewritten in place (same inode, size and mtime: never git, which
// always writes a new file and renames it) changes no directory and escapes it. Whatever handoff, archive or receipts
// ref a command then reads (src/git/refs.ts listRefs/readRef) is compared, in-process, with the record the last check
// verified; a difference runs the full check, which reports the loss. No git process while they agree.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { onRefsRead } from '../../git/reads-hook';
import type { Storage } from '../../git/storage';
import { ARCHIVE_PREFIX, branchPrefix, HANDOFF_PREFIX, NOTES_REF } from '../store/names';
import { isRecorded, looseRecordText, looseRefValue, readRecord, readSeen } from '../store/tx/record';
import { checkRecord, renderLosses } from './record-check';
import { trace } from '../../trace';

/**
 * The record at `commit` as the comparison reads it: its text while its objects are loose (a record is written
 * loose), else its tips (ref → oid) read by git. Lean, not strict: this record is one a full check (strict,
 * tx/record.ts) already verified, and the answer only decides whether to run that check again. Not parseRecord: its
 * strict reading of every line costs the check at command start about 0.8 ms more on 1,000 handoffs.
 */
type RecordTips = { text: string } | { tips: Map<string, string> };
function recordTips(repo: Storage, commit: string): RecordTips | null {
  const text = looseRecordText(repo, commit);
  if (text === null) {
    const rec = readRecord(repo, commit);
    return rec.problem ? null : { tips: new Map([...rec.entries].map(([ref, e]) => [ref, e.oid])) };
  }
  return text.startsWith('git-handoff record ') ? { text } : null;
}

/** The `tip <oid> <seen> <ref>` lines of a record's text, ref → oid. */
export function tipsOf(text: string): Map<string, string> {
  const tips = new Map<string, string>();
  for (let at = text.indexOf('\n') + 1; at > 0 && at < text.length; ) {
    const end = text.indexOf('\n', at);
    const stop = end < 0 ? text.length : end;
    if (text.startsWith('tip ', at)) {
      const oidEnd = text.indexOf(' ', at + 4);
      tips.set(text.slice(text.indexOf(' ', oidEnd + 1) + 1, stop), text.slice(at + 4, oidEnd));
    }
    at = stop + 1;
  }
  return tips;
}

// a name the record cannot hold (not a handoff, archive entry or the receipts) is none of its business
const mayBeRecorded = (ref: string) => ref.startsWith(HANDOFF_PREFIX) || ref.startsWith(ARCHIVE_PREFIX) || ref === NOTES_REF;
export const agreesWith = (tips: Map<string, string>, x: { ref: string; oid: string }) =>
  !mayBeRecorded(x.ref) || tips.get(x.ref) === x.oid || (!tips.has(x.ref) && !isRecorded(x.ref));

/** text[from, to) against s, by UTF-16 code unit (the order Array#sort gives the record's lines). */
function compareAt(text: string, from: number, to: number, s: string): number {
  const n = Math.min(to - from, s.length);
  for (let i = 0; i < n; i++) {
    const d = text.charCodeAt(from + i) - s.charCodeAt(i);
    if (d !== 0) return d;
  }
  return to - from - s.length;
}

/** Where the tip line at `line` (to `stop`) has its oid's end and its ref; null for a line not of that shape. */
function tipLine(text: string, line: number, stop: number): { oidEnd: number; refAt: number } | null {
  if (!text.startsWith('tip ', line)) return null;
  const oidEnd = text.indexOf(' ', line + 4);
  const refAt = oidEnd < 0 ? 0 : text.indexOf(' ', oidEnd + 1) + 1;
  return oidEnd < 0 || oidEnd > stop || refAt <= 0 || refAt > stop ? null : { oidEnd, refAt };
}

const refOrder = (text: string, refAt: number, stop: number, ref: string) =>
  stop - refAt === ref.length && text.startsWith(ref, refAt) ? 0 : compareAt(text, refAt, stop, ref);
const oidIs = (text: string, line: number, oidEnd: number, oid: string) => oidEnd - line - 4 === oid.length && text.startsWith(oid, line + 4);

/**
 * The comparison on the record's text itself, whose tip lines are in name order (serializeRecord sorts them): no map of
 * 10,000 tips built for a listing. Many refs (for-each-ref gives them in name order too) take one walk beside the
 * lines; a few, a binary search each. null when the refs are not in that order (a name outside ASCII sorts
 * differently in git), for the caller to compare through a map. A tip line out of order can only hide a ref the
 * search then finds missing, which disagrees: the full check runs.
 */
export function textAgrees(text: string, refs: ReadonlyArray<{ ref: string; oid: string }>): boolean | null {
  const first = text.indexOf('\n') + 1;
  if (first <= 0) return false;
  const wanted = refs.filter((x) => mayBeRecorded(x.ref));
  if (wanted.length < 64) {
    for (const x of wanted) {
      let lo = first;
      let hi = text.length;
      let found = false;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const line = text.lastIndexOf('\n', mid - 1) + 1;
        const end = text.indexOf('\n', line);
        const stop = end < 0 ? text.length : end;
        // the tip lines come first; a line past them (or cut by an edge) is above every ref
        const t = tipLine(text, line, stop);
        const c = t ? refOrder(text, t.refAt, stop, x.ref) : 1;
        if (c === 0) {
          if (!oidIs(text, line, t!.oidEnd, x.oid)) return false;
          found = true;
          break;
        }
        if (c < 0) lo = stop + 1;
        else hi = line;
      }
      if (!found && isRecorded(x.ref)) return false;
    }
    return true;
  }
  let at = first;
  let prev: string | null = null;
  for (const x of wanted) {
    if (prev !== null && !(prev < x.ref)) return null;
    prev = x.ref;
    let found = false;
    while (at < text.length) {
      const end = text.indexOf('\n', at);
      const stop = end < 0 ? text.length : end;
      const t = tipLine(text, at, stop);
      if (!t) break;
      const c = refOrder(text, t.refAt, stop, x.ref);
      if (c > 0) break;
      const line = at;
      at = stop + 1;
      if (c === 0) {
        if (!oidIs(text, line, t.oidEnd, x.oid)) return false;
        found = true;
        break;
      }
    }
    if (!found && isRecorded(x.ref)) return false;
  }
  return true;
}

/**
 * Whether every handoff, archive or receipts ref in `refs` holds what the record the last check verified says
 * (record-seen.json, re-read each time, so the process's own moves, recorded, are expected). Also true when nothing
 * is verified since the last move: the next command's check is a full one anyway. `cache` keeps the record read, and
 * `cache.agreed` names the verified record commit a true answer was found against (none when nothing was compared).
 * `agreed`: a record commit these very refs (as a set) were found to agree with before (listing-kept.ts); while it is
 * still the verified one, the answer is the same without comparing again.
 */
export function readsAgree(repo: Storage, refs: Array<{ ref: string; oid: string }>, cache: ReadsCache = {}, agreed: string | null = null): boolean {
  cache.agreed = undefined;
  if (!refs.some((x) => mayBeRecorded(x.ref))) return true;
  const seen = readSeen(repo);
  if (!seen?.fp || !seen.record) return true;
  if (agreed === seen.record) {
    cache.agreed = agreed;
    return true;
  }
  if (cache.commit !== seen.record) {
    cache.commit = seen.record;
    cache.tips = recordTips(repo, seen.record);
  }
  let rec = cache.tips;
  if (!rec) return false;
  let agree: boolean | null = null;
  if ('text' in rec) {
    agree = textAgrees(rec.text, refs);
    // refs out of the record's order: its tips as a map, kept for the next call
    if (agree === null) rec = cache.tips = { tips: tipsOf(rec.text) };
  }
  if (agree === null) {
    const { tips } = rec as { tips: Map<string, string> };
    agree = refs.every((x) => agreesWith(tips, x));
  }
  if (agree) cache.agreed = seen.record;
  return agree;
}

/**
 * The session start's proof beside the stat fingerprint: the checked-out branch's loose handoff ref files and the
 * receipts ref file, read without git, against the verified record. A file rewritten in place, which no stat of its
 * directory sees, fails it; a ref held in packed-refs only is the fingerprint's (it stats packed-refs).
 */
export function branchFilesAgree(repo: Storage): boolean {
  const refs: Array<{ ref: string; oid: string }> = [];
  for (const dir of [...(repo.branch ? [branchPrefix(repo.branch)] : []), 'refs/notes/']) {
    let names: string[];
    try {
      names = readdirSync(path.join(repo.commonDir, dir));
    } catch {
      continue; // none loose
    }
    for (const ref of names.map((n) => dir + n).filter(mayBeRecorded)) {
      const oid = looseRefValue(path.join(repo.commonDir, ref));
      // a lock, a directory or a file git would not write there: the full check looks
      if (!oid) return false;
      refs.push({ ref, oid });
    }
  }
  return readsAgree(repo, refs.sort((a, b) => (a.ref < b.ref ? -1 : 1)));
}

type ReadsCache = { commit?: string; tips?: RecordTips | null; agreed?: string };

/**
 * From now on in this process, every handoff, archive or receipts ref read is compared with the last verified
 * record; the first difference runs the full check and hands its report to `report`, once.
 */
export function compareReads(repo: Storage, report: (text: string) => void): void {
  const cache: ReadsCache = {};
  onRefsRead((r, refs, agreed) => {
    if (r.commonDir !== repo.commonDir) return null;
    const agree = readsAgree(repo, refs, cache, agreed ?? null);
    // its own phase in GIT_HANDOFF_TRACE: the first comparison loads zlib and inflates the record (1 MiB at 10,000 handoffs)
    trace('reads compared', agreed && cache.agreed === agreed ? 'as before' : undefined);
    if (agree) return cache.agreed ?? null;
    onRefsRead(null);
    try {
      const text = renderLosses(checkRecord(repo, { force: true }));
      if (text) report(text);
    } catch {
      // the record is a second line of defence: it never fails the command
    }
    return null;
  });
}
