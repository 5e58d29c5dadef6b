// The guard's stdin and stdout without node's stream machinery (dist/guard.cjs loads this before every tool call).
import { readFileSync, readSync, writeSync } from 'node:fs';
import { answerParts } from '../clients/answer';
import { AGAIN, NOT_READY, retrying, type BackoffPolicy } from '../retry';

/** Payloads larger than this are refused as bad input (a handoff body is at most 1 MiB). */
export const MAX_PAYLOAD = 4 * 1024 * 1024;

/** Stdin read so far: kept chunks (up to the limit), the total size, whether it ended; or all of it as `text`. */
export interface StdinState {
  chunks: Buffer[];
  size: number;
  done: boolean;
  text?: string;
}

export const stdinState = (): StdinState => ({ chunks: [], size: 0, done: false });

/** Adds one read to the state; over `limit` bytes the rest is drained, not kept. */
export function take(s: StdinState, buf: Buffer, n: number, limit: number): void {
  if (n === 0) s.done = true;
  s.size += n;
  if (n > 0 && s.size <= limit) s.chunks.push(Buffer.from(buf.subarray(0, n)));
}

/** The payload, or null when it is larger than `limit`. */
export const payloadOf = (s: StdinState, limit: number): Buffer | null => (s.size > limit ? null : s.text !== undefined ? Buffer.from(s.text, 'utf8') : Buffer.concat(s.chunks));

/** O_NONBLOCK in /proc/<pid>/fdinfo/<fd>'s `flags:` line (octal). */
const O_NONBLOCK = 0o4000;

/** Whether fd 0 surely blocks: Linux's /proc says so. */
function stdinBlocks(): boolean {
  try {
    const m = /^flags:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/fdinfo/0', 'utf8'));
    return m !== null && (parseInt(m[1], 8) & O_NONBLOCK) === 0;
  } catch {
    return false;
  }
}

/**
 * The whole payload on fd 0 as text (null: stdin did not end at once, or is over `limit`), and the state the full guard
 * goes on from. A blocking fd 0 is read by one readFileSync, done in C++ (no JS read functions to compile); a
 * non-blocking one chunk by chunk, where a whole read could stop with EAGAIN and lose what it read.
 */
export function readStdinText(limit: number): { stdin: StdinState; text: string | null } {
  if (stdinBlocks()) {
    let text: string;
    try {
      text = readFileSync(0, 'utf8');
    } catch (e) {
      // too large for one string: as any payload over the limit; any other error ends stdin where it was (EOF, EBADF)
      if (e instanceof RangeError || (e as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') return { stdin: { chunks: [], size: limit + 1, done: true }, text: null };
      text = '';
    }
    const size = Buffer.byteLength(text, 'utf8');
    return size > limit ? { stdin: { chunks: [], size, done: true }, text: null } : { stdin: { chunks: [], size, done: true, text }, text };
  }
  const stdin = readStdinSync(stdinState(), limit);
  const raw = stdin.done ? payloadOf(stdin, limit) : null;
  return { stdin, text: raw === null ? null : raw.toString('utf8') };
}

/** Reads fd 0 synchronously; stops with `done` false when a non-blocking fd 0 has nothing yet (the caller goes on async). */
function readStdinSync(s: StdinState, limit: number): StdinState {
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

/** Writes all of `data` to `fd`, waiting out a full non-blocking descriptor by `policy`; any other error, or a spent policy, throws. */
export function writeAllSync(fd: number, data: Uint8Array, policy: BackoffPolicy = NOT_READY): void {
  let at = 0;
  retrying((wait) => {
    try {
      at += writeSync(fd, data, at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || !wait(policy)) throw e;
    }
    return at < data.length ? AGAIN : undefined;
  });
}

/** A client that stops reading the guard's answer is given 5 s. */
const ANSWER_READ: BackoffPolicy = { ...NOT_READY, name: 'answer-read', deadlineMs: 5_000 };

/** Writes the answer whole with fs.writeSync (process.stdout on a pipe loads node's stream modules); a closed pipe ends it. */
function writeOut(text: string, fd = 1): void {
  try {
    // the string in one write (node encodes it in C++, no Buffer functions to compile); what a full pipe left goes on
    let done = 0;
    try {
      done = writeSync(fd, text);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    }
    if (done < Buffer.byteLength(text, 'utf8')) writeAllSync(fd, Buffer.from(text, 'utf8').subarray(done), ANSWER_READ);
  } catch {
    // a client that stopped reading (EPIPE) gets nothing more; the guard never fails for it
  }
}

/** Prints a rendered answer (src/clients/answer.ts) and returns its exit status (set as the process's too). */
export function writeAnswer(answer: string): number {
  const { stdout, stderr, code } = answerParts(answer);
  if (stdout) writeOut(stdout + '\n');
  if (stderr) writeOut(stderr + '\n', 2);
  if (code) process.exitCode = code;
  return code;
}
