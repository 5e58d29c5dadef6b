// The loss record's own move, for the moves that could not carry it in their transaction and for recover and the
// record check (record.ts builds the commits and moves no ref, so it needs nothing of index.ts).
import { MOVE_REFS, type Storage } from '../../../git/storage';
import { movesChange, nextRecord, RECORD_REF, seenAfterMove, setRecordBlocked, type RecordState } from './record';
import { pruneWitness, pushWitness } from './witness';
import type { RefUpdate } from './batch';
import { inspectLock, isStale, lockError } from './locks';
import { LOST, LOST_RACE, untilWon } from '../../../retry';

/**
 * Changes the record by compare-and-swap (nextRecord's `change`, applied again after a lost race). Returns the new
 * record commit, or null when it kept changing (the next check takes it up). `witness` false: the caller writes it.
 */
export function amendRecord(repo: Storage, change: (rec: RecordState) => string[] | null, fallback?: RecordState, restart = false, witness = true): string | null {
  setRecordBlocked(null);
  return untilWon<string | null>(
    () => {
      const next = nextRecord(repo, change, fallback, restart);
      if ('unchanged' in next) return next.unchanged;
      const r = repo[MOVE_REFS]([next.op], { reason: 'handoff record' });
      if (r.ok) {
        if (witness) pushWitness(repo, next.commit);
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

/** Records a batch of moves that could not carry the record's move, by a CAS of its own; never fails the move. */
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

/** Removes a record of nothing (uninstall where no handoff was written) by compare-and-swap against `oid`. */
export function removeEmptyRecord(repo: Storage, oid: string, reason: string): boolean {
  return repo[MOVE_REFS]([{ op: 'delete', ref: RECORD_REF, oldOid: oid }], { reason }).ok;
}
