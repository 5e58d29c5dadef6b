// `git handoff guard`: one JSON payload on stdin, one decision out in the client's shape (SPEC 6). It never
// bricks a session: bad input, an internal error or a hang allows, exits 0 and leaves a line in guard.log.
import { read } from 'node:fs';
import { answeredNatively, detectClient, namedClient } from '../clients/index';
import { GuardContext, type Seen } from './context';
import { judge } from './decider';
import type { Verdict } from './claims';
import type { ClientAdapter, Decision, GuardEvent } from '../clients/event';
import { errorLine, failClosed, namesProtected } from './fail-closed';
import { noteDenied, parsePayload, payloadProblems } from './first';
import { trace } from '../trace';
import { MAX_PAYLOAD, payloadOf, stdinState, take, writeAnswer, type StdinState } from './io';
import { isKnownSession } from '../handoff/state/lineage-record';
import { clientPid, followLineage, lossesAtFirstSight } from './lineage';
import { guardLog, locate } from './locate';
import { deferToPlugin } from '../clients/plugin-active';
import * as lifecycle from './lifecycle';
import { stripTerminalControls } from '../terminal-text';
import { AGAIN, NOT_READY, retryingAsync } from '../retry';

/** The guard's budget: past it, a call naming protected things is denied and any other allowed. */
export const WATCHDOG_MS = Number(process.env.GIT_HANDOFF_GUARD_BUDGET_MS) > 0 ? Number(process.env.GIT_HANDOFF_GUARD_BUDGET_MS) : 15_000;

/** Goes on reading fd 0 with fs.read (no stream machinery to load) where the synchronous first read had to stop. */
function readStdin(s: StdinState, limit: number): Promise<Buffer | null> {
  const buf = Buffer.allocUnsafe(1 << 16);
  return retryingAsync(async (wait) => {
    if (s.done) return payloadOf(s, limit);
    const r = await new Promise<{ err: NodeJS.ErrnoException | null; n: number }>((resolve) => read(0, buf, 0, buf.length, null, (err, n) => resolve({ err, n })));
    // a non-blocking fd 0 with nothing yet: read again after a wait (a timer: the watchdog still fires)
    if (r.err?.code === 'EAGAIN') wait(NOT_READY);
    else if (r.err) s.done = true;
    else take(s, buf, r.n, limit);
    return AGAIN;
  });
}

/** One event's answer: a tool call judged by the decider (decider.ts), its effects applied once the verdict stands. */
export async function decide(ctx: GuardContext): Promise<Decision> {
  // another user's repository (git's safe.directory rule): git refuses to work there, and the guard stays out
  if (ctx.untrusted()) return {};
  // after a tool, at session start and end, at stop and before compaction: src/guard/lifecycle.ts
  if (ctx.event.kind !== 'pre-tool') return (await lifecycle.AT_EVENT[ctx.event.kind]?.(ctx)) ?? {};
  // A session id seen for the first time may continue an earlier one of the same process (after /clear).
  const loc = ctx.session ? ctx.locate() : null;
  // its first sight (one stat) also checks the handoff refs against the loss record
  const lost = loc && !ctx.event.agentId && !isKnownSession(loc.commonDir, ctx.session!) ? await lossesAtFirstSight(ctx, loc) : null;
  const note = loc && clientPid(ctx.event.client, ctx.env) !== null ? await followLineage(ctx, loc, 'tool') : null;
  let verdict: Verdict;
  try {
    verdict = await judge(ctx, loc);
  } catch (e) {
    // a rule that failed on a call naming protected things denies; on any other call it allows (and logs)
    if (!namesProtected(ctx.event.action)) throw e;
    guardLog(ctx.locate(), `internal error: ${errorLine(e)}; denied (the call names protected things)`);
    return failClosed(`it failed: ${errorLine(e)}`);
  }
  await lifecycle.applyEffects(ctx, verdict.effects);
  const d = verdict.decision;
  if (d.deny !== undefined || d.updatedInput || d.context) {
    const at = loc ?? ctx.locate();
    if (at && (await ctx.guardOff(at))) return lifecycle.guardOffOnce(ctx, at);
  }
  // what an allowed call names is recorded before it runs (PreToolUse is the one process a tool call pays)
  const warning = d.deny === undefined ? await lifecycle.beforeTool(ctx, loc, lost) : null;
  // the warning is said to the person too
  return withContext(warning ? { ...withContext(d, warning), notice: warning } : d, d.deny === undefined ? note : [note, lost].filter(Boolean).join('\n') || null);
}

/** A decision with no terminal control in anything it says (the one place every answer passes). */
function neutralised(d: Decision): Decision {
  const out = { ...d };
  for (const k of ['deny', 'context', 'notice', 'followUp'] as const) if (typeof out[k] === 'string') out[k] = stripTerminalControls(out[k]!);
  return out;
}

