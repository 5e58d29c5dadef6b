// The claims state file (SPEC 10): the live claims this clone knows, present only while there are some, so the sh
// front hands a writing call to node only then (one stat). A cache for telling, never authority: the refs decide.
// A claim's shape and liveness are here, below the store, which asks them for a takeover.
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
  /** seconds */
  ttl: number;
  /** the holder's client process: the claim ends with it */
  pid: number | null;
  pidStart: string | null;
  host: string | null;
  /** the handoff the holder owns on the branch, when it claimed */
  topic: string | null;
  worktree: string | null;
}

export interface ClaimView extends Claim {
  branch: string;
  /** here only (not published yet), the remote only, or both */
  where: 'local' | 'remote' | 'both';
}

/** This clone's cap on a claim's expiry (claims/expiry.ts). */
let capOf: ((c: Claim) => number) | null = null;
export const setExpiryJudge = (judge: ((c: Claim) => number) | null): void => void (capOf = judge);

/** When this clone counts the claim expired: its own expiry, or earlier, handoff.claimMaxTTL after this clone first saw it. */
export const expiresOf = (c: Claim): number => (capOf ? Math.min(c.expires, capOf(c)) : c.expires);

/** Live: not expired, and its client process is not known to be gone. */
export const claimLive = (c: Claim, nowMs = Date.now()) => nowMs < expiresOf(c) * 1000 && !processGone({ pid: c.pid, start: c.pidStart, host: c.host });

/** A claim renewed by its holder's activity once less than a quarter of its lifetime is left (SPEC 10). */
export const renewDue = (c: { expires: number; ttl: number }, nowMs = Date.now()) => c.expires * 1000 - nowMs < (c.ttl * 1000) / 4;

/** A claim's time (unix seconds) as messages show it. */
export const when = (s: number) => new Date(s * 1000).toISOString().replace(/\.000Z$/, 'Z');

/** A word as the shell reads it back: quoted when it holds anything but plain characters. */
export const shellWord = (w: string) => (/^[A-Za-z0-9_./@%+=:,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

export const claimsMarker = (commonDir: string) => path.join(handoffDir(commonDir), 'claims.json');

/** Writes the marker (removes it when no claim is live). */
export function writeMarker(commonDir: string, claims: ClaimView[]): void {
  const file = claimsMarker(commonDir);
  if (claims.length === 0) rmSync(file, { force: true });
  else writeState(file, JSON.stringify({ claims }) + '\n', handoffDir(commonDir));
}

export function readMarker(commonDir: string): ClaimView[] {
  const j = readJsonOr(claimsMarker(commonDir));
  return Array.isArray(j?.claims) ? j.claims.filter((c: any) => c && typeof c.session === 'string' && Array.isArray(c.paths) && typeof c.expires === 'number') : [];
}
