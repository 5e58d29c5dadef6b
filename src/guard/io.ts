// The guard's stdin and stdout without node's stream machinery: what dist/guard.cjs, the first file loaded before
// every tool call, needs before it knows which bundle to load (so it stays a few KB).
import { readSync, writeSync } from 'node:fs';

/** Payloads larger than this are refused as bad input (a handoff body is at most 1 MiB). */
export const MAX_PAYLOAD = 4 * 1024 * 1024;

/** Stdin read so far: kept chunks (up to the limit), the total size, whether it ended. */
export interface StdinState {
  chunks: Buffer[];
  size: number;
  done: boolean;
}

export const stdinState = (): StdinState => ({ chunks: [], size: 0, done: false });

/** Adds one read to the state; over `limit` bytes the rest is drained, not kept. */
export function take(s: StdinState, buf: Buffer, n: number, limit: number): void {
  if (n === 0) s.done = true;
  s.size += n;
  if (n > 0 && s.size <= limit) s.chunks.push(Buffer.from(buf.subarray(0, n)));
}

/** The payload, or null when it is larger than `limit`. */
export const payloadOf = (s: StdinState, limit: number): Buffer | null => (s.size > limit ? null : Buffer.concat(s.chunks));

/**
 * Reads fd 0 synchronously (no stream machinery, no thread pool). Stops early, with `done` false, when fd 0 is
 * non-blocking and has nothing yet (EAGAIN): the caller then goes on reading asynchronously.
 */
export function readStdinSync(s: StdinState, limit: number): StdinState {
  const buf = Buffer.allocUnsafe(1 << 16);
  while (!s.done) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return s;
      n = 0; // EOF (Windows pipes), EBADF (no stdin): what was read is the payload
    }
    take(s, buf, n, limit);
  }
  return s;
}

/**
 * Writes the guard's answer to fd 1 whole, with fs.writeSync: process.stdout on a pipe (how every client reads a
 * hook) loads node's stream and socket modules, a few ms each run. A pipe set non-blocking is waited on; a closed
 * one ends the write (never a throw).
 */
export function writeOut(text: string): void {
  const buf = Buffer.from(text, 'utf8');
  for (let off = 0, tries = 0; off < buf.length; ) {
    try {
      off += writeSync(1, buf, off);
    } catch (e) {
      // a client that stopped reading (EPIPE) gets nothing more; the guard never fails for it
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > 5000) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}
