// The guard's side of lineage: which client process an event comes from (where /proc says), and the first sight of a
// session (a known one costs one stat; only an unknown one, or a session start, loads the domain and starts git).
import { ancestors, isKnownSession, parentOf } from '../handoff/state/lineage-record';
import { short } from '../handoff/state/session';
import type { GuardContext } from './context';
import type { GuardClient } from '../clients/event';
import { ALL_RECORDS, RECORDS } from '../clients/records';
import { guardLog, headBranch, type Location } from './locate';
import { readTextOr } from '../read-file';

/**
 * The client process a hook runs for, named by its record's pidVariable: only a claim, counted when that process is an
 * ancestor of this one (from /proc), so a hand-made payload cannot borrow another session's process.
 */
export function clientPid(client: GuardClient | null, env: NodeJS.ProcessEnv): number | null {
  // null: any client's (a command run in its shell)
  for (const r of client ? [RECORDS[client]] : ALL_RECORDS) {
    const pid = r.pidVariable ? Number(env[r.pidVariable]) : NaN;
    if (Number.isInteger(pid) && pid > 1 && isAncestor(pid)) return pid;
  }
  return null;
}

/**
 * The pid of the client process this hook runs for: the one its hooks' variable names (clientPid), else the nearest
 * ancestor that is the client (ClientRecord.isProcess); null when it cannot be told.
 */
export function clientProcess(client: GuardClient, env: NodeJS.ProcessEnv): number | null {
  const r = RECORDS[client];
  if (r.pidVariable) return clientPid(client, env);
  if (!r.isProcess) return null;
  for (const { pid, argv } of ancestors()) {
    const comm = readTextOr(`/proc/${pid}/comm`);
    if (comm === null) return null;
    if (r.isProcess(argv, comm.trim())) return pid;
  }
  return null;
}

/** Whether `pid` is this process's parent, grandparent, …: each step read from /proc/<p>/stat (field 4, the ppid). */
function isAncestor(pid: number): boolean {
  let p: number | null = process.ppid;
  for (let depth = 0; depth < 64 && p !== null && p > 1; depth++) {
    if (p === pid) return true;
    p = parentOf(p);
  }
  return false;
}

/**
 * Notes this session on first sight, inheriting from its predecessor in the same process when it is one;
 * returns a line for the agent's context when something was inherited. `source`: SessionStart's, or `tool`.
 */
export async function followLineage(ctx: GuardContext, loc: Location, source: string): Promise<string | null> {
  const session = ctx.session;
  // A subagent acts under its parent's id: it neither starts a lineage nor inherits.
  if (!session || ctx.event.agentId) return null;
  const pid = clientPid(ctx.event.client, ctx.env);
  if (source === 'tool' && (pid === null || isKnownSession(loc.commonDir, session))) return null;
  if (await ctx.guardOff(loc)) return null;
  const { noteArrival } = await import('../handoff/store/lineage');
  const r = noteArrival(await ctx.repo(loc), {
    session: { id: session, client: ctx.event.client, source: 'payload' },
    worktree: loc.worktree,
    branch: headBranch(loc),
    pid,
    source: source || 'startup',
    config: await ctx.config(loc),
  });
  const inh = r.inherited;
  if (!inh) return null;
  const topics = inh.refs.map((ref) => ref.slice(ref.lastIndexOf('/') + 1));
  const what = [
    topics.length ? `its handoff${topics.length > 1 ? 's' : ''} ${topics.join(', ')} (taken over on the record: Handoff-Reason lineage (${source}))` : null,
    inh.lease ? 'the worktree lease' : null,
    inh.paths.length ? `its claim on ${inh.paths.length} written path${inh.paths.length > 1 ? 's' : ''}` : null,
  ].filter(Boolean);
  return (
    `git-handoff: you are session ${session}, continuing session ${short(inh.from, [session])} in the same client process (${source === 'tool' ? 'a new session id' : source}). ` +
    (what.length ? `Now yours: ${what.join('; ')}.` : 'It owned nothing here to carry over.')
  );
}

/** At a session's first sight, the handoff refs against the loss record (stat calls only while the refs are as last checked). */
export async function lossesAtFirstSight(ctx: GuardContext, loc: Location): Promise<string | null> {
  if (ctx.env.GIT_HANDOFF_RECORD_CHECK === '0') return null;
  const { checkRecord, renderLosses, unchangedSinceCheck } = await import('../handoff/record/record-check');
  if (unchangedSinceCheck(loc.commonDir) || (await ctx.guardOff(loc))) return null;
  try {
    const text = renderLosses(checkRecord(await ctx.repo(loc))).trimEnd();
    return text ? `${text}\n(found at this session's first tool call: these were changed outside git-handoff, with no guard or git hook to refuse it)` : null;
  } catch (e) {
    // the record is a second line of defence: it never fails a tool call
    guardLog(loc, `the loss record's check failed: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}
