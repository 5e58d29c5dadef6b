// What a transaction moves: the types tx, its extension point and the loss record share.

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
  /** the moves replace versions (redact): the loss record must stop keeping the replaced ones reachable */
  replaces?: boolean;
}
