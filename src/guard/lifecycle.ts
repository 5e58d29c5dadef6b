// After a tool, at session start, at stop and before compaction: the ledger of written paths, the worktree
// lease, the boot view as context, and the once-per-session reminders.
import { lutimesSync } from 'node:fs';
import path from 'node:path';
import { absent, readLedger, recordIntents, recordRelease, recordWrites } from '../handoff/state/ledger';
import { claimRecord, isKnownSession } from '../handoff/state/lineage-record';
import { handoffDir } from '../handoff/state/paths';
import { claimLive, readMarker, renewDue } from '../handoff/state/claims-marker';
import { describeProcess, recordSessionProcess } from '../handoff/state/session-process';
import { releaseLease, touchLease } from '../handoff/store/leases';
import { LEASE_PREFIX } from '../handoff/store/names';
import { holderNote, startClaims, type Hit } from '../handoff/claims/tell';
import { leaveNote, sessionStateFile, takeNotes, type Note } from '../handoff/state/notes';
import { short } from '../handoff/state/session';
import { isDiskError, optionalWrite, writeState as writeStateFile } from '../handoff/state/state-file';
import { modelReadsBefore, type GuardContext } from './context';
import type { Effect } from './claims';
import type { Decision, EventKind } from '../clients/event';
import { LEASE_EVERY_MS } from './first';
import { clientPid, clientProcess, followLineage } from './lineage';
import { headBranch, type Location } from './locate';
import { effectByRepo } from './effect';
import { agentSessionOf } from '../clients/names';
import { readJsonOr } from '../read-file';
import { RECORDS } from '../clients/records';

/** What the guard remembers about one session between calls. */
interface SessionState {
  leaseAt?: number; // last lease refresh, unix ms
  warned?: string[]; // sessions this one was already warned about
  reminded?: boolean; // the Stop reminder was given
  offNoted?: boolean; // `handoff.guard off` was already announced
  compactReminded?: boolean;
  pid?: number; // the client process recorded for this session (handoff/processes/)
}

const stateFile = (loc: Location, session: string, ext = 'json') => sessionStateFile(loc.commonDir, session, ext);

function readState(loc: Location, session: string): SessionState {
  const s = readJsonOr(stateFile(loc, session));
  return s && typeof s === 'object' ? s : {};
}

