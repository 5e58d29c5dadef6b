// A ref update a receiving repository is asked to take, and why one is refused: what ref-updates.ts and
// replace-refs.ts check.
import type { Violation } from './ownership';

export interface ReceiveUpdate {
  oldOid: string | null;
  newOid: string | null;
  ref: string;
}

export interface Refusal {
  ref: string;
  rule: Violation['rule'] | 'name' | 'archive-moved' | 'archive-unrecorded' | 'receipts-dropped' | 'replace';
  message: string;
  hint: string;
}
