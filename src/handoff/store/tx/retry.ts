// The one retry loop of the store's compare-and-swap writers (versions, drops, receipts, leases, the loss record): a
// leaf module, so the record's own step (./record-step.ts) shares it with tx without an import cycle.
import type { HandoffError } from '../../../errors';
import { backoff } from './sleep';

/**
 * How long one lock a live process may hold is waited on (a hook's node run holds one ~0.1–0.3 s, seconds on a
 * loaded machine): a lock file this old still held fails. A lock taken again by the next writer is younger than the
 * wait: a crowd that moves is waited out, writer after writer (issue 25 item 4).
 */
export const LOCK_WAIT_MS = 30_000;

export const LOST = Symbol('lost');

/**
 * Runs `step` (read, build, move) until it returns a value; each LOST (a lost compare-and-swap) backs off with
 * jitter and runs it again on what is there now, at most `attempts` times. A lost race is another writer's
 * progress: the `deadlineMs` without a move of its own counts from the last one. Out of attempts, `gaveUp`'s error
 * is thrown, or `otherwise` says what the caller reports (never a win it did not have).
 */
export function untilWon<T>(
  step: (attempt: number) => T | typeof LOST,
  o: { attempts: number; deadlineMs?: number; cap?: number } & ({ gaveUp: () => HandoffError } | { otherwise: () => T }),
): T {
  let deadline = Date.now() + (o.deadlineMs ?? LOCK_WAIT_MS);
  for (let attempt = 0; attempt < o.attempts && Date.now() < deadline; attempt++) {
    const r = step(attempt);
    if (r !== LOST) return r;
    deadline = Date.now() + (o.deadlineMs ?? LOCK_WAIT_MS);
    backoff(attempt, o.cap);
  }
  if ('otherwise' in o) return o.otherwise();
  throw o.gaveUp();
}
