// `drop` and its undo (SPEC 4): the live ref, a ref keeping its versions and the loss record move in one transaction,
// so killed at any point they moved together or not at all.
import { HandoffError } from '../../errors';
import type { Storage } from '../../git/storage';
import { archiveRef, DROPPED_PREFIX, handoffRef, HANDOFF_PREFIX, typedRef } from './names';
import type { SessionRef } from '../state/session';
import { actOn, archivedVersions, readTip, refusedOwned } from './store';
import type { TakeoverArg } from './takeover';
import { trackingTips } from './sync-state';
import { moveRefs } from './tx';
import { LOST, LOST_RACE, untilWon } from '../../retry';

export function dropHandoff(repo: Storage, branch: string, topic: string, session: SessionRef) {
  const ref = handoffRef(branch, topic);
  return untilWon(
    () => {
      const tip = readTip(repo, ref);
      if (!tip) throw new HandoffError('usage', 'not-found', `no handoff "${topic}" on branch ${branch} (${ref}) to drop`, { ref });
      if (tip.session !== session.id) throw refusedOwned(repo, tip, session.id, ref, topic, topic, { command: 'archive', target: topic });
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
      const keptAs = archiveRef(branch, topic, Math.floor(Date.now() / 1000), tip.oid, DROPPED_PREFIX);
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
    { policy: { ...LOST_RACE, attempts: 5 }, gaveUp: () => new HandoffError('concurrent', 'lost-race', `${ref} kept moving while it was being dropped; nothing was dropped`) },
  );
}

/** `refs/handoff-dropped/<b>/<t>/<stamp>` from what a user typed (full, `handoff-dropped/…`), else null. */
export function droppedRefOf(arg: string): string | null {
  const full = typedRef(arg, '');
  return full.startsWith(DROPPED_PREFIX) && full.slice(DROPPED_PREFIX.length).split('/').length === 3 ? full : null;
}

/**
 * Undoes a drop: the live ref comes back at the dropped tip, every version as it was, and the dropped ref goes, in
 * one transaction (the loss record takes the live ref again). Owner only, or a takeover on the record (the versions
 * stay the owner's). Refused when the handoff is live again (nothing is moved over it).
 */
export function undropHandoff(repo: Storage, dropped: string, session: SessionRef, takeover: TakeoverArg | null) {
  const parts = dropped.slice(DROPPED_PREFIX.length).split('/');
  const tip = parts.length === 3 ? readTip(repo, dropped) : null;
  if (!tip) throw new HandoffError('usage', 'not-found', `no dropped handoff ${dropped}; \`git for-each-ref ${DROPPED_PREFIX}\` lists them`);
  const ref = `${HANDOFF_PREFIX}${parts[0]}/${parts[1]}`;
  if (repo.readRef(ref)) throw new HandoffError('usage', 'exists', `"${parts[1]}" is live again (${ref}): nothing is restored over it; its dropped versions stay at ${dropped}`, { ref });
  const told = actOn(repo, tip, dropped, parts[1], session, takeover, 'restore', dropped);
  const r = moveRefs(
    repo,
    [
      { op: 'create', ref, newOid: tip.oid },
      { op: 'delete', ref: dropped, oldOid: tip.oid },
    ],
    takeover ? `handoff restore ${parts[1]} (dropped; taken over: ${takeover.reason})` : `handoff restore ${parts[1]} (dropped)`,
  );
  if (!r.ok) throw new HandoffError('concurrent', 'concurrent-update', `${ref} or ${dropped} moved during the restore; nothing moved (${r.message})`);
  told?.('restored', tip.trailers.branch ?? parts[0], parts[1]);
  return { ref, from: dropped, oid: tip.oid };
}
