// What every command handler starts from: the repository (after -C), the session, the output mode.
import { closeSync, openSync, readSync } from 'node:fs';
import { HandoffError } from '../errors';
import { openRepo, type Repo } from '../git/repo';
import { BODY_MAX } from '../handoff/store/document';
import { parseRef } from '../handoff/store/names';

export interface GlobalArgs {
  json?: boolean;
  quiet?: boolean;
  C?: string | string[];
}

export const repoFor = (_argv: GlobalArgs): Repo => openRepo(process.cwd());

/** The body of a write: -m paragraphs, or -F <file> / -F - for stdin. */
export function readBodyArg(messages: string[] | undefined, file: string | undefined): Buffer {
  if (file !== undefined && messages?.length) throw new HandoffError('usage', 'body-twice', 'give the body with -m or with -F, not both');
  if (file !== undefined) {
    const what = file === '-' ? 'standard input' : file;
    let buf: Buffer;
    try {
      buf = readBounded(file === '-' ? 0 : file, BODY_MAX + 1);
    } catch (e) {
      throw new HandoffError('usage', 'body-unreadable', `cannot read ${what}: ${(e as Error).message}`);
    }
    // one byte past the limit is enough to refuse: /dev/zero or an endless pipe is never read to its end
    if (buf.length > BODY_MAX) throw new HandoffError('usage', 'body-too-large', `${what} holds more than ${BODY_MAX} bytes (1 MiB), the most a handoff stores; nothing was read past that`);
    return buf;
  }
  if (messages?.length) return Buffer.from(messages.map(String).join('\n\n') + '\n', 'utf8');
  throw new HandoffError('usage', 'body-missing', 'no body: give it with -m <text> (repeatable, one paragraph each), -F <file>, or -F - for stdin');
}

/** At most `limit` bytes of a file or descriptor (a device or a pipe may never end). */
export function readBounded(file: string | number, limit: number): Buffer {
  const fd = typeof file === 'number' ? file : openSync(file, 'r');
  const buf = Buffer.alloc(limit);
  let n = 0;
  try {
    while (n < limit) {
      let got: number;
      try {
        got = readSync(fd, buf, n, limit - n, null);
      } catch (e) {
        // a non-blocking stdin with nothing yet: wait for it as readFileSync would
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
          continue;
        }
        if ((e as NodeJS.ErrnoException).code === 'EOF') break;
        throw e;
      }
      if (got === 0) break;
      n += got;
    }
  } finally {
    if (typeof file !== 'number') closeSync(fd);
  }
  return buf.subarray(0, n);
}

/** The takeover a command asks for; `--reason` alone is an error, not silently ignored. */
export function takeoverArg(a: { takeOver?: boolean; reason?: string }, command: string): { reason: string } | null {
  if (a.reason !== undefined && !a.takeOver) {
    throw new HandoffError('usage', 'reason-without-takeover', `--reason goes with --take-over (it records why a handoff was taken over); add --take-over or drop --reason. See \`git handoff ${command} -h\``);
  }
  return a.takeOver ? { reason: a.reason ?? '' } : null;
}

/** A handoff ref as printed: with the branch as people name it when the ref had to encode it (feature%2Flogin). */
export function shownRef(ref: string): string {
  const p = parseRef(ref);
  return p && p.branch !== null && p.branch !== p.encodedBranch ? `${ref} (branch ${p.branch})` : ref;
}
