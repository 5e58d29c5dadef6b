// The loss record's own move (record.ts builds its commits): an explicit step of tx, by the one retry loop, for the
// moves that could not carry it in their own transaction and for recover and the record check. record.ts moves no ref
// itself: this step does, so record.ts needs nothing of index.ts and there is no import cycle.
import { MOVE_REFS, type Storage } from '../../../git/storage';
import { movesChange, nextRecord, RECORD_REF, seenAfterMove, setRecordBlocked, type RecordState } from './record';
import { pruneWitness, pushWitness } from './witness';
import type { RefUpdate } from './batch';
import { inspectLock, isStale, lockError } from './locks';
import { LOST, LOST_RACE, untilWon } from '../../../retry';

/**
 * Changes the record by compare-and-swap: `change` edits a copy of the current record and returns the oids to keep
 * reachable (new parents); a lost race re-reads and applies `change` again, so concurrent writers all land. Returns
 * the new record commit, or null when the record kept changing (the next command's check absorbs what is missing:
 * a tip that contains the recorded one is a legitimate advance). `witness` false: the witness is left behind (a batch
 * of many whose last one writes it, in one push).
 */
export function amendRecord(repo: Storage, change: (rec: RecordState) => string[] | null, fallback?: RecordState, restart = false, witness = true): string | null {
  setRecordBlocked(null);
  return untilWon<string | null>(
    () => {
      const next = nextRecord(repo, change, fallback, restart);
      if ('unchanged' in next) return next.unchanged;
      const r = repo[MOVE_REFS]([next.op], { reason: 'handoff record' });
      if (r.ok) {
        if (witness) pushWitness(repo, next.commit); // the witness outside .git takes the same record (witness.ts)
        return next.commit;
      }
      if (r.reason === 'hook') return null;
      // a lock a crashed git left on the record is not waited out 60 times: the next command's check takes it up
      if (r.reason === 'locked') {
        const lock = inspectLock(repo, r.lockFile!);
        if (isStale(lock)) {
          setRecordBlocked(lockError(RECORD_REF, lock, 0).message);
          return null;
        }
      }
      return LOST;
    },
    { policy: LOST_RACE, otherwise: () => null },
  );
}

/**
 * Called by tx's extension point (./extension.ts) after a batch of ref moves that could not carry the record's own
 * move: records the moved handoff, archive and receipts refs by a CAS of its own. Never fails the move it follows.
 */
export function recordMoves(repo: Storage, moves: RefUpdate[], replaces = false): void {
  const change = movesChange(moves);
  if (!change) return;
  try {
    seenAfterMove(repo, amendRecord(repo, change, undefined, replaces));
    if (replaces) pruneWitness(repo);
  } catch {
    // the record is a second line of defence: a failure here leaves it to the next command's check
  }
}

/**
 * Removes a record of nothing (uninstall in a repository that never had a handoff), by compare-and-swap against `oid`:
 * a write meanwhile moves the record and keeps it. Returns whether it was removed.
 */
export function removeEmptyRecord(repo: Storage, oid: string, reason: string): boolean {
  return repo[MOVE_REFS]([{ op: 'delete', ref: RECORD_REF, oldOid: oid }], { reason }).ok;
}
