// A takeover is a decision on the record (SPEC 3, 4): of a live owner only with `--from-live`; the previous owner is
// told, and its next write is refused with the story, never advised to take it back.
import { HandoffError } from '../../errors';
import type { Config, Storage } from '../../git/storage';
import { trailerBlockLines } from '../../git/trailers';
import { isKnownSession, lineageOf } from '../state/lineage-record';
import { claimLive, readMarker, when } from '../state/claims-marker';
import { shellWord } from '../../terminal-text';
import { thisHost } from '../state/session-process';
import { listSessions } from './sessions';
import { PERSON_PREFIX } from './person';
import { leaveNote } from '../state/notes';
import { short, type SessionRef } from '../state/session';
import { oneLine, parseTrailerLines } from './document';
import { parseRef } from './names';
import { relativeTime } from './time';

export interface TakeoverArg {
  reason: string;
  /** take over only from this owner (lineage: the same client process under a new id); no liveness check */
  from?: string;
  /** the caller said the owner may be live (`--from-live`) */
  fromLive?: boolean;
}

// Whether a handoff's owner is live (SPEC 3): as `sessions` says it, for the owner or a session continuing it (lineage),
// or a live claim of it in a claims table this clone knows. `session`: the one that is live (the owner, or the one that
// continues it after /clear); `lastActivity`: unix ms; `where`: this clone's sessions, or the handoff remote's claims table.
export type LiveOwner = NonNullable<ReturnType<typeof liveOwner>>;

/** The live session behind `owner`, or null (a person, an ended, gone or stale session, one never seen here). */
export function liveOwner(repo: Storage, owner: string | null, config?: Config) {
  if (!owner || owner.startsWith(PERSON_PREFIX)) return null;
  const now = Date.now();
  const chain = lineageOf(repo.commonDir, owner, undefined, true);
  const here = listSessions(repo, { config, now })
    .filter((s) => s.status === 'live' && chain.includes(s.session))
    .map((s) => ({ owner, session: s.session, client: s.client, host: s.host ?? thisHost(), worktree: s.worktree, lastActivity: Math.max(s.heartbeat ?? 0, s.lastActivity ?? 0), where: 'here' as const }));
  const claimed = readMarker(repo.commonDir)
    .filter((c) => chain.includes(c.session) && claimLive(c, now))
    .map((c) => ({ owner, session: c.session, client: c.client, host: c.host, worktree: c.worktree, lastActivity: c.since * 1000, where: c.where === 'remote' ? ('remote' as const) : ('here' as const) }));
  return [...here, ...claimed].sort((a, b) => b.lastActivity - a.lastActivity)[0] ?? null;
}

/** Where and how a live owner shows life, in words. */
function describeLive(l: LiveOwner, among: string[]): string {
  const who = l.session === l.owner ? '' : ` (continued by session ${short(l.session, among)} after /clear)`;
  const where = l.where === 'remote' ? `a live claim in the handoff remote's claims table, since ${when(Math.floor(l.lastActivity / 1000))}` : `last active ${relativeTime(new Date(l.lastActivity).toISOString())}${l.worktree ? ` in ${l.worktree}` : ''}`;
  return `${l.client ?? 'unknown client'} on host ${l.host ?? 'unknown'}${who}, ${where}`;
}

/** A takeover of `owner`'s handoff: refused (exit 3, `owner-live`) while it is live without `--from-live`; returns the live owner. */
export function checkTakeover(repo: Storage, ref: string, owner: string | null, session: string, takeover: TakeoverArg, retry: string, config?: Config): LiveOwner | null {
  if (takeover.from !== undefined || !owner || owner === session) return null;
  const live = liveOwner(repo, owner, config);
  // the session that continues the owner (lineage) is the taker itself: nobody else is at work on it
  if (live?.session === session) return null;
  if (!live || takeover.fromLive) return live;
  const topic = parseRef(ref)?.topic ?? ref;
  const among = [owner, session, live.session];
  throw new HandoffError(
    'owned',
    'owner-live',
    `${ref} is owned by session ${short(owner, among)}, which is live: ${describeLive(live, among)}. ` +
      `You are session ${session}. A takeover would take it from a session that is working on it; nothing was done.\nWays on:\n` +
      `  1. ask it, or wait until it ends (git handoff sessions shows it)\n` +
      `  2. write your notes under a new topic: git handoff write <new-topic> …\n` +
      `  3. take it over anyway, on the record (it is told at its next tool call): ${retry}`,
    { ref, topic, owner, session, live },
  );
}

