// The one retry policy (jj's BackoffIterator: start, growth, jitter, deadline) and the one loop that waits by it:
// every lock wait, every compare-and-swap and every network retry of the product, and the waits on a descriptor
// that is not ready. No other module sleeps or counts retries (test/retry.test.ts reads the sources).
import type { HandoffError } from './errors';

/**
 * The first wait is `startMs`, each next one `growth` times the last (at most `maxMs`), each stretched by up to
 * `jitter` of itself at random so racing clients spread out; no wait once `attempts` were made or one would end past
 * `deadlineMs` from the first. `name` tells one policy's waits from another's within a loop.
 */
export interface BackoffPolicy {
  name: string;
  startMs: number;
  growth: number;
  jitter: number;
  maxMs: number;
  deadlineMs: number;
  attempts: number;
}

/** How long a lock a live process may hold is waited on (a hook's run holds one ~0.1–0.3 s): a lock file this old still held fails. */
export const LOCK_WAIT_MS = 30_000;

/** A compare-and-swap of a local ref lost to another writer, who is done within milliseconds. */
export const LOST_RACE: BackoffPolicy = { name: 'lost-race', startMs: 2, growth: 1.5, jitter: 1, maxMs: 30, deadlineMs: Infinity, attempts: 60 };
/** A lock of a claims tracking ref or of git's config taken by another writer. */
export const CONTENDED: BackoffPolicy = { name: 'contended', startMs: 5, growth: 1.5, jitter: 1, maxMs: 60, deadlineMs: LOCK_WAIT_MS, attempts: 60 };
/** A claims table lost to another session's change: each loss is another writer's win, so a crowd is waited out by attempts. */
export const CLAIMS_CROWD: BackoffPolicy = { name: 'claims-crowd', startMs: 5, growth: 1.6, jitter: 1, maxMs: 500, deadlineMs: 180_000, attempts: 100 };
/** A ref lock a live process may hold, for as long as the caller's rule (the lock file's age, LOCK_WAIT_MS) lets it. */
export const LOCK_HELD: BackoffPolicy = { name: 'lock-held', startMs: 5, growth: 1.5, jitter: 2, maxMs: 75, deadlineMs: Infinity, attempts: Infinity };
/** A lock of this repository in a fetch's way: at most 5 more fetches, each after the lock is waited out (LOCK_HELD). */
export const LOCK_IN_THE_WAY: BackoffPolicy = { name: 'lock-in-the-way', startMs: 0, growth: 1, jitter: 0, maxMs: 0, deadlineMs: Infinity, attempts: 5 };
/** A transport cut in passing (a reset connection, a gateway's 502–504). */
export const TRANSIENT: BackoffPolicy = { name: 'transient', startMs: 100, growth: 2, jitter: 1, maxMs: 800, deadlineMs: 5_000, attempts: 3 };
/** A host's rate limit (HTTP 429, GitHub's secondary rate limit), for as long as `handoff.hostWait` gives it. */
export const hostLimited = (deadlineMs: number): BackoffPolicy => ({ name: 'host-limited', startMs: 2_000, growth: 2, jitter: 0.5, maxMs: 30_000, deadlineMs, attempts: 20 });
/** A non-blocking descriptor not ready yet (EAGAIN: input not there, a pipe full), for as long as it takes. */
export const NOT_READY: BackoffPolicy = { name: 'not-ready', startMs: 2, growth: 1.5, jitter: 0, maxMs: 10, deadlineMs: Infinity, attempts: Infinity };