function writeState(loc: Location, session: string, s: SessionState): void {
  optionalWrite(() => {
    writeStateFile(stateFile(loc, session), JSON.stringify(s), handoffDir(loc.commonDir));
    // the sh front (bin/git-handoff-guard) reads the last lease refresh here to know when the next one is due: in
    // the file, and as its modification time, dated when the next is due (compared with no clock process: /proc/self)
    if (s.leaseAt) {
      const beat = stateFile(loc, session, 'beat');
      writeStateFile(beat, `${s.leaseAt}\n`, handoffDir(loc.commonDir));
      try {
        lutimesSync(beat, new Date(), new Date(s.leaseAt + LEASE_EVERY_MS));
      } catch (e) {
        // another session's heartbeat took the lease and removed this beat meanwhile (tellHolder): nothing to date
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
  });
}

/** Whether this session is yet to be given the once-per-session message `flag`; marks it given. */
function firstTime(loc: Location, session: string, flag: 'reminded' | 'offNoted' | 'compactReminded'): boolean {
  const state = readState(loc, session);
  if (state[flag]) return false;
  writeState(loc, session, { ...state, [flag]: true });
  return true;
}

/** Refreshes this session's lease at most once a minute; warns once when another live session holds the worktree. */
async function heartbeat(ctx: GuardContext, loc: Location, session: string, force = false): Promise<string | null> {
  const state = readState(loc, session);
  const now = Date.now();
  if (!force && state.leaseAt && now - state.leaseAt < LEASE_EVERY_MS) return null;
  const repo = await ctx.repo(loc);
  // the client process: once it has exited, this session is not live (whether or not it holds the lease)
  const pid = ctx.event.agentId ? null : clientProcess(ctx.event.client, ctx.env);
  const proc = pid ? describeProcess(pid) : null;
  if (proc && state.pid !== pid) {
    optionalWrite(() => recordSessionProcess(loc.commonDir, session, proc));
    state.pid = proc.pid;
  }
  const config = await ctx.config(loc);
  let r: ReturnType<typeof touchLease>;
  try {
    r = touchLease(repo, session, loc.worktree, { client: ctx.event.client, pid, process: proc, config });
  } catch (e) {
    // the lease is a heartbeat: a disk that cannot take one changes no decision (the next call tries again)
    if (isDiskError(e)) return null;
    throw e;
  }
  // a lease this call did not win is tried again at the next call, not a minute later
  if (r.status !== 'lost') state.leaseAt = now;
  let warning: string | null = null;
  if (r.status === 'held' && !(state.warned ?? []).includes(r.lease.session)) {
    state.warned = [...(state.warned ?? []), r.lease.session];
    const age = Math.max(0, Math.round((now - r.lease.time * 1000) / 60_000));
    warning =
      `git-handoff: another live session, ${short(r.lease.session, [session])} (${r.lease.client ?? 'unknown client'}, last active ${age} min ago), ` +
      `works in this worktree (${loc.worktree}). You are session ${short(session, [r.lease.session])}. Your edits and commits can collide with its work: ` +
      `commit only the paths you wrote, or move to your own worktree (git worktree add ../<dir> -b <branch>).`;
    // and the session holding the worktree hears of this one, once
    tellHolder(loc, r.lease.session, session, ctx.event.client);
  }
  writeState(loc, session, state);
  return warning;
}

/** Leaves the lease holder a note (notes.ts) about a session that has just started working beside it; once per pair: the holder's state remembers. */
function tellHolder(loc: Location, holder: string, newcomer: string, newcomerClient: string): void {
  const st = readState(loc, holder);
  if ((st.warned ?? []).includes(newcomer)) return;
  writeState(loc, holder, { ...st, warned: [...(st.warned ?? []), newcomer] });
  const text =
    `git-handoff: another session, ${short(newcomer, [holder])} (${newcomerClient}), has started working in this worktree (${loc.worktree}) beside you. ` +
    `You are session ${short(holder, [newcomer])}. Your edits and commits can collide with its work: commit only the paths you wrote ` +
    `(git add -- <your files>; \`git handoff sessions\` shows who wrote what), or move to your own worktree (git worktree add ../<dir> -b <branch>).`;
  leaveNote(loc.commonDir, holder, { kind: 'beside', key: newcomer, text });
}

/** The notes left for this session, less those of a session beside it that has ended since (`sessions`: ended, gone, released). */
async function notesFor(ctx: GuardContext, loc: Location, session: string): Promise<Note[]> {
  const notes = takeNotes(loc.commonDir, session);
  // leaving them removed its heartbeat file so that this call came here: written back (the next calls need no full guard)
  if (notes.length) writeState(loc, session, readState(loc, session));
  if (!notes.some((n) => n.kind === 'beside')) return notes;
  const { listSessions } = await import('../handoff/store/sessions');
  const ended = new Set(listSessions(await ctx.repo(loc), { worktree: loc.worktree, config: await ctx.config(loc) }).filter((s) => s.status === 'ended' || s.status === 'gone' || s.status === 'released').map((s) => s.session));
  return notes.filter((n) => n.kind !== 'beside' || !ended.has(n.key!));
}

/**
 * Before a tool the guard allowed: what the call names is recorded as an intent (counted once the file shows the call
 * ran), the lease refreshed when due. Returns what the model is to be told (`lost`: the loss record's report at a first
 * sight), or keeps it for the after-tool hook of a client whose model reads no context before a tool.
 */
export async function beforeTool(ctx: GuardContext, loc: Location | null, lost: string | null = null): Promise<string | null> {
  const session = ctx.session;
  if (!session || !loc || (await ctx.guardOff(loc))) return null;
  // a session no lineage can follow (the client names no process) is known from its first call on
  if (!ctx.event.agentId && !isKnownSession(loc.commonDir, session) && clientPid(ctx.event.client, ctx.env) === null) {
    claimRecord(loc.commonDir, { session, client: ctx.event.client, pid: null, procStart: null, worktree: loc.worktree, source: 'tool', from: null, t: Date.now(), inherited: [], lease: false });
  }
  const t = Date.now();
  for (const { loc: l, paths } of effectByRepo(ctx)) {
    const gone = paths.filter((rel) => absent(path.join(l.worktree, rel)));
    recordIntents(l.commonDir, session, l.worktree, paths, gone, t, ctx.event.agentId ?? undefined);
  }
  // what other sessions did (started beside this one, took its handoffs, met or took its claims), and what an
  // after-tool hook that never ran left (a refused or cancelled tool)
  const told = (await notesFor(ctx, loc, session)).map((n) => n.text);
  const warning = [lost, ...told, await heartbeat(ctx, loc, session)].filter(Boolean).join('\n') || null;
  if (!warning || modelReadsBefore(ctx.event)) return warning;
  keepForAfterTool(loc, session, warning);
  return null;
}

/** Writes what a verdict leaves (src/guard/claims.ts), once it stands. */
export async function applyEffects(ctx: GuardContext, effects: Effect[]): Promise<void> {
  for (const e of effects) {
    if (e.kind === 'renew-claims') await changeOwnClaims(ctx, e.loc, false);
    else if (e.kind === 'tell-holders') tellHolders(ctx, e.hits, e.refused);
    else keepForAfterTool(e.loc, ctx.session!, e.text);
  }
}

/**
 * Renews this session's claims on the branch (its own activity, once a quarter of their lifetime is left) or releases
 * them (its end; SPEC 10). The state file says without git whether there is any; never fails the call.
 */
async function changeOwnClaims(ctx: GuardContext, loc: Location, release: boolean): Promise<void> {
  const session = ctx.session;
  const branch = headBranch(loc);
  if (!session || !branch) return;
  try {
    const now = Date.now();
    const due = (c: { session: string; branch: string }) => c.session === session && c.branch === branch;
    if (!readMarker(loc.commonDir).some((c) => due(c) && (release || (claimLive(c, now) && renewDue(c, now))))) return;
    const { changeClaims, releaseMutation, renewMutation } = await import('../handoff/claims/claims');
    const repo = await ctx.repo(loc);
    if (release) await changeClaims(repo, branch, session, releaseMutation(branch, session, null));
    else await changeClaims(repo, branch, session, renewMutation(branch, session));
  } catch {
    // the claim lasts to its expiry or its process's end; the next call tries again
  }
}

/** The holder of each claim met hears of it at its next tool call and session start (a session this clone has seen). */
function tellHolders(ctx: GuardContext, hits: Array<Hit & { commonDir: string }>, refused: boolean): void {
  if (!ctx.session) return;
  try {
    for (const commonDir of new Set(hits.map((h) => h.commonDir))) {
      for (const n of holderNote(hits.filter((h) => h.commonDir === commonDir), ctx.session, ctx.event.client, refused)) {
        if (isKnownSession(commonDir, n.holder)) leaveNote(commonDir, n.holder, { kind: 'claim-refused', key: n.key, text: n.text });
      }
    }
  } catch {
    // telling the holder is best effort: the call's own answer stands
  }
}

/** A warning for a client that reads context only after a tool: a note (notes.ts) for postTool. */
const keepForAfterTool = (loc: Location, session: string, text: string) => leaveNote(loc.commonDir, session, { kind: 'kept', text });

/** `handler` for the event's session in its repository with the guard on; nothing for another event. */
const opening =
  (handler: (ctx: GuardContext, session: string, loc: Location) => Promise<Decision>) =>
  async (ctx: GuardContext): Promise<Decision> => {
    const loc = ctx.session ? ctx.locate() : null;
    return ctx.session && loc && !(await ctx.guardOff(loc)) ? handler(ctx, ctx.session, loc) : {};
  };

/** An after-tool event with no before-hook: the edit ran, so what it wrote is recorded as written. */
const recordedAfterTool = opening(async (ctx, session, loc) => {
  const note = await followLineage(ctx, loc, 'tool');
  // a shell command was recorded by beforeShellExecution as an intent (it may not have run)
  if (ctx.event.action.type !== 'shell') for (const { loc: l, paths } of effectByRepo(ctx)) recordWrites(l.commonDir, session, l.worktree, paths, ctx.event.agentId ?? undefined);
  const warning = await heartbeat(ctx, loc, session);
  const context = [note, warning].filter(Boolean).join('\n');
  return context ? { context, ...(warning ? { notice: warning } : {}) } : {};
});

/** After a tool: the notes pending for a client that shows no context before a tool (what beforeTool kept among them), given once. */
async function postTool(ctx: GuardContext): Promise<Decision> {
  if (RECORDS[ctx.event.client].recordsAfterTool) return recordedAfterTool(ctx);
  const session = ctx.session;
  const loc = session ? ctx.locate() : null;
  if (!session || !loc) return {};
  const note = (await notesFor(ctx, loc, session)).map((n) => n.text).join('\n');
  return note ? { context: note, notice: note } : {};
}

async function sessionStart(ctx: GuardContext): Promise<Decision> {
  const loc = ctx.locate();
  if (!loc) return {};
  const session = ctx.session;
  if (await ctx.guardOff(loc)) {
    if (session) firstTime(loc, session, 'offNoted');
    return { context: GUARD_OFF };
  }
  // Before boot's view, so that handoffs inherited after /clear show as this session's own.
  const note = session ? await followLineage(ctx, loc, ctx.event.source ?? 'startup') : null;
  const repo = await ctx.repo(loc);
  const [branch, config] = [headBranch(loc), await ctx.config(loc)];
  const { fetchOnStart, describeStartFetch } = await import('../sync/start-fetch');
  // the remote's handoffs of this branch, within a hard limit (not again after a compaction: same session)
  const net = ctx.event.source === 'compact' ? null : describeStartFetch(await fetchOnStart(repo, branch, { config }));
  const { bootView, renderBoot } = await import('../handoff/store/boot');
  const { recoverAtSessionStart } = await import('../handoff/record/recover');
  const { readerOf, validRole } = await import('../handoff/store/address');
  const reader = readerOf({ session, client: ctx.event.client, role: validRole(ctx.env.GIT_HANDOFF_ROLE) });
  // a client that HTML-escapes a hook's context gets its wrapper without angle brackets
  const wrap = RECORDS[ctx.event.client].escapesContext ? 'brackets' : 'tags';
  const { claimsPatterns, claimsRemote } = await import('../handoff/claims/claims');
  // the lease and the claims read below come from the view's one listing
  const alsoRefs = [LEASE_PREFIX, ...claimsPatterns(claimsRemote(repo, config).remote)];
  const text = renderBoot(bootView(repo, { record: recoverAtSessionStart(repo), session, reader, surface: true, alsoRefs }), { untrusted: true, wrap }).replace(/\n+$/, '');
  // notes left for this session: a takeover is in the view above (boot lists what was taken from it), the rest here
  const told = session ? (await notesFor(ctx, loc, session)).filter((n) => n.kind !== 'takeover').map((n) => n.text).join('\n') : '';
  const warning = session ? await heartbeat(ctx, loc, session, true) : null;
  let claims: string | null = null;
  try {
    // the live claims on the branch (SPEC 10)
    claims = startClaims(repo, branch, session);
  } catch {
    // a failure costs only this block
  }
  return { context: [note, net, text, claims, told, warning].filter(Boolean).join('\n\n') };
}

/**
 * The client's end event: the session's lease and claims end, recorded as ended by its client. After a /clear the
 * next session id of the same process continues it (lineage) and inherits them, so they are left for it.
 */
const sessionEnd = opening(async (ctx, session, loc) => {
  if (ctx.event.agentId) return {};
  // an end event for another session than the one whose shell this runs in is a tool call's, not its client's: only the person moves the anchors
  const inside = agentSessionOf(ctx.env);
  if (inside?.session && inside.session !== session) return {};
  const reason = ctx.event.source ?? 'other';
  if (reason === 'clear' && clientPid(ctx.event.client, ctx.env) !== null) return {};
  releaseLease(await ctx.repo(loc), loc.worktree, session);
  await changeOwnClaims(ctx, loc, true);
  recordRelease(loc.commonDir, session, loc.worktree, `session-end:${reason.replace(/[^\w-]/g, '_').slice(0, 40)}`);
  return {};
});

const GUARD_OFF = 'git-handoff: the guard is off in this repository (git config handoff.guard off): nothing is checked or recorded. `git config handoff.guard on` turns it back on.';

/** With `handoff.guard off`, a call the guard would have refused or changed is allowed; the session is told once. */
export async function guardOffOnce(ctx: GuardContext, loc: Location): Promise<Decision> {
  return ctx.session && firstTime(loc, ctx.session, 'offNoted') ? { context: GUARD_OFF } : {};
}

/** This session's handoff topics on `branch` (every branch when none is checked out). */
async function ownTopics(ctx: GuardContext, loc: Location, session: string, branch: string | null): Promise<string[]> {
  const { listHandoffs } = await import('../handoff/store/store');
  return listHandoffs(await ctx.repo(loc), branch ? { branch, mine: session } : { all: true, mine: session }).map((h) => h.topic);
}

/** Whether the ledger holds paths this session wrote. */
const changedFiles = (loc: Location, session: string): boolean => readLedger(loc.commonDir).some((e) => e.session === session && (e.paths?.length ?? 0) > 0);

const stop = opening(async (ctx, session, loc) => {
  if (ctx.event.stopHookActive || readState(loc, session).reminded || !changedFiles(loc, session)) return {};
  const branch = headBranch(loc);
  const owns = (await ownTopics(ctx, loc, session, branch)).length > 0;
  if (!firstTime(loc, session, 'reminded') || owns) return {};
  return {
    followUp:
      `git-handoff: you changed files in this session but left no handoff note on ${branch ? `branch ${branch}` : 'this branch'}. ` +
      `Before stopping, write one for whoever comes next (goal, state, what is done, what is ruled out, next action):\n` +
      `  git handoff write <topic> -m "<note>"\n(\`git handoff template\` shows the sections.) This reminder comes once.`,
  };
});

/** Before compaction, once per session (some clients fire it before every request), when the session changed files or owns a handoff. */
const preCompact = opening(async (ctx, session, loc) => {
  if (readState(loc, session).compactReminded) return {};
  const branch = headBranch(loc);
  const own = branch ? await ownTopics(ctx, loc, session, branch) : [];
  if ((own.length === 0 && !changedFiles(loc, session)) || !firstTime(loc, session, 'compactReminded')) return {};
  const topic = own[0] ?? '<topic>';
  return {
    context:
      `git-handoff: context is about to be compacted. Before it is, update ${own.length ? `your handoff${own.length > 1 ? 's' : ''} (${own.join(', ')})` : 'or start your handoff note'} ` +
      `so nothing learned is lost: git handoff write ${topic} -m "<state, what is done, what is ruled out, next action>". You are session ${session}.`,
  };
});

/** What the guard does at each event that is not a tool call's verdict. */
export const AT_EVENT: Partial<Record<EventKind, (ctx: GuardContext) => Promise<Decision>>> = {
  'post-tool': postTool,
  'session-start': sessionStart,
  'session-end': sessionEnd,
  stop,
  'pre-compact': preCompact,
};
