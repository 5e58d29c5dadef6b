// The one extension point every batch of ref updates the product makes passes through (issue 23's durability record).
import type { RefOp } from '../../../git/refs';
import type { Repo } from '../../../git/repo';
import { recordMoves } from '../../record/record';

/** One ref a transaction moves: oldOid null = created, newOid null = deleted. */
export interface RefUpdate {
  ref: string;
  oldOid: string | null;
  newOid: string | null;
}

/** A batch as tx is about to commit it: `reason` is the reflog message (`handoff write <topic>`, `handoff fetch`…). */
export interface TxBatch {
  reason: string;
  updates: RefUpdate[];
}

/** Before a batch commits: ops returned here join the same `update-ref --stdin` transaction (all or none). */
export function extraOps(_repo: Repo, _batch: TxBatch): RefOp[] {
  return [];
}

/** Right after a batch committed (not called for a batch that failed): the loss record takes the moved refs. */
export function afterCommit(repo: Repo, batch: TxBatch): void {
  recordMoves(repo, batch.updates);
}
