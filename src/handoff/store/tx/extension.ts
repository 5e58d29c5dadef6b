// The one extension point every batch of ref updates the product makes passes through (issue 23's durability record).
import type { RefOp, Storage } from '../../../git/storage';
import { recordOp, RECORD_REF } from './record';
import { recordMoves } from './record-step';
import type { RefUpdate, TxBatch } from './batch';

/** Ops that join a batch's transaction (all or none), and what follows once it committed. */
export interface Extra {
  ops: RefOp[];
  committed(): void;
}

/** The refs the extra ops move: a lost compare-and-swap or a lock on one of these is the extension's, not the caller's. */
export const EXTRA_REFS = new Set([RECORD_REF]);

/** Before a batch commits: the loss record's own move, in the same `update-ref --stdin` transaction. */
export function extraOps(repo: Storage, batch: TxBatch): Extra | null {
  const r = recordOp(repo, batch.updates, batch.replaces);
  return r && { ops: [r.op], committed: r.committed };
}

/** Right after a batch committed without its extra ops (they could not join it): the loss record takes the moved refs. */
export function afterCommit(repo: Storage, batch: TxBatch): void {
  recordMoves(repo, batch.updates, batch.replaces);
}
