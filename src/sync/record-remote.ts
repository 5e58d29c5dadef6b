// The loss record on the handoff remote (SPEC 9): `sync` publishes this clone's record as refs/handoff-records/<place>
// in its one push; `recover --from <remote>` takes it back into a clone made again after the first was destroyed.
import { existsSync } from 'node:fs';
import { parseCommit } from '../git/storage';
import type { Repo } from '../git/repo';
import { RECORD_REF, recordPlaceOf } from '../handoff/store/tx/record';
import { takeInRecord } from '../handoff/record/record-check';
import { identityOf, placeOf } from '../handoff/store/tx/witness';
import { RECORDS_PREFIX, resolveRemote, trackingRecordsPrefix, fetchFrom } from './remote';
import { moveRefs } from '../handoff/store/tx';

/** A temporary namespace for `recover --from`: every clone's record on the remote, removed before it returns. */
const FROM_PREFIX = 'refs/handoff-records-from/';

/** This clone's place id (null: no commit yet, so no identity). */
export const placeIdOf = (repo: Repo): string | null => identityOf(repo)?.place ?? null;

/** The refspec sync's fetch adds for what the remote holds of this clone's record (a glob: none there yet is no error). */
export const recordRefspec = (remote: string, place: string) => `+${RECORDS_PREFIX}${place}*:${trackingRecordsPrefix(remote)}${place}*`;

interface RecoverFrom {
  remote: string;
  /** the remote's ref taken (null: none for this clone) */
  ref: string | null;
  /** what the store's record was against it and what it held, as the check says it (null: nothing newer there) */
  message: string | null;
}

/**
 * `recover --from <remote>`: every clone's record fetched into a temporary namespace; this clone's place's record, else
 * the one whose clone's path is gone, is taken into the store's record as the witness's is (takeInRecord).
 */
export function recoverFrom(repo: Repo, named: string): RecoverFrom {
  const remote = resolveRemote(repo, named);
  fetchFrom(repo, remote, [`+${RECORDS_PREFIX}*:${FROM_PREFIX}*`]);
  const fetched = repo.listRefs([FROM_PREFIX]);
  try {
    const place = placeIdOf(repo);
    let pick = fetched.find((r) => r.ref === FROM_PREFIX + place) ?? null;
    if (!pick) {
      // no record of this place: the record of the one clone whose path is gone (the witness's orphan rule)
      const objs = repo.readObjects(fetched.map((r) => r.oid));
      const here = placeOf(repo);
      const gone = fetched.filter((_, i) => {
        const o = objs[i];
        const where = o?.type === 'commit' ? recordPlaceOf(parseCommit(o.content).message) : null;
        return where !== null && where !== here && !existsSync(where);
      });
      // a gone clone's record that another clone's record took in (its commit a parent there: the clone made again)
      // was taken already: one `merge-base --independent` over them all keeps the records no other one reaches
      const tips = gone.length && fetched.length > 1 ? new Set(repo.independent(fetched.map((r) => r.oid))) : null;
      const heads = tips ? gone.filter((r) => tips.has(r.oid)) : gone;
      pick = heads.length === 1 ? heads[0] : null;
    }
    const ref = pick ? RECORDS_PREFIX + pick.ref.slice(FROM_PREFIX.length) : null;
    if (!pick) return { remote, ref, message: null };
    const recOid = repo.listRefs([RECORD_REF]).find((r) => r.ref === RECORD_REF)?.oid ?? null;
    const t = recOid === pick.oid ? null : takeInRecord(repo, recOid, pick.oid);
    return {
      remote,
      ref,
      message: t ? `the store's record (${RECORD_REF}) ${t.state} against ${remote}'s ${ref}, which holds ${t.holds}; taken back into the record` : null,
    };
  } finally {
    // the temporary refs go (each by its expected value); the record taken in keeps what it needs reachable. One that
    // moved meanwhile stays, and the next `recover --from` overwrites it (its fetch forces the namespace)
    try {
      moveRefs(repo, fetched.map((x) => ({ op: 'delete' as const, ref: x.ref, oldOid: x.oid })), 'git-handoff recover --from: temporary refs');
    } catch {
      // a lock left on one of them: they stay, and the next `recover --from` overwrites them
    }
  }
}
