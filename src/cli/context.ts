// What every command handler starts from: the repository (after -C), the session, the output mode.
import { readFileSync } from 'node:fs';
import { HandoffError } from '../errors';
import { openRepo, type Repo } from '../git/repo';
import { parseRef } from '../handoff/names';

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
    try {
      return readFileSync(file === '-' ? 0 : file);
    } catch (e) {
      throw new HandoffError('usage', 'body-unreadable', `cannot read ${file === '-' ? 'standard input' : file}: ${(e as Error).message}`);
    }
  }
  if (messages?.length) return Buffer.from(messages.map(String).join('\n\n') + '\n', 'utf8');
  throw new HandoffError('usage', 'body-missing', 'no body: give it with -m <text> (repeatable, one paragraph each), -F <file>, or -F - for stdin');
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
