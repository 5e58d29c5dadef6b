// What every command handler starts from: the repository (after -C), who acts (the writer: a session, or with
// --person the person in git config; the reader of receipts), the output mode.
import { closeSync, openSync, readSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { ROLE_VAR } from '../environment';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import { readerOf, type Reader } from '../handoff/store/address';
import { personRef } from '../handoff/store/person';
import { requireSession, resolveSession, type SessionRef } from '../handoff/state/session';
import { AGAIN, NOT_READY, retrying } from '../retry';
import { BODY_MAX } from '../handoff/store/document';
import { parseRef } from '../handoff/store/names';
import type { ScannedWriteResult } from '../handoff/secrets/secrets-write';
import { printJson, warn } from './output';
import type { GLOBAL_OPTIONS, OptionArgs } from './spec';

export type GlobalArgs = OptionArgs<typeof GLOBAL_OPTIONS>;

/** A command whose handler is given what its builder declares (yargs reads each option's type), with no second list. */
export const command = <U>(c: CommandModule<GlobalArgs, U>): CommandModule<GlobalArgs, U> => c;

interface IdentityArgs {
  session?: string;
  person?: boolean;
  role?: string;
}

/** The writer: --person, else the session (exit 5 without one, as ever: a person never writes by accident). */
export function writerOf(repo: Repo, a: IdentityArgs): SessionRef {
  if (!a.person) return requireSession(a.session);
  if (a.session !== undefined) throw new HandoffError('usage', 'person-and-session', 'give --person or --session, not both');
  return personRef(repo);
}

/** The reader: --person, else the session of the environment; null when neither says who reads. */
export function readerFor(repo: Repo, a: IdentityArgs): Reader | null {
  const role = a.role ?? process.env[ROLE_VAR] ?? null;
  if (a.person) return readerOf({ person: personRef(repo).id, role });
  const s = resolveSession(a.session);
  return readerOf({ session: s?.id ?? null, client: s?.client ?? null, role });
}

/** Resolves once Ctrl-C (SIGINT) or SIGTERM came and `stop` is done: a command that serves or watches until then. */
export function untilInterrupted(stop: () => void | Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const stopped = () => {
      process.off('SIGINT', stopped);
      process.off('SIGTERM', stopped);
      void Promise.resolve(stop()).then(resolve);
    };
    process.on('SIGINT', stopped);
    process.on('SIGTERM', stopped);
  });
}

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
function readBounded(file: string | number, limit: number): Buffer {
  const fd = typeof file === 'number' ? file : openSync(file, 'r');
  const buf = Buffer.alloc(limit);
  let n = 0;
  try {
    retrying((wait) => {
      if (n >= limit) return;
      let got: number;
      try {
        got = readSync(fd, buf, n, limit - n, null);
      } catch (e) {
        // a non-blocking stdin with nothing yet: wait for it as readFileSync would
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN' && wait(NOT_READY)) return AGAIN;
        if ((e as NodeJS.ErrnoException).code === 'EOF') return;
        throw e;
      }
      if (got === 0) return;
      n += got;
      return AGAIN;
    });
  } finally {
    if (typeof file !== 'number') closeSync(fd);
  }
  return buf.subarray(0, n);
}

/** The takeover a command asks for; `--reason` alone is an error, not silently ignored. */
export function takeoverArg(a: { takeOver?: boolean; reason?: string; fromLive?: boolean }, command: string): { reason: string; fromLive: boolean } | null {
  if (a.reason !== undefined && !a.takeOver) {
    throw new HandoffError('usage', 'reason-without-takeover', `--reason goes with --take-over (it records why a handoff was taken over); add --take-over or drop --reason. See \`git handoff ${command} -h\``);
  }
  if (a.fromLive && !a.takeOver) {
    throw new HandoffError('usage', 'from-live-without-takeover', `--from-live goes with --take-over --reason (it takes a handoff over from a session that is live); add them or drop --from-live. See \`git handoff ${command} -h\``);
  }
  return a.takeOver ? { reason: a.reason ?? '', fromLive: !!a.fromLive } : null;
}

/** What a takeover's answer says: from whom, and whether that session was live (it is told). */
function takenOverNote(t: ScannedWriteResult['takenFrom']): string {
  if (!t?.session) return 'taken over';
  if (!t.live) return `taken over from session ${t.session}`;
  return `taken over from live session ${t.live.session}${t.live.client ? ` (${t.live.client})` : ''}: it is told at its next tool call and session start`;
}

/** The answer of write and edit: the new version's warnings on stderr, its ref and oid, whether created or taken over. */
export function printWritten(json: boolean | undefined, r: ScannedWriteResult): void {
  if (json) return printJson(r);
  r.warnings.forEach(warn);
  process.stdout.write(`${shownRef(r.ref)} ${r.oid.slice(0, 7)}${r.created ? ' (created)' : r.takeover ? ` (${takenOverNote(r.takenFrom)})` : ''}\n`);
}

/** A handoff ref as printed: with the branch as people name it when the ref had to encode it (feature%2Flogin). */
export function shownRef(ref: string): string {
  const p = parseRef(ref);
  return p && p.branch !== null && p.branch !== p.encodedBranch ? `${ref} (branch ${p.branch})` : ref;
}
