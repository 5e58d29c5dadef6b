// What `install --agent` wrote into a worktree and what was there before: uninstall gives the original back when the
// file is still as install left it, and such files are no session's uncommitted work.
import { createHash } from '../../lazy-crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readTextOr, statOr } from '../../read-file';
import { localRecord, removeFile } from './state-file';

interface InstallRecord {
  file: string;
  /** the bytes before the first install (null: the file did not exist) */
  original: string | null;
  /** the bytes install wrote last */
  written: string;
}

const INSTALLED = localRecord('installed');
const keyOf = (file: string) => createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 24);

const readRecord = (commonDir: string, file: string): InstallRecord | null => INSTALLED.read(commonDir, keyOf(file));

export function installWrite(commonDir: string, file: string, text: string): void {
  const before = readTextOr(file);
  const original = readRecord(commonDir, file)?.original ?? before;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  INSTALLED.write(commonDir, { file: path.resolve(file), original, written: text } satisfies InstallRecord, keyOf(file));
}

/** Gives `file` back as it was before install when it is still what install wrote; the record is dropped either way. */
export function restoreOriginal(commonDir: string, file: string, clean: (original: string) => boolean): 'restored' | 'deleted' | null {
  const rec = readRecord(commonDir, file);
  removeFile(INSTALLED.at(commonDir, keyOf(file)));
  // `clean`: the original holds nothing of ours (an older install's wiring is removed the ordinary way)
  if (!rec || readTextOr(file) !== rec.written || (rec.original !== null && !clean(rec.original))) return null;
  if (rec.original === null) {
    removeFile(file);
    return 'deleted';
  }
  writeFileSync(file, rec.original);
  return 'restored';
}

export function installWrittenFiles(commonDir: string): Set<string> {
  const records = INSTALLED.all(commonDir) as InstallRecord[];
  return new Set(records.filter((rec) => typeof rec.file === 'string' && readTextOr(rec.file) === rec.written).map((rec) => rec.file));
}

/** True when `abs` (a file, or a directory git reports as untracked) holds only files install wrote as they are. */
export function onlyInstallWritten(abs: string, written: Set<string>): boolean {
  if (written.size === 0) return false;
  const st = statOr(abs);
  if (!st) return false;
  if (!st.isDirectory()) return written.has(abs);
  return readdirSync(abs).every((n) => onlyInstallWritten(path.join(abs, n), written));
}
