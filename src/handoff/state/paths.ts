// Where git-handoff keeps its local files: <git-common-dir>/handoff/ (ledger, audit trail, guard state and log).
// A module of its own so the guard's fast path can name it without loading the rest of the domain.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const handoffDir = (commonDir: string) => path.join(commonDir, 'handoff');

/** The text of every file in `dir` whose name ends with `ext`; none when the directory is missing, and a file
 *  that cannot be read (being replaced, removed meanwhile) is skipped. */
export function readFilesIn(dir: string, ext: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith(ext));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const f of names) {
    try {
      out.push(readFileSync(path.join(dir, f), 'utf8'));
    } catch {
      /* gone or being replaced: skip it */
    }
  }
  return out;
}
