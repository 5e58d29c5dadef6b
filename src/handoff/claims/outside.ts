// A claims table moved outside git-handoff (a person's `rm` or `update-ref`): every move git-handoff makes is noted, and
// the next claims read or change compares: a deleted table is put back, one moved but forward is said with the way
// back. Said once: the note then takes the table as it is.
import type { Storage } from '../../git/storage';
import { localRecord } from '../state/state-file';
import { moveRef } from '../store/tx';
import { CLAIMS_PREFIX, readTable } from './table';

const NOTE = localRecord('claims-refs.json');

function readNote(commonDir: string): Map<string, string> | null {
  const j = NOTE.read(commonDir);
  return j && new Map(Object.entries(j.refs ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

const writeNote = (commonDir: string, refs: Map<string, string>) => NOTE.cache(commonDir, { refs: Object.fromEntries(refs) });

export function noteClaimsMove(repo: Storage, ref: string, oid: string | null): void {
  const refs = readNote(repo.commonDir) ?? new Map<string, string>();
  if (oid) refs.set(ref, oid);
  else refs.delete(ref);
  writeNote(repo.commonDir, refs);
}

/** One line per local table changed outside git-handoff since it last moved it. */
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