/** Adds a line to what the agent is told (to the reason of a refusal, else to its context). */
function withContext(d: Decision, note: string | null): Decision {
  if (!note) return d;
  if (d.deny !== undefined) return { ...d, deny: `${d.deny}\n\n${note}` };
  return { ...d, context: d.context ? `${note}\n${d.context}` : note };
}

/** Under GIT_HANDOFF_BYPASS=1 a refusal or rewrite becomes an allow, written to the audit trail. */
async function bypass(ctx: GuardContext, d: Decision): Promise<Decision> {
  if (d.deny === undefined && !d.updatedInput) return d;
  const loc = ctx.locate();
  const e: GuardEvent = ctx.event;
  const record = {
    by: 'guard',
    bypass: true,
    client: e.client,
    session: ctx.session,
    event: e.name,
    tool: e.tool,
    action: e.action.type === 'shell' ? e.action.command.slice(0, 2000) : 'path' in e.action ? e.action.path : e.action.type,
    would: d.deny !== undefined ? 'deny' : 'rewrite',
    reason: (d.deny ?? d.context ?? '').slice(0, 2000),
    cwd: e.cwd,
  };
  if (loc) (await import('../handoff/state/audit')).appendAudit(loc.commonDir, record);
  else guardLog(null, `bypass ${JSON.stringify(record)}`);
  return {};
}

/** The payload read whole and parsed by the client's adapter; null (logged) for bad input, which is allowed. */
async function readPayload(stdin: StdinState, at: (cwd: string) => void): Promise<{ adapter: ClientAdapter; event: GuardEvent } | null> {
  let where = process.cwd();
  const raw = await readStdin(stdin, MAX_PAYLOAD);
  if (raw === null) {
    guardLog(locate(where), `bad input: payload larger than ${MAX_PAYLOAD} bytes; allowed`);
    return null;
  }
  const p = parsePayload(raw.toString('utf8'));
  if (typeof p === 'string') {
    guardLog(locate(where), `bad input: ${p}; allowed`);
    return null;
  }
  if (typeof p.cwd === 'string' && p.cwd) at((where = p.cwd));
  const problems = payloadProblems(p);
  if (problems.length) guardLog(locate(where), `bad input: ${problems.join('; ')}; checked what could be read`);
  const adapter = detectClient(p, namedClient(process.argv));
  return { adapter, event: adapter.parse(p) };
}

/** The full guard, going on from what dist/guard.cjs read (`stdin`) and the first look parsed and located (`seen`). */
export async function runGuard(stdin: StdinState = stdinState(), seen?: Seen): Promise<number> {
  let where = seen?.event.cwd || process.cwd();
  let parsed: { adapter: ClientAdapter; event: GuardEvent } | null = null;
  // the exit status of the answer given (a client that reads a refusal from it: src/clients/answer.ts)
  let status = 0;
  /** Denies a pre-tool call that names protected things (printed in the client's shape); true when it did. */
  const closed = (why: string): boolean => {
    if (!parsed || parsed.event.kind !== 'pre-tool' || !namesProtected(parsed.event.action)) return false;
    const out = parsed.adapter.render(parsed.event, failClosed(why));
    if (out) status = writeAnswer(out);
    return true;
  };
  const watchdog = setTimeout(() => {
    const denied = closed(`no decision within ${WATCHDOG_MS} ms`);
    guardLog(locate(where), `timeout: no decision in time; ${denied ? 'denied' : 'allowed'}`);
    process.exit(status);
  }, WATCHDOG_MS);
  watchdog.unref();
  try {
    const read = seen ? { adapter: seen.adapter, event: seen.event } : await readPayload(stdin, (cwd) => (where = cwd));
    if (!read) return 0;
    const { adapter, event } = read;
    // A project hook beside the git-handoff plugin or extension: that hook answers this event (never twice).
    if (deferToPlugin(process.argv, event.client, event.cwd)) return 0;
    // a client that runs another client's wiring beside its own native hooks is answered by those
    if (answeredNatively(event)) return 0;
    parsed = { adapter, event };
    const ctx = new GuardContext(event);
    if (seen) ctx.seed(seen);
    trace('full guard ready');
    let decision = neutralised(await decide(ctx));
    if (process.env.GIT_HANDOFF_BYPASS === '1') decision = await bypass(ctx, decision);
    // kept for the person who looks later (status, web)
    if (decision.deny !== undefined) noteDenied(ctx.locate()?.commonDir, event, decision.deny);
    trace('decided', decision.deny !== undefined ? 'deny' : 'allow');
    const out = adapter.render(event, decision);
    if (out) status = writeAnswer(out);
    trace('answered');
  } catch (e) {
    const denied = closed(`it failed: ${errorLine(e)}`);
    guardLog(locate(where), `internal error: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join('\n') : String(e)}; ${denied ? 'denied' : 'allowed'}`);
  } finally {
    clearTimeout(watchdog);
  }
  return status;
}
