// What a transaction moves (and a receiving repository is asked to take): the type tx, the loss record and the receive checks share.
import type { RefOp } from '../../../git/storage';

/** One ref a transaction moves: oldOid null = created, newOid null = deleted. */
export interface RefUpdate {
  ref: string;
  oldOid: string | null;
  newOid: string | null;
}

/** The op that moves a ref from oldOid to newOid: create only when old is null, a deletion when new is null. */
export const refOpOf = ({ ref, newOid, oldOid }: RefUpdate): RefOp =>
  newOid === null ? { op: 'delete', ref, oldOid: oldOid! }
  : oldOid === null ? { op: 'create', ref, newOid }
  : { op: 'update', ref, newOid, oldOid };
