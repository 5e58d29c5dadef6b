// The refs a command reads anyway, against the last verified record (issue 23). The check at command start is a stat
// fingerprint of the ref storage; a loose ref file rewritten in place (same inode, size and mtime: never git, which
// always writes a new file and renames it) changes no directory and escapes it. Whatever handoff, archive or receipts
// ref a command then reads (src/git/refs.ts listRefs/readRef) is compared, in-process, with the record the last check
// verified; a difference runs the full check, which reports the loss. No git process while they agree.
import { looseCommitFile } from '../../git/loose-read';
import { onRefsRead } from '../../git/refs';
import type { Repo } from '../../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, NOTES_REF } from '../store/names';
import { isRecorded, readRecord, readSeen } from './record';
import { checkRecord, renderLosses } from './record-check';
import { trace } from '../../trace';

/**
 * The tips the record at `commit` holds (ref → oid), read in-process while its objects are loose (a record is written
 * loose), else by git. Lean, not strict: this record is one a full check (strict, record.ts) already verified, and
 * the answer only decides whether to run that check again. Not parseRecord: its strict reading of every line costs the
 * check at command start about 0.8 ms more on 1,000 handoffs (2.7 against 1.6-2.0 ms, over its 2 ms goal).
 */
export function tipsAt(repo: Repo, commit: string): Map<string, string> | null {
  const blob = looseCommitFile(repo, commit, 'record');
  if (!blob) {
    const rec = readRecord(repo, commit);
    return rec.problem ? null : new Map([...rec.entries].map(([ref, e]) => [ref, e.oid]));
  }
  const text = blob.toString('utf8');
  if (!text.startsWith('git-handoff record ')) return null;
  // `tip <oid> <seen> <ref>` lines
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

const mayBeRecorded = (ref: string) => ref.startsWith(HANDOFF_PREFIX) || ref.startsWith(ARCHIVE_PREFIX) || ref === NOTES_REF;

/**
 * Whether every handoff, archive or receipts ref in `refs` holds what the record the last check verified says
 * (record-seen.json, re-read each time, so the process's own moves, recorded, are expected). Also true when nothing
 * is verified since the last move: the next command's check is a full one anyway. `cache` keeps the record read.
 */
export function readsAgree(repo: Repo, refs: Array<{ ref: string; oid: string }>, cache: { commit?: string; tips?: Map<string, string> | null } = {}): boolean {
  if (!refs.some((x) => mayBeRecorded(x.ref))) return true;
  const seen = readSeen(repo);
  if (!seen?.fp || !seen.record) return true;
  if (cache.commit !== seen.record) {
    cache.commit = seen.record;
    cache.tips = tipsAt(repo, seen.record);
  }
  const tips = cache.tips;
  if (!tips) return false;
  // a name the record cannot hold (not a handoff, archive entry or the receipts) is none of its business
  return refs.every((x) => !mayBeRecorded(x.ref) || tips.get(x.ref) === x.oid || (!tips.has(x.ref) && !isRecorded(x.ref)));
}

/**
 * From now on in this process, every handoff, archive or receipts ref read is compared with the last verified
 * record; the first difference runs the full check and hands its report to `report`, once.
 */
export function compareReads(repo: Repo, report: (text: string) => void): void {
  const cache = {};
  onRefsRead((r, refs) => {
    const agree = r.commonDir !== repo.commonDir || readsAgree(repo, refs, cache);
    // its own phase in GIT_HANDOFF_TRACE: the first comparison loads zlib and inflates the record (1 MiB at 10,000 handoffs)
    trace('reads compared');
    if (agree) return;
    onRefsRead(null);
    try {
      const text = renderLosses(checkRecord(repo, { force: true }));
      if (text) report(text);
    } catch {
      // the record is a second line of defence: it never fails the command
    }
  });
}
