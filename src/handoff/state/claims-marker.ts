// The claims state file (SPEC 10): <git-common-dir>/handoff/claims.json holds the live claims this clone knows (its
// own tables and the handoff remote's as last fetched), written whenever git-handoff moves or fetches a claims table,
// removed when none is live. It exists only while there are claims: the sh front and the guard's fast path test its
// existence (one stat) and hand a writing call to the full guard only then, so a tool call costs nothing more while
// no claim exists. It is a cache for telling, never authority: claim and release decide on the refs. A claim's shape
// and whether it is live are here too, below the store, which asks them for a takeover (src/handoff/store/live.ts).
import { rmSync } from 'node:fs';
import { readJsonOr } from '../../read-file';
import path from 'node:path';
import { handoffDir } from './paths';
import { writeState } from './state-file';
import { processGone } from './session-process';

export interface Claim {
  /** unique: `<session>@<unix seconds>.<random>` */
  id: string;
  session: string;
  client: string | null;
  /** repository-relative specs: files, `dir/`, globs */
  paths: string[];
  note: string | null;
  /** unix seconds */
  since: number;
  expires: number;
  /** the lifetime a renewal gives it again, seconds */
  ttl: number;
  /** the holder's client process, to end the claim when it is gone (checked only on its host) */
  pid: number | null;
  pidStart: string | null;
  host: string | null;
  /** the handoff the holder owns on the branch, when it claimed */
  topic: string | null;
  worktree: string | null;
}

/** A claim as a listing shows it: its branch, and where this clone saw it. */
export interface ClaimView extends Claim {
  branch: string;
  /** where this clone saw it: here only (not published yet), the remote only, or both */
  where: 'local' | 'remote' | 'both';
}

/** This clone's cap on a claim's expiry (unix seconds: src/handoff/claims/expiry.ts); none until a claims command sets it. */
let capOf: ((c: Claim) => number) | null = null;
export const setExpiryJudge = (judge: ((c: Claim) => number) | null): void => void (capOf = judge);

/** When this clone counts the claim expired: its own expiry, or earlier, handoff.claimMaxTTL after this clone first saw it. */
export const expiresOf = (c: Claim): number => (capOf ? Math.min(c.expires, capOf(c)) : c.expires);

/** Live: not expired, and its client process is not known to be gone (only its own host can tell). */
export const claimLive = (c: Claim, nowMs = Date.now()) => nowMs < expiresOf(c) * 1000 && !processGone({ pid: c.pid, start: c.pidStart, host: c.host });

/** A claim renewed by its holder's activity once less than a quarter of its lifetime is left (SPEC 10). */
export const renewDue = (c: { expires: number; ttl: number }, nowMs = Date.now()) => c.expires * 1000 - nowMs < (c.ttl * 1000) / 4;

export const claimsMarker = (commonDir: string) => path.join(handoffDir(commonDir), 'claims.json');

/** Writes the marker with `claims` (removes it when none is live). The claims are read by refreshMarker (claims/claims.ts). */
export function writeMarker(commonDir: string, claims: ClaimView[]): void {
  const file = claimsMarker(commonDir);
  if (claims.length === 0) rmSync(file, { force: true });
  else writeState(file, JSON.stringify({ claims }) + '\n', handoffDir(commonDir));
}

/** The claims the marker lists (none when it is missing or unreadable). */
export function readMarker(commonDir: string): ClaimView[] {
  const j = readJsonOr(claimsMarker(commonDir));
  return Array.isArray(j?.claims) ? j.claims.filter((c: any) => c && typeof c.session === 'string' && Array.isArray(c.paths) && typeof c.expires === 'number') : [];
}
