// `git handoff gc --remote [R]`: the remote's archive entries past this clone's retention deleted there, each by a lease
// on what the fetch saw, in batches as any push.
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX } from '../handoff/store/names';
import { pastRetention, retentionOf } from '../handoff/store/retention';
import { fetchTracking, readSides } from './fetch';
import { pushBatched, type PushResult, type PushUpdate } from './push';

/** Deletes the remote's archive entries past retention (with dryRun: only says which); the result as a push's. */
export function pruneRemote(repo: Repo, remote: string, o: { dryRun?: boolean; progress?: (line: string) => void } = {}): PushResult {
  fetchTracking(repo, remote);
  const sides = readSides(repo, remote);
  const past = pastRetention(sides.remoteArchive.keys(), retentionOf(repo));
  const updates: PushUpdate[] = [...past].sort().map((k) => ({ ref: ARCHIVE_PREFIX + k, newOid: null, oldOid: sides.remoteArchive.get(k)!, kind: 'prune' }));
  const result: PushResult = { remote, atomic: true, updates, skipped: [], rejected: [], remoteMessages: [], batches: 0 };
  if (!o.dryRun && updates.length) result.rejected = pushBatched(repo, remote, updates, result, o.progress);
  return result;
}
