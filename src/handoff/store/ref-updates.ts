// The ownership invariant over a set of ref updates (a push, a ref transaction), for the server's and the local hooks:
// handoffs move forward under their owner, are deleted only with their archive entry; archive entries never move.
import { pastRetention, retentionOf } from './retention';
import type { Storage } from '../../git/storage';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, keyOf, parseRef, NOTES_REF } from './names';
import { FORMAT1_ARCHIVE_HINT, takesFormat1Archives } from './format';
import { checkAdvances, type Violation } from './ownership';
import type { RefUpdate } from './tx/batch';
import { droppedReceipts } from './receipts';

export const REPLACE_PREFIX = 'refs/replace/';

/** Why a receiving repository refuses a ref update. */
export interface Refusal {
  ref: string;
  rule: Violation['rule'] | 'name' | 'archive-moved' | 'archive-unrecorded' | 'receipts-dropped' | 'replace';
  message: string;
  hint: string;
}

const isZero = (oid: string) => /^0+$/.test(oid);

/** `<old> <new> <ref>` lines, zeros as null. */
export function parseUpdates(input: string): RefUpdate[] {
  return input.split('\n').flatMap((line) => {
    const [o, n, ref] = line.trim().split(' ');
    return ref ? [{ oldOid: isZero(o) ? null : o, newOid: isZero(n) ? null : n, ref }] : [];
  });
}

const FETCH_FIRST = 'this server keeps every version: run `git handoff sync` (it fetches, merges, and pushes fast-forwards only); a diverged handoff is merged with `git handoff sync --resolve <topic> --keep local|remote|both`. Never force-push handoff refs.';

/**
 * What a handoff's archive entries mean for its tip (SPEC 2): an entry that adds a version on top of it archives it (the
 * version names who did, held to the ownership rule); a `bare` one at the tip itself names nobody (format 1) and is
 * `refused` unless handoff.minFormat is 1. Null: no entry archives this tip.
 */
export function archivalOf<E extends { oid: string }>(
  repo: Storage,
  entries: readonly E[] | undefined,
  tip: string,
  isAnc: (a: string, b: string) => boolean,
): { entry: E; bare: boolean; refused: string | null } | null {
  const over = entries?.find((e) => e.oid !== tip && isAnc(tip, e.oid));
  if (over) return { entry: over, bare: false, refused: null };
  const bare = entries?.find((e) => e.oid === tip);
  if (!bare) return null;
  const refused = takesFormat1Archives(repo) ? null : `an archive entry at the tip itself (${tip.slice(0, 12)}) records nobody: an archive adds a version naming the session that archived it`;
  return { entry: bare, bare: true, refused };
}

const ARCHIVE_HOW = 'run `git handoff archive <topic>` (the owner, or --take-over --reason) then `git handoff sync`';

/** Checks the handoff updates of one push; returns what is refused (empty: accept). */
export function checkReceive(repo: Storage, updates: RefUpdate[]): Refusal[] {
  const refusals: Refusal[] = [...receiptRefusals(repo, updates.filter((u) => u.ref === NOTES_REF)), ...replaceRefusals(repo, updates)];
  const mine = updates.filter((u) => u.ref.startsWith(HANDOFF_PREFIX) || u.ref.startsWith(ARCHIVE_PREFIX));
  if (mine.length === 0) return refusals;
  const created = mine.filter((u) => parseRef(u.ref)?.kind === 'archive' && !u.oldOid && u.newOid);
  // every move held to the ownership rule; a handoff deleted with its archive entry as one more version: tip → entry
  const moves: Array<RefUpdate & { entry?: string }> = [];
  const archivedKeys = new Set<string>();
  let past: Set<string> | undefined;
  for (const u of mine) {
    const p = parseRef(u.ref);
    if (!p) {
      refusals.push({
        ref: u.ref,
        rule: 'name',
        message: 'not a handoff ref name',
        hint: 'handoff refs are refs/handoffs/<encoded branch>/<topic> and refs/handoff-archive/<encoded branch>/<topic>/<stamp>, written by git handoff',
      });
      continue;
    }
    const k = `${p.encodedBranch}/${p.topic}`;
    if (p.kind === 'archive') {
      if (!u.oldOid) continue;
      if (u.newOid) {
        refusals.push({ ref: u.ref, rule: 'archive-moved', message: 'an archive entry never moves', hint: 'archive again with `git handoff archive <topic>`: it makes a new entry' });
        continue;
      }
      // removing an archive entry is a restore (the same push brings the handoff back), or retention (retention.ts)
      const back = mine.find((x) => x.ref === HANDOFF_PREFIX + k && x.newOid);
      if (!back && (past ??= pastHere(repo, mine)).has(u.ref.slice(ARCHIVE_PREFIX.length))) continue;
      if (!back || (back.newOid !== u.oldOid && !repo.isAncestor(u.oldOid, back.newOid!))) {
        refusals.push({ ref: u.ref, rule: 'delete', message: 'archived handoffs are kept', hint: 'bring one back with `git handoff restore <archived ref>` and push it with `git handoff sync`' });
      }
      continue;
    }
    if (u.newOid || !u.oldOid) {
      if (u.newOid) moves.push(u);
      continue;
    }
    // deleting a handoff is an archive: its entry comes with it or is here already
    const pushed = created.filter((e) => keyOf(e.ref) === k).map((e) => ({ oid: e.newOid! }));
    const entries = pushed.length ? pushed : repo.listRefs([`${ARCHIVE_PREFIX}${k}/`]);
    const a = archivalOf(repo, entries, u.oldOid, (x, y) => repo.isAncestor(x, y));
    if (a && !a.refused) {
      archivedKeys.add(k);
      if (!a.bare) moves.push({ ref: u.ref, oldOid: u.oldOid, newOid: a.entry.oid, entry: a.entry.oid });
      continue;
    }
    refusals.push(
      a
        ? { ref: u.ref, rule: 'archive-unrecorded', message: a.refused!, hint: `${ARCHIVE_HOW}; ${FORMAT1_ARCHIVE_HINT}` }
        : { ref: u.ref, rule: 'delete', message: `deleting a handoff is done only by archiving it (tip ${u.oldOid.slice(0, 12)})`, hint: `${ARCHIVE_HOW}: the archive entry travels with the deletion` },
    );
  }
  // New archive entries not paired with a deletion in this push: a whole handoff history, checked from its root.
  moves.push(...created.filter((u) => !archivedKeys.has(keyOf(u.ref))));
  checkAdvances(repo, moves).forEach((v, i) => {
    const { ref, entry } = moves[i];
    if (!v) return;
    if (entry) {
      refusals.push({
        ref,
        rule: v.rule,
        message: `its archive entry ${entry.slice(0, 12)} breaks the invariant: ${v.message}`,
        hint: 'only the owner archives a handoff, or a session that takes it over on the record: `git handoff archive <topic> --take-over --reason "<why>"`',
      });
    } else {
      const owner = v.rule === 'foreign-owner' || v.rule === 'no-session';
      const hint = owner ? 'write under a new topic, or take the handoff over on the record: `git handoff write <topic> --take-over --reason "<why>"`' : FETCH_FIRST;
      refusals.push({ ref, rule: v.rule, message: v.message, hint });
    }
  });
  return refusals;
}

