// Writing git-handoff's local state: never through a symlink, never into another user's file or directory, bounded.
import { closeSync, constants, existsSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileStamp, readJsonOr } from '../../read-file';
import { encodeBranch, handoffDir, jsonLinesIn, namesIn } from './paths';

/** A write refused by the disk itself: full, over quota, or mounted read-only. */
export const isDiskError = (e: unknown): boolean => ['ENOSPC', 'EDQUOT', 'EROFS', 'disk-full', 'read-only'].includes((e as { code?: string } | null)?.code ?? '');

/** Optional state (a reminder, a lineage note nothing is refused on): a disk that cannot take it skips it. */
export function optionalWrite(write: () => void): void {
  try {
    write();
  } catch (e) {
    if (!isDiskError(e)) throw e;
  }
}

/** Logs and append-only records rotate to `<file>.1` past this size. */
const MAX_STATE_FILE = 4 * 1024 * 1024;

const me = () => process.geteuid?.() ?? null;

/** Why `dir` (and every directory from `root` down to it) is not a real directory this user owns, or null. */
function unsafeDir(dir: string, root: string): string | null {
  const uid = me();
  for (let d = dir; ; d = path.dirname(d)) {
    let st;
    try {
      st = lstatSync(d);
    } catch {
      return `${d} is missing`;
    }
    if (st.isSymbolicLink() || !st.isDirectory()) return `${d} is not a directory (a symlink?)`;
    if (uid !== null && st.uid !== uid) return `${d} belongs to another user`;
    if (d === root || path.dirname(d) === d) return null;
  }
}

/** Makes `dir` below `root` and checks it is safe to write in. */
function stateDir(dir: string, root: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // node's recursive mkdir says ENOENT where a read-only disk refused: one level at a time names EROFS (optional state then skips it)
    const missing: string[] = [];
    for (let d = dir; !existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) missing.unshift(d);
    for (const d of missing) mkdirSync(d, { mode: 0o700 });
  }
  const why = unsafeDir(dir, root);
  if (why) throw new Error(`refusing to write git-handoff state: ${why}`);
}

/** Opens a state file without following a symlink; refuses a file that is not a regular file of this user. */
function openOwned(file: string, flags: number): number {
  const fd = openSync(file, flags | constants.O_NOFOLLOW, 0o600);
  const st = fstatSync(fd);
  const uid = me();
  if (!st.isFile() || (uid !== null && st.uid !== uid)) {
    closeSync(fd);
    throw new Error(`refusing to write git-handoff state: ${file} is not a regular file of this user`);
  }
  return fd;
}

/** Appends `text` to `file` (below `root`), rotating it to `<file>.1` once too large. */
export function appendState(file: string, text: string, root: string, max = MAX_STATE_FILE): void {
  stateDir(path.dirname(file), root);
  let fd = openOwned(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try {
    if (fstatSync(fd).size + Buffer.byteLength(text) > max) {
      closeSync(fd);
      fd = -1;
      // rename replaces a symlink at `.1` itself, never its target
      renameSync(file, `${file}.1`);
      fd = openOwned(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
    }
    writeSync(fd, text);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/**
 * Replaces `file` with `data`, whole or not at all: a fresh temporary file written to the end, then a rename
 * (`exclusive`: a hard link, so only if `file` did not exist). A write that fails (a full disk) leaves no file behind.
 */
export function writeState(file: string, data: string | Buffer, root: string, exclusive = false): void {
  stateDir(path.dirname(file), root);
  const tmp = `${file}.${process.pid}.tmp`;
  removeFile(tmp); // a crashed run's leftover (a symlink there goes, not its target)
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      const buf = Buffer.from(data);
      for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at);
    } finally {
      closeSync(fd);
    }
    if (exclusive) linkSync(tmp, file);
    else renameSync(tmp, file);
  } finally {
    removeFile(tmp);
  }
}

/** Removes a state file (or a symlink there) if it is there; unlink, not rmSync, which loads node's rimraf module on first use (ms). */
export function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

// each cache file as this process last read it, with the identity of that version (a write renames a new file in)
const cacheReads = new Map<string, { id: string; value: any }>();

/** A cache file's JSON (null: missing or not JSON), parsed again only when the file changed: several steps of one command read it. */
export function readCache(file: string): any {
  const id = fileStamp(file);
  if (id.endsWith(':-')) return null;
  const last = cacheReads.get(file);
  if (last?.id === id) return last.value;
  const value = readJsonOr(file);
  cacheReads.set(file, { id, value });
  return value;
}

/** A cache, or a record to look at, as JSON: written whole when it can be; false when not (it costs only what it saves). */
export function writeCache(file: string, data: unknown, root: string): boolean {
  try {
    writeState(file, JSON.stringify(data) + '\n', root);
    return true;
  } catch {
    return false;
  }
}

/**
 * One kind of local record under <common dir>/handoff: the file `name`, or, keyed (by session), `<key><ext>` in the
 * directory `name`. JSON, or JSON lines appended; a record missing or not JSON reads as nothing.
 */
export function localRecord(name: string, ext = '.json') {
  const at = (commonDir: string, key?: string) => path.join(handoffDir(commonDir), name, key === undefined ? '' : `${encodeBranch(key)}${ext}`);
  return {
    at,
    read: (commonDir: string, key?: string): any => readJsonOr(at(commonDir, key)),
    /** every line of every keyed record (a torn line from a crash says nothing; one being replaced meanwhile is skipped) */
    all: (commonDir: string): any[] => namesIn(at(commonDir)).flatMap((f) => (f.endsWith(ext) ? jsonLinesIn(path.join(at(commonDir), f)) : [])),
    /** written whole; `exclusive`: only when none is there yet (EEXIST otherwise) */
    write: (commonDir: string, data: unknown, key?: string, exclusive = false) =>
      writeState(at(commonDir, key), JSON.stringify(data) + '\n', handoffDir(commonDir), exclusive),
    /** a cache or a record to look at: false when it could not be written */
    cache: (commonDir: string, data: unknown) => writeCache(at(commonDir), data, handoffDir(commonDir)),
    append: (commonDir: string, line: unknown, key?: string, max?: number) => appendState(at(commonDir, key), JSON.stringify(line) + '\n', handoffDir(commonDir), max),
  };
}
