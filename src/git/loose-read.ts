// Reading loose objects without a git process: for a reader that can fall back to git when an object is packed
// (the loss record's comparison of what a command reads, src/handoff/record/record-reads.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Repo } from './repo';

// loaded at first use: node:zlib costs every command about 2 ms to load, and most never read or write an object
let zlib: typeof import('node:zlib') | null = null;
/** node:zlib, required the first time an object is read or written (here and in loose.ts). */
export const lazyZlib = (): typeof import('node:zlib') => (zlib ??= require('node:zlib') as typeof import('node:zlib'));

/** One loose object, inflated: null when it is not a loose object here (packed, or not there at all). */
export function readLoose(repo: Pick<Repo, 'commonDir'>, oid: string): { type: string; content: Buffer } | null {
  let raw: Buffer;
  try {
    raw = lazyZlib().inflateSync(readFileSync(path.join(repo.commonDir, 'objects', oid.slice(0, 2), oid.slice(2))));
  } catch {
    return null;
  }
  const nul = raw.indexOf(0);
  const sp = raw.indexOf(32);
  if (nul < 0 || sp < 0 || sp > nul) return null;
  return { type: raw.subarray(0, sp).toString('latin1'), content: raw.subarray(nul + 1) };
}

/**
 * The blob `name` of the tree of a commit, from loose objects only (commit, then tree, then blob); null when any of
 * them is not loose, or is not what it should be: the caller asks git then.
 */
export function looseCommitFile(repo: Pick<Repo, 'commonDir' | 'objectFormat'>, commit: string, name: string): Buffer | null {
  const rawLength = repo.objectFormat === 'sha256' ? 32 : 20;
  const c = readLoose(repo, commit);
  const tree = c?.type === 'commit' ? /^tree ([0-9a-f]+)\n/.exec(c.content.toString('latin1', 0, 80))?.[1] : undefined;
  const t = tree ? readLoose(repo, tree) : null;
  if (t?.type !== 'tree') return null;
  // entries: mode SP name NUL raw-oid
  for (let at = 0; at < t.content.length; ) {
    const nul = t.content.indexOf(0, at);
    if (nul < 0) return null;
    if (t.content.subarray(t.content.indexOf(32, at) + 1, nul).toString('utf8') === name) {
      const b = readLoose(repo, t.content.subarray(nul + 1, nul + 1 + rawLength).toString('hex'));
      return b?.type === 'blob' ? b.content : null;
    }
    at = nul + 1 + rawLength;
  }
  return null;
}
