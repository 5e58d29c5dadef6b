// The refs a command reads anyway, against the last verified record: a loose ref file rewritten in place escapes the
// stat fingerprint of the check at command start, so whatever a command reads is compared in-process with the
// verified record; a difference runs the full check. No git process while they agree.
import path from 'node:path';
import { onRefsRead } from '../../git/refs-read';
import type { Storage } from '../../git/storage';
import { branchPrefix, HANDOFF_PREFIX, NOTES_REF } from '../store/names';
import { isRecorded, readRecord, readSeen, shelfOf } from '../store/tx/record';
import { looseRefValue } from '../store/tx/witness';
import { namesIn } from '../state/paths';
import { checkRecord, renderLosses } from './record-check';
import { trace } from '../../trace';

// the shelves this process read of the verified record (a record commit never changes under its id)
const cache: { commit?: string; tips?: Map<string, string>; read?: Set<string> } = {};

/**
 * The verified record every recorded ref in `refs` holds what it says of; null when there is nothing to compare (none
 * recorded, or nothing verified: the next check is a full one); false on a difference. `agreed`: a record these very
 * refs agreed with before.
 */
export function readsAgree(repo: Storage, refs: Array<{ ref: string; oid: string }>, agreed: string | null = null): string | null | false {
  const mine = refs.filter((x) => isRecorded(x.ref));
  if (mine.length === 0) return null;
  const seen = readSeen(repo);
  if (!seen?.fp || !seen.record) return null;
  if (agreed === seen.record) return agreed;
  if (cache.commit !== seen.record) Object.assign(cache, { commit: seen.record, tips: new Map(), read: new Set() });
  // only the shelves of the refs read, each once per verified record
  const need = new Set(mine.map((x) => shelfOf(x.ref)).filter((s) => !cache.read!.has(s)));
  if (need.size) {
    const rec = readRecord(repo, seen.record, need);
    // a record of the first format is compared by the full check, which writes it shelved
    if (rec.problem || !rec.shelves) return false;
    for (const [ref, e] of rec.entries) cache.tips!.set(ref, e.oid);
    for (const s of need) cache.read!.add(s);
  }
  return mine.every((x) => cache.tips!.get(x.ref) === x.oid) && seen.record;
}

/** The session start's proof beside the fingerprint: the branch's loose handoff ref files and the receipts', read without git. */
export function branchFilesAgree(repo: Storage): boolean {
  const refs: Array<{ ref: string; oid: string }> = [];
  for (const dir of [...(repo.branch ? [branchPrefix(repo.branch)] : []), 'refs/notes/']) {
    for (const ref of namesIn(path.join(repo.commonDir, dir)).map((n) => dir + n).filter((r) => r.startsWith(HANDOFF_PREFIX) || r === NOTES_REF)) {
      const oid = looseRefValue(path.join(repo.commonDir, ref));
      // a lock, a directory or a file git would not write there: the full check looks
      if (!oid) return false;
      refs.push({ ref, oid });
    }
  }
  return readsAgree(repo, refs) !== false;
}

/** From now on in this process, every recorded ref read is compared; the first difference's full check goes to stderr. */
export function compareReads(repo: Storage): void {
  onRefsRead((r, refs, agreed) => {
    if (r.commonDir !== repo.commonDir) return null;
    const agreedWith = readsAgree(repo, refs, agreed ?? null);
    // its own phase in GIT_HANDOFF_TRACE: the first comparison inflates the record
    trace('reads compared', agreed && agreedWith === agreed ? 'as before' : undefined);
    if (agreedWith !== false) return agreedWith;
    onRefsRead(null);
    try {
      const text = renderLosses(checkRecord(repo, { force: true }));
      if (text) process.stderr.write(text);
    } catch {
      // the record is a second line of defence: it never fails the command
    }
    return null;
  });
}
