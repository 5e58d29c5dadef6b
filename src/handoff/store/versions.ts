// How many versions a handoff has (`show`'s "N versions", `git rev-list --count <tip>`), without walking its whole
// history each time (issue 39): a version that has exactly one parent has one version more than its parent, and
// counts already made are kept in <common>/handoff/versions.json (commit → count; an object never changes under its
// id). So `show` after a write walks one commit, and `show` again none. A merge (resolve), a commit not loose here, a
// shallow clone or an object directory of the environment's choosing: counted in full, as before (countCommits).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readLoose } from '../../git/loose-read';
import type { Storage } from '../../git/storage';
import { handoffDir } from '../state/paths';
import { writeState } from '../state/state-file';

/** Counts kept: a few per live handoff a session reads is plenty; the oldest go first. */
const KEPT = 64;
/** At most this many single-parent steps down to a counted commit; past it, the full count. */
const STEPS = 64;

const cacheFile = (repo: Pick<Storage, 'commonDir'>) => path.join(handoffDir(repo.commonDir), 'versions.json');

function readCounts(repo: Storage): Map<string, number> {
  try {
    const j = JSON.parse(readFileSync(cacheFile(repo), 'utf8'));
    return new Map(Array.isArray(j) ? j.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] > 0) : []);
  } catch {
    return new Map();
  }
}

/** The one parent of a loose commit, or null (none, several, not loose here). */
function onlyParent(repo: Storage, oid: string): string | null {
  const c = readLoose(repo, oid);
  if (!c || c.type !== 'commit') return null;
  const end = c.content.indexOf('\n\n');
  const parents = [...c.content.toString('latin1', 0, end < 0 ? c.content.length : end).matchAll(/^parent ([0-9a-f]+)$/gm)];
  return parents.length === 1 ? parents[0][1] : null;
}

/** `git rev-list --count <oid>` for a handoff's history, from the counts kept where it can. */
export function versionCount(repo: Storage, oid: string): number {
  if (process.env.GIT_OBJECT_DIRECTORY !== undefined || existsSync(path.join(repo.commonDir, 'shallow'))) return repo.countCommits(oid);
  const counts = readCounts(repo);
  const known = counts.get(oid);
  if (known !== undefined) return known;
  let at: string | null = oid;
  let steps = 0;
  while (at && !counts.has(at) && steps < STEPS) {
    at = onlyParent(repo, at);
    steps++;
  }
  const n = at && counts.has(at) ? counts.get(at)! + steps : repo.countCommits(oid);
  counts.delete(oid);
  counts.set(oid, n);
  try {
    writeState(cacheFile(repo), JSON.stringify([...counts].slice(-KEPT)), repo.commonDir);
  } catch {
    // a cache: counted again next time
  }
  return n;
}
