// Reading loose objects without a git process: for a reader that can fall back to git when an object is packed
// (the loss record's comparison of what a command reads, src/handoff/record/record-reads.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommit, type BatchObject, type Storage } from './storage';

// loaded at first use: node:zlib costs every command about 2 ms to load, and most never read or write an object
let zlib: typeof import('node:zlib') | null = null;
/** node:zlib, required the first time an object is read or written (here and in loose.ts). */
export const lazyZlib = (): typeof import('node:zlib') => (zlib ??= require('node:zlib') as typeof import('node:zlib'));

/** One loose object, inflated; null when it is not loose here or its content would pass `max` bytes (inflating stops there). */
export function readLoose(repo: Pick<Storage, 'commonDir'>, oid: string, max?: number): BatchObject | null {
  const file = looseFile(repo, oid);
  return file && inflateLoose(oid, file, max);
}

/** Objects read in this process while they are loose (a write leaves its own so), the rest (and names) by one cat-file. */
export function readObjectsLooseFirst(repo: Pick<Storage, 'commonDir' | 'readObjects'>, specs: string[], max?: number): Array<BatchObject | null> {
  const found = specs.map((s) => (/^[0-9a-f]+$/.test(s) ? readLoose(repo, s, max) : null));
  const rest = specs.filter((_, i) => !found[i]);
  const got = rest.length ? repo.readObjects(rest, max === undefined ? undefined : max + 1024) : [];
  return found.map((o) => o ?? got.shift() ?? null);
}

/** A loose object's file as stored (deflated), or null when it is not a loose object here. */
export function looseFile(repo: Pick<Storage, 'commonDir'>, oid: string): Buffer | null {
  try {
    return readFileSync(path.join(repo.commonDir, 'objects', oid.slice(0, 2), oid.slice(2)));
  } catch {
    return null;
  }
}

/** A loose object's file inflated (readLoose's reading of it); null when it does not inflate to an object. */
export function inflateLoose(oid: string, file: Buffer, max?: number): BatchObject | null {
  let raw: Buffer;
  try {
    // one output chunk for most objects (text inflates to about 3-4 times its size): zlib's default of 16 KiB takes
    // 64 chunks and a copy for the 1 MiB record of 10,000 handoffs, about 1 ms more
    const chunkSize = Math.min(Math.max(16 * 1024, file.length * 4), max === undefined ? 64 << 20 : max + 64);
    // the header (`<type> <size>\0`) is at most a few dozen bytes
    raw = max === undefined ? lazyZlib().inflateSync(file, { chunkSize }) : lazyZlib().inflateSync(file, { chunkSize, maxOutputLength: max + 64 });
  } catch {
    return null;
  }
  const nul = raw.indexOf(0);
  const sp = raw.indexOf(32);
  if (nul < 0 || sp < 0 || sp > nul) return null;
  const content = raw.subarray(nul + 1);
  if (max !== undefined && content.length > max) return null;
  return { oid, type: raw.subarray(0, sp).toString('latin1'), content };
}

/**
 * A commit and the entries `names` of its tree from loose objects only (an entry the tree lacks: null); null for the
 * whole when an object needed is not loose, not of its type, or over its bound (`max`: the commit's, then each's).
 */
export function looseCommitFiles(repo: Pick<Storage, 'commonDir' | 'objectFormat'>, commit: string, names: string[], max: number[] = []): { commit: BatchObject; files: Array<BatchObject | null> } | null {
  const c = readLoose(repo, commit, max[0]);
  const tree = c?.type === 'commit' ? parseCommit(c.content).tree : undefined;
  const t = tree ? readLoose(repo, tree) : null;
  const entries = t?.type === 'tree' ? treeEntries(t.content, rawLength(repo)) : null;
  if (!c || !entries) return null;
  const files: Array<BatchObject | null> = [];
  for (let i = 0; i < names.length; i++) {
    const oid = entries.find((e) => e.name === names[i])?.oid;
    if (oid === undefined) {
      files.push(null);
      continue;
    }
    const o = readLoose(repo, oid, max[i + 1]);
    if (!o) return null;
    files.push(o);
  }
  return { commit: c, files };
}

/** The length of an object id in raw bytes (a tree's entries hold them so). */
export const rawLength = (repo: Pick<Storage, 'objectFormat'>) => (repo.objectFormat === 'sha256' ? 32 : 20);

/** A raw tree's entries (`<mode> <name>\0<raw oid>`); null when it is cut short. */
export function treeEntries(content: Buffer, raw: number): Array<{ mode: string; name: string; oid: string }> | null {
  const out = [];
  for (let at = 0; at < content.length; ) {
    const sp = content.indexOf(32, at);
    const nul = content.indexOf(0, at);
    if (sp < 0 || nul < sp || nul + 1 + raw > content.length) return null;
    out.push({ mode: content.toString('latin1', at, sp), name: content.toString('utf8', sp + 1, nul), oid: content.toString('hex', nul + 1, nul + 1 + raw) });
    at = nul + 1 + raw;
  }
  return out;
}