/** The command a live-owner refusal prints: the refused one with `--from-live`. */
export const fromLiveRetry = (command: string, target: string) => `git handoff ${command} ${target} --take-over --reason "<why>" --from-live`;

/** A takeover from one of the sessions asked about: the version that took it (`oid`), by whom, when (unix seconds), why. */
export type TakenFrom = ReturnType<typeof takeoversFrom>[number];

/** The newest takeover from any of `sessions` in each of `refs`' histories, from one git log. */
export function takeoversFrom(repo: Storage, sessions: string[], refs: string[]) {
  if (!sessions.length || !refs.length) return [];
  const found = repo.commitsVia(refs, { grep: sessions.map((s) => `Handoff-Takeover-From: ${s}`) });
  const seen = new Set<string>();
  return found.flatMap(({ oid, ref, time, block }) => {
    const t = parseTrailerLines(trailerBlockLines(block));
    if (!t.session || !t.takeoverFrom || !sessions.includes(t.takeoverFrom) || seen.has(ref)) return [];
    seen.add(ref);
    const p = parseRef(ref);
    return [{ ref, topic: p?.topic ?? t.topic ?? ref, branch: p?.branch ?? t.branch, oid, from: t.takeoverFrom, by: t.session, client: t.client, at: time, reason: t.reason }];
  });
}

/** One line: who took it, when, why. */
export function describeTaken(t: TakenFrom, among: ReadonlyArray<string | null>, now = Date.now()): string {
  return `session ${short(t.by, among)}${t.client ? ` (${t.client})` : ''} took it over ${relativeTime(new Date(t.at * 1000).toISOString(), now)} (${when(t.at)})${t.reason ? `: ${JSON.stringify(oneLine(t.reason))}` : ''}`;
}

/** The refusal of a write by the owner a takeover took the handoff from (null: `session` was never that owner). */
export function takenFromError(repo: Storage, ref: string, owner: string | null, session: string, logCommand: string): HandoffError | null {
  const t = takeoversFrom(repo, [session], [ref])[0];
  if (!t) return null;
  const among = [session, t.by, owner ?? t.by];
  return new HandoffError(
    'owned',
    'owned-by-another-session',
    `${ref} was taken over from you (session ${session}): ${describeTaken(t, among)}. ` +
      `It is session ${short(owner, among)}'s now; nothing was written.\n` +
      `See what happened: ${logCommand}\nWays on:\n` +
      `  1. write your notes under a new topic: git handoff write <new-topic> …\n` +
      `  2. ask session ${short(owner, among)}, which owns it now, to take them in`,
    { ref, owner, session, takenOver: { by: t.by, client: t.client, at: new Date(t.at * 1000).toISOString(), reason: t.reason, oid: t.oid } },
  );
}

export type TakeoverAct = 'took over' | 'archived' | 'restored' | 'redacted' | 'carried';

/** Tells the previous owner (its live session, else the owner this clone's guard has seen) what a takeover did. */
export function tellPreviousOwner(repo: Storage, o: { owner: string | null; live: LiveOwner | null; by: SessionRef; ref: string; branch: string; topic: string; reason: string; act: TakeoverAct }): void {
  const owner = o.owner;
  if (!owner || owner === o.by.id || owner.startsWith(PERSON_PREFIX)) return;
  const to = o.live && o.live.where === 'here' ? o.live.session : isKnownSession(repo.commonDir, owner) ? owner : null;
  if (!to) return;
  const among = [to, o.by.id];
  const branchArg = repo.branch === o.branch ? '' : ` --branch ${shellWord(o.branch)}`;
  const by = `session ${short(o.by.id, among)} (${o.by.client})`;
  const now = when(Math.floor(Date.now() / 1000));
  const why = JSON.stringify(oneLine(o.reason));
  const what =
    o.act === 'redacted'
      ? `its versions no remote has were rewritten by ${by} at ${now} (redact, as a takeover): ${why}; it is still yours`
      : o.act === 'took over'
        ? `was taken over by ${by} at ${now}: ${why}. It is that session's now: your next write to it is refused`
        : `was ${o.act === 'carried' ? 'carried to another branch' : o.act} by ${by}, taking it over, at ${now}: ${why}`;
  leaveNote(repo.commonDir, to, {
    kind: 'takeover',
    key: `takeover ${o.ref} ${o.by.id} ${o.act}`,
    text: `git-handoff: your handoff ${o.topic} (branch ${o.branch}) ${what}. See it: git handoff log ${o.topic}${branchArg}. Write your notes under a new topic, or ask session ${short(o.by.id, among)}.`,
  });
}
