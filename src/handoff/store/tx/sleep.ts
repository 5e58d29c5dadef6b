// The waits of the synchronous retry loops (tx's moves, the loss record's own CAS, receipts): a leaf module, so the
// record (which tx's extension point imports) shares it with tx without an import cycle.

/** Blocks this thread for `ms` (the store's steps are synchronous: a CLI call or a hook is a short sequence of git steps). */
export const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The jittered wait after a lost compare-and-swap: up to min(5 + 5 × attempt, cap) ms, so racing writers spread out. */
export const backoff = (attempt: number, cap = 60): void => sleep(Math.random() * Math.min(5 + attempt * 5, cap));
