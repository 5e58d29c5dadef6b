// What the last sync with a remote left behind: when it ended clean, the ref storage is as it left it (stat
// fingerprints) and this sync's fetch changed nothing, the merge and the push would find nothing: neither runs.
import path from 'node:path';
import type { Repo } from '../git/repo';
import { dirStats, refsFingerprint } from '../handoff/store/tx/record';
import { handoffDir } from '../handoff/state/paths';
import { writeCache } from '../handoff/state/state-file';
import { readJsonOr } from '../read-file';
import { trackingRoot } from './remote';

/**
 * The local refs' fingerprint (the loss record's; null: refs not in plain files) and the tracking copies' storage as
 * stat sees it: every directory under refs/handoff-remotes/<R>/ and the receipts' file.
 */
function fingerprint(repo: Repo, remote: string): string | null {
  const local = refsFingerprint(repo);
  const root = path.join(repo.commonDir, trackingRoot(remote));
  const tracking = [...dirStats(root, 4), ...dirStats(path.join(root, 'notes', 'handoff-reads'), 0)];
  return local === null ? null : `${local}#${tracking.map(([p, stat]) => `${p}:${stat}`).join('|')}`;
}

const fileOf = (repo: Pick<Repo, 'commonDir'>) => path.join(handoffDir(repo.commonDir), 'sync-seen.json');

interface SyncSeen {
  remote: string;
  /** the settings the merge and the plan read (retention, minFormat), as the caller joins them */
  policy: string;
  fp: string;
}

/** Whether the last sync with `remote` ended clean and no local ref moved since (stat calls only). */
export function quietSince(repo: Repo, remote: string, policy: string): boolean {
  const s: SyncSeen | null = readJsonOr(fileOf(repo));
  if (s?.remote !== remote || s.policy !== policy || typeof s.fp !== 'string') return false;
  return fingerprint(repo, remote) === s.fp;
}

/** After a sync: remembers a clean end (the storage's fingerprint now), or forgets it. A cache: a failure costs the next sync its shortcut. */
export function noteSyncEnd(repo: Repo, remote: string, policy: string, clean: boolean): void {
  const fp = clean ? fingerprint(repo, remote) : null;
  writeCache(fileOf(repo), fp ? { remote, policy, fp } : {}, repo.commonDir);
}