/** Blocks this thread for `ms` (the store's steps are synchronous: a CLI call or a hook is a short sequence of git steps). */
const sleep = (ms: number): void => {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// registered symbols (Symbol.for): a step and its loop may come from two bundles, each with its own copy of this module
/** A step's answer: run it again (after the wait it took, if any). */
export const AGAIN: unique symbol = Symbol.for('git-handoff: again');
/** An untilWon step's answer: its compare-and-swap was lost (another writer moved first). */
export const LOST: unique symbol = Symbol.for('git-handoff: lost');

/** Takes the next wait of `policy` for this loop: false when the policy is spent (the step then lets its failure through). */
export type Wait = (policy: BackoffPolicy) => boolean;
type Step<R> = (wait: Wait, attempt: number) => R;

/**
 * The one retry loop: runs `step` until it returns something other than AGAIN. Before it answers AGAIN a step may
 * take one policy's next wait (`wait(policy)`, false when that policy is spent); the loop waits it out before the
 * next attempt, blocking for a synchronous step, by a timer for an asynchronous one (its event loop goes on).
 */
export const retrying = <T>(step: Step<T | typeof AGAIN>): T => loop(step) as T;
/** retrying for a step that returns a promise: its waits are timers, so the event loop goes on meanwhile. */
export const retryingAsync = <T>(step: Step<Promise<T | typeof AGAIN>>): Promise<T> => loop(step) as Promise<T>;

function loop<T>(step: Step<T | typeof AGAIN | Promise<T | typeof AGAIN>>): T | Promise<T> {
  // each policy's waits made so far, its first one's start and its last base wait (jj's BackoffIterator)
  const made = new Map<string, { n: number; started: number; last: number }>();
  let due = 0;
  const wait: Wait = (p) => {
    const m = made.get(p.name) ?? { n: 0, started: Date.now(), last: 0 };
    if (m.n >= p.attempts) return false;
    const base = m.n === 0 ? p.startMs : Math.min(p.maxMs, m.last * p.growth);
    const ms = Math.round(base * (1 + p.jitter * Math.random()));
    if (Date.now() + ms - m.started > p.deadlineMs) return false;
    made.set(p.name, { n: m.n + 1, started: m.started, last: base });
    due += ms;
    return true;
  };
  const taken = () => {
    const ms = due;
    due = 0;
    return ms;
  };
  const go = (attempt: number): T | Promise<T> => {
    for (;; attempt++) {
      const r = step(wait, attempt);
      if (r instanceof Promise) return r.then(async (v) => (v === AGAIN ? (await pause(taken()), go(attempt + 1)) : v));
      if (r !== AGAIN) return r;
      sleep(taken());
    }
  };
  return go(0);
}

type Won<T> = { policy: BackoffPolicy } & ({ gaveUp: (attempts: number) => HandoffError } | { otherwise: () => T });
type WonStep<R> = (attempt: number) => R;

/**
 * The one compare-and-swap loop: runs `step` (read, build, move) until it returns a value. A LOST (another writer
 * moved first) takes `policy`'s next wait and runs it again on what is there now; AGAIN runs it again at once (what
 * it read changed, nothing was lost). Out of waits, `gaveUp`'s error is thrown, or `otherwise` says what the caller
 * reports (never a win it did not have).
 */
export const untilWon = <T>(step: WonStep<T | typeof LOST | typeof AGAIN>, o: Won<T>): T => won(step, o) as T;
/** untilWon for a step that returns a promise (a compare-and-swap on a remote). */
export const untilWonAsync = <T>(step: WonStep<Promise<T | typeof LOST | typeof AGAIN>>, o: Won<T>): Promise<T> => won(step, o) as Promise<T>;

function won<T>(step: WonStep<T | typeof LOST | typeof AGAIN | Promise<T | typeof LOST | typeof AGAIN>>, o: Won<T>): T | Promise<T> {
  const settle = (r: T | typeof LOST | typeof AGAIN, wait: Wait, attempt: number): T | typeof AGAIN => {
    if (r !== LOST) return r;
    if (wait(o.policy)) return AGAIN;
    if ('otherwise' in o) return o.otherwise();
    throw o.gaveUp(attempt + 1);
  };
  return loop<T>((wait, attempt) => {
    const r = step(attempt);
    return r instanceof Promise ? r.then((v) => settle(v, wait, attempt)) : settle(r, wait, attempt);
  });
}
