// Helpers for the secret tests: the secret values in a text, and the text of every file a run touched.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { scanTexts } from '../../../src/handoff/secrets/secrets';
import type { TestRepo } from '../../helpers/repo';

/** The exact values the scanner finds in `text` (what must never be printed or logged). */
export async function secretsIn(text: string): Promise<string[]> {
  return (await scanTexts([{ file: 'handoff.md', text }])).map((f) => text.slice(f.range[0], f.range[1]));
}

/** The text of every file under the repository (.git/handoff/*, logs, refs, config, hooks) and its HOME; git's
 *  objects are compressed, so they are checked with cat-file instead. `skip`: top-level entries the test wrote. */
export function touchedFiles(repo: TestRepo, skip: string[] = []): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (skip.includes(path.relative(repo.dir, p))) continue;
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(readFileSync(p, 'latin1'));
    }
  };
  walk(repo.dir);
  walk(repo.home);
  return out;
}
