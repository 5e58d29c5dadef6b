// The claims state file (SPEC 10): <git-common-dir>/handoff/claims.json holds the live claims this clone knows (its
// own tables and the handoff remote's as last fetched), written whenever git-handoff moves or fetches a claims table,
// removed when none is live. It exists only while there are claims: the sh front and the guard's fast path test its
// existence (one stat) and hand a writing call to the full guard only then, so a tool call costs nothing more while
// no claim exists. It is a cache for telling, never authority: claim and release decide on the refs.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { handoffDir } from '../state/paths';
import { writeState } from '../state/state-file';
import type { ClaimView } from './table';

export const claimsMarker = (commonDir: string) => path.join(handoffDir(commonDir), 'claims.json');

/** Writes the marker with `claims` (removes it when none is live). The claims are read by refreshMarker (claims.ts). */
export function writeMarker(commonDir: string, claims: ClaimView[]): void {
  const file = claimsMarker(commonDir);
  if (claims.length === 0) rmSync(file, { force: true });
  else writeState(file, JSON.stringify({ claims }) + '\n', handoffDir(commonDir));
}

/** The claims the marker lists (none when it is missing or unreadable). */
export function readMarker(commonDir: string): ClaimView[] {
  try {
    const j = JSON.parse(readFileSync(claimsMarker(commonDir), 'utf8'));
    return Array.isArray(j?.claims) ? j.claims.filter((c: any) => c && typeof c.session === 'string' && Array.isArray(c.paths) && typeof c.expires === 'number') : [];
  } catch {
    return [];
  }
}
