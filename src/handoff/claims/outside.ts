// A claims table moved outside git-handoff (issue 57): `rm .git/refs/claims/<branch>`, an `update-ref` of refs/claims/…
// (the guard refuses an agent's; a person or a script may still do it). Every move git-handoff makes of a local table
// is noted in <git-common-dir>/handoff/claims-refs.json; the next claims read or change (`claim`, `release`, `claims`,
// `sync`) compares the tables with it and says what changed: a table deleted is put back where git-handoff left it
// (its claims are not lost), one moved anywhere but forward is said with the command that puts it back (git-handoff
// only ever moves a table onto one that builds on it: claims.ts). Said once: the note then takes the table as it is.
import path from 'node:path';
import type { Storage } from '../../git/storage';
import { handoffDir } from '../state/paths';
import { writeCache } from '../state/state-file';
import { readJsonOr } from '../../read-file';
import { moveRef } from '../store/tx';
import { CLAIMS_PREFIX, readTable } from './table';

const fileOf = (commonDir: string) => path.join(handoffDir(commonDir), 'claims-refs.json');

function readNote(commonDir: string): Map<string, string> | null {
  const j = readJsonOr(fileOf(commonDir));
  return j && new Map(Object.entries(j.refs ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Optional state: the next move notes it again. */
const writeNote = (commonDir: string, refs: Map<string, string>) => writeCache(fileOf(commonDir), { refs: Object.fromEntries(refs) }, handoffDir(commonDir));

/** After git-handoff moved a local claims table: noted, so the next check knows it for its own. */
export function noteClaimsMove(repo: Storage, ref: string, oid: string | null): void {
  const refs = readNote(repo.commonDir) ?? new Map<string, string>();
  if (oid) refs.set(ref, oid);
  else refs.delete(ref);
  writeNote(repo.commonDir, refs);
}

/**
 * The local claims tables against what git-handoff last left them at: one line per table changed outside it (a
 * deleted one is put back first). No note yet (a clone from before this check): the tables are taken as they are.
 */
export function claimsMovedOutside(repo: Storage, read?: Array<{ ref: string; oid: string }>): string[] {
  const noted = readNote(repo.commonDir);
  const now = new Map((read ?? repo.listRefNames([CLAIMS_PREFIX])).map((r) => [r.ref, r.oid]));
  if (!noted) {
    if (now.size) writeNote(repo.commonDir, now);
    return [];
  }
  const lines: string[] = [];
  const next = new Map(now);
  for (const [ref, was] of noted) {
    const cur = now.get(ref) ?? null;
    if (cur === was) continue;
    if (cur === null) {
      const back = moveRef(repo, ref, was, null, 'handoff claims: deleted outside git-handoff, put back');
      if (back.ok) next.set(ref, was);
      const n = back.ok ? readTable(repo, was).claims.length : 0;
      lines.push(
        back.ok
          ? `${ref} was deleted outside git-handoff; put back where git-handoff left it (${was.slice(0, 12)}, ${n} claim${n === 1 ? '' : 's'})`
          : `${ref} was deleted outside git-handoff and cannot be put back (${back.message}); its claims are gone from this clone`,
      );
    } else if (!repo.isAncestor(was, cur)) {
      lines.push(`${ref} was moved outside git-handoff, from ${was.slice(0, 12)} to ${cur.slice(0, 12)} (not a change on top of it): read as it is now; \`git update-ref ${ref} ${was} ${cur}\` puts it back`);
    }
  }
  writeNote(repo.commonDir, next);
  return lines;
}
