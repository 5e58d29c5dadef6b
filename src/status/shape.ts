// The shapes of what `status --json` prints and the page reads (SPEC 4, "status --json"), and what both say of a time
// to come: no import but types, so the page's code (src/web/page, compiled for the browser) takes them as the command does.
import type { ClaimView } from '../handoff/state/claims-marker';
import type { HandoffRow } from '../handoff/store/store';
import type { SessionInfo } from '../handoff/store/sessions';

/** A live claim, its times ISO 8601. */
export type StatusClaim = Omit<ClaimView, 'since' | 'expires' | 'ttl' | 'pid' | 'pidStart'> & { since: string; expires: string };

export interface StatusSession extends Pick<SessionInfo, 'session' | 'client' | 'host'> {
  /** `sessions`' status for a session this clone knows; `claiming` (known by its live claim) or `known` (known by the
   *  handoffs it owns) for one only a claims table or a handoff names */
  status: SessionInfo['status'] | 'claiming' | 'known';
  /** here: a session of this clone (its leases, ledger or worktrees); remote: another clone's, known from the claims and
   *  handoffs shared through the remote */
  where: 'here' | 'remote';
  worktree: string | null;
  /** ISO 8601: its lease's heartbeat, last write, claim or handoff version, whichever is newest */
  lastActivity: string | null;
  /** the handoffs it owns in the scope */
  handoffs: Array<{ branch: string; topic: string }>;
  claims: StatusClaim[];
}

/** A row of `list` and whether it is for the caller: `addressed` by name; `unread` its newest version (null: no caller, or
 *  the caller's own, or not for the caller); `fetch` the command that brings a remote-only one. */
export type StatusHandoff = HandoffRow & { addressed: boolean; unread: boolean | null; fetch?: string };

export interface Attention {
  kind: 'diverged' | 'refused-handoff' | 'claim-conflict' | 'refused-call' | 'takeover' | 'claim-takeover' | 'loss' | 'record-problem' | 'claim-expiring' | 'claim-unpublished' | 'remote-unreachable';
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

/** How long until `iso`, as the status screen and the page say it: `12 min left`, `3 h left`. */
export function timeLeft(iso: string, now: number): string {
  const min = Math.round((Date.parse(iso) - now) / 60_000);
  return min < 60 ? `${Math.max(min, 0)} min left` : `${Math.round(min / 60)} h left`;
}