/** The archive entries of the topics `updates` delete entries of, past this repository's retention: one listing for them all. */
function pastHere(repo: Storage, updates: RefUpdate[]): Set<string> {
  const topics = new Set(updates.filter((u) => u.ref.startsWith(ARCHIVE_PREFIX) && !u.newOid).map((u) => keyOf(u.ref)));
  const prefixes = [...topics].map((k) => `${ARCHIVE_PREFIX}${k}/`);
  const entries = repo.listRefNames(prefixes).map((r) => r.ref.slice(ARCHIVE_PREFIX.length));
  return pastRetention(entries, retentionOf(repo));
}

/** Receipts are only ever added: a notes update that deletes the ref or drops a line is refused. */
function receiptRefusals(repo: Storage, updates: RefUpdate[]): Refusal[] {
  const hint = 'receipts are only ever added: run `git handoff sync` (it merges both sides by union) instead of pushing notes by hand';
  return updates.flatMap((u): Refusal[] => {
    if (!u.oldOid) return [];
    if (!u.newOid) return [{ ref: u.ref, rule: 'receipts-dropped', message: 'deleting the read receipts is refused', hint }];
    const dropped = droppedReceipts(repo, u.oldOid, u.newOid);
    if (dropped.length === 0) return [];
    return [{ ref: u.ref, rule: 'receipts-dropped', message: `the update drops ${dropped.length} receipt line${dropped.length === 1 ? '' : 's'} (${dropped.slice(0, 3).join('; ')})`, hint }];
  });
}

/**
 * A replace ref would change what every reader outside git-handoff sees of a handoff commit (git-handoff reads history
 * as written): refused for a handoff commit, or for any tree or blob while handoffs exist (their reach is not cheap to tell).
 */
function replaceRefusals(repo: Storage, updates: RefUpdate[]): Refusal[] {
  const handoffs = [HANDOFF_PREFIX.replace(/\/$/, ''), ARCHIVE_PREFIX.replace(/\/$/, '')];
  return updates.flatMap((u): Refusal[] => {
    if (!u.ref.startsWith(REPLACE_PREFIX) || !u.newOid) return [];
    const replaced = u.ref.slice(REPLACE_PREFIX.length);
    const type = /^[0-9a-f]{4,64}$/.test(replaced) ? repo.objectInfo([replaced])[0]?.type : null;
    const reach = repo.firstRef(handoffs, type === 'commit' ? { contains: replaced } : {});
    if (!reach) return [];
    return [{
      ref: u.ref,
      rule: 'replace',
      message: type === 'commit' ? `it would show another commit in place of ${replaced}, a version of ${reach}` : `it would show another object in place of ${replaced || 'an object'} while handoffs exist`,
      hint: 'handoff history is read as written: a handoff changes only by a new version (git handoff write), never by a replace ref or a graft',
    }];
  });
}
