// `drop`: a throwaway handoff that never left this clone goes, on the record — the live ref is deleted in one
// transaction with a named ref that keeps its versions (refs/handoff-dropped/<branch>/<topic>/<seconds>-<tip>) and
// the loss record's move (record.ts, through tx), which takes it as a removal on purpose, so no check reports it lost
// and recover leaves it: killed at any point, the ref and the record moved together or neither did.
// Anything another clone may have (a remote-tracking copy, an archive entry) is archived instead, never dropped.
// With the git hooks installed, the deletion passes them on the record (GIT_HANDOFF_BYPASS=1, a line in audit.jsonl).
import { HandoffError } from '../../errors';
import type { Repo } from '../../git/repo';
import { encodeBranch, handoffRef } from './names';
import { ownedError } from './ownership';
import type { SessionRef } from '../state/session';
import { archivedVersions, readTip } from './store';
import { trackingTips } from './sync-state';
import { LOST, moveRefs, untilWon } from './tx';

export const DROPPED_PREFIX = 'refs/handoff-dropped/';

export interface DropResult {
  ref: string;
  oid: string;
  keptAs: string;
}

export function dropHandoff(repo: Repo, branch: string, topic: string, session: SessionRef): DropResult {
  const ref = handoffRef(branch, topic);
  return untilWon(
    () => {
      const tip = readTip(repo, ref);
      if (!tip) throw new HandoffError('usage', 'not-found', `no handoff "${topic}" on branch ${branch} (${ref}) to drop`, { ref });
      if (tip.session !== session.id) throw ownedError(tip, session.id, ref, topic, { command: 'archive', target: topic });
      const remote = trackingTips(repo).get(ref);
      const archived = archivedVersions(repo, branch, topic);
      if (remote || archived.length) {
        throw new HandoffError(
          'usage',
          'drop-pushed',
          `${topic} on ${branch} is not only here (${remote ? `${remote.remote} has a copy` : 'it has archive entries, which travel with sync'}): a handoff others may have is archived, never dropped: git handoff archive ${topic}`,
          { ref },
        );
      }
      const keptAs = `${DROPPED_PREFIX}${encodeBranch(branch)}/${topic}/${Math.floor(Date.now() / 1000)}-${tip.oid.slice(0, 12)}`;
      const r = moveRefs(
        repo,
        [
          { op: 'create', ref: keptAs, newOid: tip.oid },
          { op: 'delete', ref, oldOid: tip.oid },
        ],
        `handoff drop ${topic}`,
        // the hooks allow a deletion only beside an archive entry; drop has checked owner and never-pushed itself, and
        // passes them on the record (audit.jsonl), as recover does
        { env: { GIT_HANDOFF_BYPASS: '1' } },
      );
      // the loss record took the deletion as a removal on purpose in that same transaction (tx's extension point)
      if (!r.ok) return LOST;
      return { ref, oid: tip.oid, keptAs };
    },
    { attempts: 5, gaveUp: () => new HandoffError('concurrent', 'lost-race', `${ref} kept moving while it was being dropped; nothing was dropped`) },
  );
}
