// How many versions a handoff has (`git rev-list --count <tip>`) without walking its history each time: a single-parent
// version counts one more than its parent, and counts made are kept in <common>/handoff/versions.json (commit → count).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readLoose } from '../../git/loose-read';
import { parseCommit, reachableIn, type Storage } from '../../git/storage';
import { localRecord } from '../state/state-file';

/** Counts kept: every handoff of a large branch, which a session start reads whole; the oldest go first. */
const KEPT = 1024;
/** At most this many single-parent steps down to a counted commit; past it, the full count. */
const STEPS = 64;

const CACHE = localRecord('versions.json');

// the kept counts, read once a process: a count never changes under its commit's id
const countsRead = new WeakMap<Storage, Map<string, number>>();

function readCounts(repo: Storage): Map<string, number> {
  let counts = countsRead.get(repo);
  if (counts) return counts;
  const j = CACHE.read(repo.commonDir);
  counts = new Map(Array.isArray(j) ? j.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] > 0) : []);
  countsRead.set(repo, counts);
  return counts;
}

/** The parents of a loose commit, or null (not loose here). */
function looseParents(repo: Storage, oid: string): string[] | null {
  const c = readLoose(repo, oid);
  return c?.type === 'commit' ? parseCommit(c.content).parents : null;
}

/** A count from the kept ones, down single-parent loose commits to a counted one or a first version; null: not known so. */
function countedDown(repo: Storage, counts: Map<string, number>, oid: string): number | null {
  let at = oid;
  for (let steps = 0; steps < STEPS; steps++) {
    const known = counts.get(at);
    if (known !== undefined) return known + steps;
    const parents = looseParents(repo, at);
    if (!parents || parents.length > 1) return null;
    if (!parents.length) return steps + 1;
    at = parents[0];
  }
  return null;
}

/** `git rev-list --count <oid>` for each handoff history, from the counts kept where it can, the rest from one walk of them all. */
export function versionCounts(repo: Storage, oids: string[]): number[] {
  if (process.env.GIT_OBJECT_DIRECTORY !== undefined || existsSync(path.join(repo.commonDir, 'shallow'))) return oids.map((oid) => repo.revCount(oid) ?? 0);
  const counts = readCounts(repo);
  const found = new Map(oids.map((oid) => [oid, countedDown(repo, counts, oid)]));
  const rest = [...found].filter(([, n]) => n === null).map(([oid]) => oid);
  const graph = rest.length ? repo.parentsOf(rest) : null;
  for (const oid of rest) found.set(oid, graph ? reachableIn(graph, oid).size : (repo.revCount(oid) ?? 0));
  if (oids.every((oid) => counts.get(oid) === found.get(oid))) return oids.map((oid) => found.get(oid)!);
  for (const [oid, n] of found) {
    counts.delete(oid);
    counts.set(oid, n!);
  }
  CACHE.cache(repo.commonDir, [...counts].slice(-KEPT));
  return oids.map((oid) => found.get(oid)!);
}
