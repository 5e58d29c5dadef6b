// The ownership invariant over a set of ref updates (one push, one ref transaction): handoffs move forward
// under their owner, are deleted only with their archive entry, and archive entries never move.
// The server's pre-receive hook and the local reference-transaction/pre-push hooks all call this.
import { listRefs } from '../git/refs';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, parseRef } from './names';
import { checkAdvances, type Violation } from './ownership';

export interface ReceiveUpdate {
  oldOid: string | null;
  newOid: string | null;
  ref: string;
}

export interface Refusal {
  ref: string;
  rule: Violation['rule'] | 'name' | 'archive-moved';
  message: string;
  hint: string;
}

const isZero = (oid: string) => /^0+$/.test(oid);

/** `<old> <new> <ref>` lines, zeros as null. */
export function parseUpdates(input: string): ReceiveUpdate[] {
  const out: ReceiveUpdate[] = [];
  for (const line of input.split('\n')) {
    const [o, n, ref] = line.trim().split(' ');
    if (!ref) continue;
    out.push({ oldOid: isZero(o) ? null : o, newOid: isZero(n) ? null : n, ref });
  }
  return out;
}

const handoffKey = (ref: string) => {
  const p = parseRef(ref);
  return p ? `${p.encodedBranch}/${p.topic}` : null;
};

const FETCH_FIRST = 'this server keeps every version: run `git handoff sync` (it fetches, merges, and pushes fast-forwards only); a diverged handoff is merged with `git handoff sync --resolve <topic> --keep local|remote|both`. Never force-push handoff refs.';

/** Checks the handoff updates of one push; returns what is refused (empty: accept). */
export function checkReceive(repo: Repo, updates: ReceiveUpdate[]): Refusal[] {
  const refusals: Refusal[] = [];
  const mine = updates.filter((u) => u.ref.startsWith(HANDOFF_PREFIX) || u.ref.startsWith(ARCHIVE_PREFIX));
  if (mine.length === 0) return refusals;
  const pushedArchives = new Map<string, Set<string>>();
  for (const u of mine) {
    if (!u.ref.startsWith(ARCHIVE_PREFIX) || !u.newOid) continue;
    const k = handoffKey(u.ref);
    if (k) pushedArchives.set(k, (pushedArchives.get(k) ?? new Set()).add(u.newOid));
  }
  const advances: ReceiveUpdate[] = [];
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
      // Removing an archive entry is a restore: the same push brings the handoff back from it.
      const back = mine.find((x) => x.ref === HANDOFF_PREFIX + k && x.newOid);
      if (!back || (back.newOid !== u.oldOid && repo.git(['merge-base', '--is-ancestor', u.oldOid, back.newOid!], { allowFail: true }).status !== 0)) {
        refusals.push({ ref: u.ref, rule: 'delete', message: 'archived handoffs are kept', hint: 'bring one back with `git handoff restore <archived ref>` and push it with `git handoff sync`' });
      }
      continue;
    }
    if (!u.oldOid) continue;
    if (!u.newOid) {
      // Deleting a handoff is an archive: its archive entry (same tip) comes in the same push, or is here already.
      if (pushedArchives.get(k)?.has(u.oldOid)) continue;
      if (listRefs(repo, [`${ARCHIVE_PREFIX}${k}/`]).some((r) => r.oid === u.oldOid)) continue;
      refusals.push({
        ref: u.ref,
        rule: 'delete',
        message: `deleting a handoff is done only by archiving it (tip ${u.oldOid.slice(0, 12)})`,
        hint: 'run `git handoff archive <topic>` then `git handoff sync`: the archive entry travels with the deletion',
      });
      continue;
    }
    advances.push(u);
  }
  checkAdvances(repo, advances).forEach((v, i) => {
    if (!v) return;
    refusals.push({
      ref: advances[i].ref,
      rule: v.rule,
      message: v.message,
      hint:
        v.rule === 'foreign-owner' || v.rule === 'no-session'
          ? 'write under a new topic, or take the handoff over on the record: `git handoff write <topic> --take-over --reason "<why>"`'
          : FETCH_FIRST,
    });
  });
  return refusals;
}
