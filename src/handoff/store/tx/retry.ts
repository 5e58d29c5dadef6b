// The one retry loop of the store's compare-and-swap writers (versions, drops, receipts, leases, the loss record): a
// leaf module, so the record's own step (./record-step.ts) shares it with tx without an import cycle.
import type { HandoffError } from '../../../errors';
import { backoff, sleep } from './sleep';

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

/**
 * One retry policy (jj's BackoffIterator): the first wait is `startMs`, each next one `growth` times the last (at most
 * `maxMs`), each stretched by up to `jitter` of itself at random so racing clients spread out; no wait once `attempts`
 * were made or one would end past `deadlineMs` from the first. The network's retries (a transport cut in passing, a
 * host's rate limit), the claims' compare-and-swap loops and sync's fetch all take their waits from one of these.
 */
export interface BackoffPolicy {
  startMs: number;
  growth: number;
  jitter: number;
  maxMs: number;
  deadlineMs: number;
  attempts: number;
}

export class Backoff {
  readonly #started = Date.now();
  #made = 0;
  #last = 0;
  constructor(readonly policy: BackoffPolicy) {}
  /** How many waits were made. */
  get waits(): number {
    return this.#made;
  }
  /** The next wait in ms, or null: out of attempts, or it would end past the deadline. */
  next(): number | null {
    const p = this.policy;
    if (this.#made >= p.attempts) return null;
    const base = this.#made === 0 ? p.startMs : Math.min(p.maxMs, this.#last * p.growth);
    const ms = Math.round(base * (1 + p.jitter * Math.random()));
    if (Date.now() + ms - this.#started > p.deadlineMs) return null;
    this.#made++;
    this.#last = base;
    return ms;
  }
  /** Blocks for the next wait; false (no wait) when the policy is spent. */
  wait(): boolean {
    const ms = this.next();
    if (ms === null) return false;
    sleep(ms);
    return true;
  }
}

/** A transport cut in passing (a reset connection, a gateway's 502–504): 3 more tries, 100–200, 200–400, 400–800 ms apart. */
export const TRANSIENT: BackoffPolicy = { startMs: 100, growth: 2, jitter: 1, maxMs: 800, deadlineMs: 5_000, attempts: 3 };
/** A compare-and-swap lost to another writer (a lock, a stale lease): short, spread waits while others make progress. */
export const CONTENDED: BackoffPolicy = { startMs: 5, growth: 1.5, jitter: 1, maxMs: 60, deadlineMs: LOCK_WAIT_MS, attempts: 60 };
/**
 * A host's rate limit (GitHub's "secondary rate limit", HTTP 429, GitLab's concurrency queue): from 2 s, doubling up to
 * 30 s, for as long as the caller gives it (`handoff.hostWait`, default 60 s).
 */
export const hostLimited = (deadlineMs: number): BackoffPolicy => ({ startMs: 2_000, growth: 2, jitter: 0.5, maxMs: 30_000, deadlineMs, attempts: 20 });
