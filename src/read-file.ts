// A file that may be missing or unreadable: its text, its JSON, its real path or its stat, else what the caller goes on with.
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';

/** The file's text, or null when it cannot be read. */
export function readTextOr(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The file's JSON, or null when it cannot be read or is not JSON. */
export function readJsonOr(file: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The real path of `p` (the system's realpath: one call), or `p` as given when it cannot be resolved. */
export function realpathOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** A path's stat (symlinks followed); undefined when missing (no exception at every level walked) or a name no one can open (a NUL byte, too long). */
export function statOr(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A file's identity and state (inode, mtime, size) without reading it: a file rewritten by a rename stamps anew. */
export function fileStamp(f: string): string {
  const s = statOr(f);
  return s ? `${f}:${s.ino}:${s.mtimeMs}:${s.size}` : `${f}:-`;
}
