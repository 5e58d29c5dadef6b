// The claims state file (SPEC 10): the live claims this clone knows, present only while there are some, so the sh
// front hands a writing call to node only then (one stat). A cache for telling, never authority: the refs decide.
// A claim's shape and liveness are here, below the store, which asks them for a takeover.
import { localRecord, removeFile } from './state-file';
import { processGone } from './session-process';
import { shellWord } from '../../terminal-text';

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

// A claim's expiry is written by its maker's clock, so each clone caps it by its own (SPEC 10): a claim version (id
// and expiry) expires at the latest handoff.claimMaxTTL after this clone first saw it. No cap until a claims command
// judges expiry for its repository (judgeExpiry).
const SEEN = localRecord('claims-seen.json');
/** How long a first sighting is remembered when no table holds that version any more (at least two lifetimes). */
const KEEP_S = 30 * 86_400;
let judge: { commonDir: string; maxS: number; seen: Map<string, number>; dirty: boolean } | null = null;

/** Judges expiry for this repository from now on in this process; `saveSightings` once the tables were read. */
export function judgeExpiry(commonDir: string, maxMs: number): void {
  const maxS = Math.max(1, Math.floor(maxMs / 1000));
  if (judge?.commonDir === commonDir) {
    judge.maxS = maxS;
    return;
  }
  const seen = new Map<string, number>();
  for (const [k, v] of Object.entries(SEEN.read(commonDir)?.seen ?? {})) if (typeof v === 'number' && Number.isFinite(v)) seen.set(k, v);
  judge = { commonDir, maxS, seen, dirty: false };
}

export const judging = (commonDir: string): boolean => judge?.commonDir === commonDir;

/** Writes the first sightings made since they were read; a failure costs only a new window. */
export function saveSightings(): void {
  const s = judge;
  if (!s?.dirty) return;
  const floor = Math.floor(Date.now() / 1000) - Math.max(KEEP_S, 2 * s.maxS);
  const kept = Object.fromEntries([...s.seen].filter(([, t]) => t >= floor));
  if (SEEN.cache(s.commonDir, { seen: kept })) s.dirty = false;
}

/** When this clone counts the claim expired: its own expiry, or its first sighting here plus handoff.claimMaxTTL. */
export function expiresOf(c: Claim): number {
  if (!judge) return c.expires;
  const k = `${c.id}@${c.expires}`;
  let t = judge.seen.get(k);
  if (t === undefined) {
    t = Math.floor(Date.now() / 1000);
    judge.seen.set(k, t);
    judge.dirty = true;
  }
  return Math.min(c.expires, t + judge.maxS);
}

/** Live: not expired, and its client process is not known to be gone. */
export const claimLive = (c: Claim, nowMs = Date.now()) => nowMs < expiresOf(c) * 1000 && !processGone({ pid: c.pid, start: c.pidStart, host: c.host });

/** A claim renewed by its holder's activity once less than a quarter of its lifetime is left (SPEC 10). */
export const renewDue = (c: { expires: number; ttl: number }, nowMs = Date.now()) => c.expires * 1000 - nowMs < (c.ttl * 1000) / 4;

/** A claim's time (unix seconds) as messages show it. */
export const when = (s: number) => new Date(s * 1000).toISOString().replace(/\.000Z$/, 'Z');

/** How every message about a claim ends: its note and the handoff it is for. */
export const claimNotes = (c: { note: string | null; topic: string | null }) => `${c.note ? `; why: ${JSON.stringify(c.note)}` : ''}${c.topic ? `; handoff: ${c.topic}` : ''}`;

const MARKER = localRecord('claims.json');
export const claimsMarker = (commonDir: string) => MARKER.at(commonDir);

/** Writes the marker (removes it when no claim is live). */
export function writeMarker(commonDir: string, claims: ClaimView[]): void {
  if (claims.length === 0) removeFile(claimsMarker(commonDir));
  else MARKER.write(commonDir, { claims });
}

export function readMarker(commonDir: string): ClaimView[] {
  const j = MARKER.read(commonDir);
  return Array.isArray(j?.claims) ? j.claims.filter((c: any) => c && typeof c.session === 'string' && Array.isArray(c.paths) && typeof c.expires === 'number') : [];
}
