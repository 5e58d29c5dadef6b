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
 * Writes all of `data` to `fd` with fs.writeSync, waiting out a non-blocking descriptor that is full (EAGAIN), at
 * most `maxWaits` times (1 ms each); any other error, or waiting longer, throws. The guard's answer and the CLI's
 * plain stdout/stderr (src/cli/stdio.ts) both write through it.
 */
export function writeAllSync(fd: number, data: Uint8Array, maxWaits = Infinity): void {
  for (let at = 0, waits = 0; at < data.length; ) {
    try {
      at += writeSync(fd, data, at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > maxWaits) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/**
 * Writes the guard's answer to fd 1 whole, with fs.writeSync: process.stdout on a pipe (how every client reads a
 * hook) loads node's stream and socket modules, a few ms each run. A pipe set non-blocking is waited on; a closed
 * one ends the write (never a throw).
 */
export function writeOut(text: string): void {
  try {
    writeAllSync(1, Buffer.from(text, 'utf8'), 5000);
  } catch {
    // a client that stopped reading (EPIPE) gets nothing more; the guard never fails for it
  }
}
