// Replace refs (refs/replace/<oid>) make git show another object in place of the one named: a replace ref of a
// handoff commit would change what every reader outside git-handoff sees (git-handoff itself reads history as
// written: src/git/run.ts). The reference-transaction hook and the server's receive check refuse one that would
// stand in for a handoff commit, or for any tree or blob while handoffs exist (their reach is not cheap to tell).
import type { Storage } from '../../git/storage';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX } from './names';
import type { Violation } from './ownership';
import type { RefUpdate } from './tx/batch';

export const REPLACE_PREFIX = 'refs/replace/';

/** Why a receiving repository refuses a ref update (ref-updates.ts and this file check them). */
export interface Refusal {
  ref: string;
  rule: Violation['rule'] | 'name' | 'archive-moved' | 'archive-unrecorded' | 'receipts-dropped' | 'replace';
  message: string;
  hint: string;
}

export function replaceRefusals(repo: Storage, updates: RefUpdate[]): Refusal[] {
  const out: Refusal[] = [];
  const handoffs = [HANDOFF_PREFIX.replace(/\/$/, ''), ARCHIVE_PREFIX.replace(/\/$/, '')];
  for (const u of updates) {
    if (!u.ref.startsWith(REPLACE_PREFIX) || !u.newOid) continue;
    const replaced = u.ref.slice(REPLACE_PREFIX.length);
    const type = /^[0-9a-f]{4,64}$/.test(replaced) ? repo.objectSizes([replaced])[0]?.type : null;
    const reach = repo.firstRef(handoffs, type === 'commit' ? { contains: replaced } : {});
    if (!reach) continue;
    out.push({
      ref: u.ref,
      rule: 'replace',
      message: type === 'commit' ? `it would show another commit in place of ${replaced}, a version of ${reach}` : `it would show another object in place of ${replaced || 'an object'} while handoffs exist`,
      hint: 'handoff history is read as written: a handoff changes only by a new version (git handoff write), never by a replace ref or a graft',
    });
  }
  return out;
}
