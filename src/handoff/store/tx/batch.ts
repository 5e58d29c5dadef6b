// What a transaction moves (and a receiving repository is asked to take): the type tx, the loss record and the receive checks share.

/** One ref a transaction moves: oldOid null = created, newOid null = deleted. */
export interface RefUpdate {
  ref: string;
  oldOid: string | null;
  newOid: string | null;
}
