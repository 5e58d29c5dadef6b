// The shapes of what `status --json` prints and the page reads (SPEC 4, "status --json"): plain types with no import,
// so the page's code (src/web/page, compiled for the browser) takes them as the command does.

/** here: a session of this clone (its leases, ledger or worktrees); remote: another clone's, known from the claims and
 *  handoffs shared through the remote */
export type Where = 'here' | 'remote';

export interface StatusClaim {
  id: string;
  branch: string;
  session: string;
  client: string | null;
  paths: string[];
  note: string | null;
  /** ISO 8601 */
  since: string;
  expires: string;
  host: string | null;
  worktree: string | null;
  topic: string | null;
  /** local: this clone's table only (not published); remote: the remote's only; both */
  where: 'local' | 'remote' | 'both';
}

export interface StatusSession {
  session: string;
  client: string | null;
  /** a status of `sessions` (live stale ended gone released) for a session this clone knows; `claiming` (known by its
   *  live claim) or `known` (known by the handoffs it owns) for one only a claims table or a handoff names */
  status: 'live' | 'stale' | 'released' | 'ended' | 'gone' | 'claiming' | 'known';
  where: Where;
  worktree: string | null;
  host: string | null;
  /** ISO 8601: its lease's heartbeat, last write, claim or handoff version, whichever is newest */
  lastActivity: string | null;
  /** the handoffs it owns in the scope */
  handoffs: Array<{ branch: string; topic: string }>;
  claims: StatusClaim[];
}

export interface StatusHandoff {
  branch: string;
  topic: string;
  ref: string;
  oid: string;
  /** the owner: a session id or person:<email>; null when its trailers cannot be trusted (then `problem`) */
  session: string | null;
  client: string | null;
  /** ISO 8601 */
  updatedAt: string;
  sync: 'local' | 'synced' | 'ahead' | 'behind' | 'diverged' | 'refused' | 'remote-only';
  /** addressees (Handoff-To); empty: anyone */
  to: string[];
  tags: string[];
  refs: string[];
  problem?: string;
  /** addressed to the caller by name */
  addressed: boolean;
  /** the caller has not read its newest version; null: no caller, or the caller's own, or not for the caller */
  unread: boolean | null;
  /** remote-only handoffs: the command that brings them */
  fetch?: string;
}

export type AttentionKind =
  | 'diverged'
  | 'refused-handoff'
  | 'claim-conflict'
  | 'refused-call'
  | 'takeover'
  | 'claim-takeover'
  | 'loss'
  | 'record-problem'
  | 'claim-expiring'
  | 'claim-unpublished'
  | 'remote-unreachable';

export interface Attention {
  kind: AttentionKind;
  /** ISO 8601 of the event, when it has one */
  at: string | null;
  message: string;
  session: string | null;
  ref?: string;
  /** what to run about it */
  command?: string;
}

export interface Status {
  version: number;
  /** ISO 8601 */
  generatedAt: string;
  /** `branch`: the checked-out (or named) branch; `all`: every branch */
  scope: 'branch' | 'all';
  branch: string | null;
  worktree: string | null;
  host: string;
  /** the handoff remote (handoff.remote, origin, or the only remote), null when none */
  remote: string | null;
  caller: { id: string; addressees: string[] } | null;
  sessions: StatusSession[];
  handoffs: StatusHandoff[];
  claims: StatusClaim[];
  attention: Attention[];
}


/** One version in the page's timeline. */
export interface TimelineVersion {
  oid: string;
  parents: string[];
  /** ISO 8601, the committer time */
  time: string;
  subject: string;
  session: string | null;
  client: string | null;
  branch: string | null;
  topic: string;
  takeoverFrom: string | null;
  reason: string | null;
  /** the `archived` version an archive adds */
  archived: boolean;
  /** where it is held: `here` (this clone's refs) and each remote whose copies (as last fetched) reach it */
  where: string[];
}

export interface Timeline {
  branch: string | null;
  /** each session that wrote a version shown: its first and last version's time */
  sessions: Array<{ session: string; client: string | null; first: string; last: string; versions: number }>;
  /** newest first, at most 300 */
  versions: TimelineVersion[];
  /** more versions exist than are shown */
  truncated: boolean;
}

/** One version opened: its text, and the text of the version before it (its first parent, when a version of the same handoff). */
export interface VersionView {
  oid: string;
  parents: string[];
  branch: string | null;
  topic: string;
  session: string | null;
  client: string | null;
  time: string;
  takeoverFrom: string | null;
  reason: string | null;
  to: string[];
  /** null: over the 1 MiB limit, not read */
  body: string | null;
  previous: { oid: string; session: string | null; time: string; body: string | null } | null;
}
