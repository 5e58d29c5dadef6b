// Every commit the product makes is built here (./commits.ts) and every ref it moves is moved here, by one lock and
// retry policy, the loss record's move joining each batch (./record.ts).
import { HandoffError } from '../../../errors';
import { ownStubAlone } from '../../../git/hook-stub';
import { MOVE_REFS, type RefOp, type Storage } from '../../../git/storage';
import { refOpOf, type RefUpdate } from './batch';
import { RECORD_REF, recordMoves, recordOp } from './record';
import { heldTooLong, inspectLock, lockError, refOfLock } from './locks';
import { AGAIN, LOCK_HELD, LOST_RACE, retrying } from '../../../retry';

export type { RefOp } from '../../../git/storage';

export { commitRecord, commitRewrite, commitVersion } from './commits';

export interface MoveOptions {
  /** what the ops do, for a hook's refusal: "the update of refs/handoffs/main/x" */
  what?: string;
  /** stop waiting for locks at this time (ms since the epoch) */
  deadline?: number;
  /** environment for git and its hooks (recover's move back over a rogue tip passes them on the record) */
  env?: NodeJS.ProcessEnv;
  /** the moves replace versions (redact's rewrite): the loss record keeps only what it names from now on */
  replaces?: boolean;
  /** every update was built and checked by this process: where the hook is git-handoff's stub alone, git runs no hook */
  own?: true;
}

/** A lost compare-and-swap (another writer moved a ref first): the caller re-reads and decides. */
export type MoveOutcome = { ok: true } | { ok: false; message: string };

/** What the ops move (refOpOf's inverse); a verify moves nothing. */
const updatesOf = (ops: RefOp[]): RefUpdate[] =>
  ops.flatMap((o) => (o.op === 'verify' ? [] : [{ ref: o.ref, oldOid: 'oldOid' in o ? o.oldOid : null, newOid: 'newOid' in o ? o.newOid : null }]));

/** The ref a failed transaction names (`cannot lock ref '<ref>': …`, or the ref of the lock file), if any. */
function refOfFailure(repo: Storage, r: { message: string; lockFile?: string }): string | null {
  if (r.lockFile) return refOfLock(repo, r.lockFile);
  return /cannot lock ref '([^']+)'/.exec(r.message)?.[1] ?? null;
}

/**
 * Applies every op or none (`update-ref --stdin`) with the loss record's move; a lost compare-and-swap is returned, a
 * live lock waited out, a stale one or a hook's refusal thrown. A record that cannot join never stops the move.
 */
export function moveRefs(repo: Storage, ops: RefOp[], reason: string, o: MoveOptions = {}): MoveOutcome {
  if (ops.length === 0) return { ok: true };
  const updates = updatesOf(ops);
  const started = Date.now();
  let withExtra = true;
  const noHooks = !!o.own && ownStubAlone(repo, repo.knownConfig() ?? repo.config(), 'reference-transaction');
  return retrying<MoveOutcome>((wait) => {
    const extra = withExtra ? recordOp(repo, updates, o.replaces) : null;
    const r = repo[MOVE_REFS](extra ? [...ops, extra.op] : ops, { reason, env: o.env, noHooks });
    if (r.ok) {
      if (extra) extra.committed();
      else recordMoves(repo, updates, o.replaces);
      return { ok: true };
    }
    const extraFailed = !!extra && refOfFailure(repo, r) === RECORD_REF;
    if (r.reason === 'lost') {
      if (!extraFailed) return { ok: false, message: r.message };
      if (!wait(LOST_RACE)) withExtra = false;
      return AGAIN;
    }
    if (r.reason === 'hook') {
      // which update a hook refused is not said: once more without the record's, which only the record needs
      if (extra) {
        withExtra = false;
        return AGAIN;
      }
      const what = o.what ?? `the update of ${updates.map((u) => u.ref).join(', ')}`;
      throw new HandoffError('integrity', 'refused-by-hook', `a reference-transaction hook refused ${what}; nothing moved:\n${r.message}`, { refs: updates.map((u) => u.ref) });
    }
    const lock = inspectLock(repo, r.lockFile!);
    if (heldTooLong(lock, o.deadline)) {
      if (!extraFailed) throw lockError(refOfLock(repo, lock.lockFile), lock, Date.now() - started);
      withExtra = false;
      return AGAIN;
    }
    wait(LOCK_HELD);
    return AGAIN;
  });
}

/** Moves one ref by compare-and-swap (old null: create only; new null: delete). */
export function moveRef(repo: Storage, ref: string, newOid: string | null, oldOid: string | null, reason: string, o: MoveOptions = {}): MoveOutcome {
  return moveRefs(repo, [refOpOf({ ref, newOid, oldOid })], reason, o);
}

