// `git handoff guard`: one JSON payload on stdin, one decision out in the client's shape (SPEC 6). It never
// bricks a session: bad input, an internal error or a hang allows, exits 0 and leaves a line in guard.log.
import { read } from 'node:fs';
import { detectClient } from './clients/index';
import { GuardContext } from './context';
import { mayConcernHandoffs, type Decision, type GuardEvent } from './event';
import { MAX_PAYLOAD, payloadOf, payloadProblems, stdinState, take, type StdinState } from './first';
import { clientPid, followLineage } from './lineage';
import { guardLog, locate } from './locate';

export { payloadProblems };

const WATCHDOG_MS = 15_000;

/** Goes on reading fd 0 with fs.read (no stream machinery to load) where the synchronous first read had to stop. */
function readStdin(s: StdinState, limit: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const buf = Buffer.allocUnsafe(1 << 16);
    const step = (): void => {
      if (s.done) return resolve(payloadOf(s, limit));
      read(0, buf, 0, buf.length, null, (err, n) => {
        if (err) {
          if (err.code === 'EAGAIN') return void setTimeout(step, 2);
          s.done = true;
        } else take(s, buf, n, limit);
        step();
      });
    };
    step();
  });
}

export async function decide(ctx: GuardContext): Promise<Decision> {
  switch (ctx.event.kind) {
    case 'pre-tool': {
      // A session id seen for the first time may continue an earlier one of the same process (after /clear).
      const loc = ctx.session && clientPid(ctx.event.client, ctx.env) !== null ? ctx.locate() : null;
      const note = loc ? await followLineage(ctx, loc, 'tool') : null;
      if (!mayConcernHandoffs(ctx.event.action)) return withContext({}, note);
      const d = await (await import('./rules/pre-tool')).preTool(ctx);
      if (d.deny === undefined && !d.updatedInput && !d.context) return withContext(d, note);
      const at = loc ?? ctx.locate();
      if (at && (await ctx.guardOff(at))) return (await import('./lifecycle')).guardOffOnce(ctx, at);
      return withContext(d, note);
    }
    case 'post-tool':
      return (await import('./lifecycle')).postTool(ctx);
    case 'session-start':
      return (await import('./lifecycle')).sessionStart(ctx);
    case 'stop':
      return (await import('./lifecycle')).stop(ctx);
    case 'pre-compact':
      return (await import('./lifecycle')).preCompact(ctx);
    default:
      return {};
  }
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
  if (loc) (await import('../handoff/audit')).appendAudit(loc.commonDir, record);
  else guardLog(null, `bypass ${JSON.stringify(record)}`);
  return {};
}

/**
 * The full guard. `stdin` is what dist/guard.cjs already read (it answers the calls no rule applies to itself and
 * hands everything else here); without it, stdin is read from the start.
 */
export async function runGuard(stdin: StdinState = stdinState()): Promise<number> {
  const watchdog = setTimeout(() => {
    guardLog(locate(process.cwd()), 'timeout: no decision in time; allowed');
    process.exit(0);
  }, WATCHDOG_MS);
  watchdog.unref();
  let where = process.cwd();
  try {
    const raw = await readStdin(stdin, MAX_PAYLOAD);
    if (raw === null) {
      guardLog(locate(where), `bad input: payload larger than ${MAX_PAYLOAD} bytes; allowed`);
      return 0;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      guardLog(locate(where), `bad input: not JSON (${(e as Error).message}); allowed`);
      return 0;
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      guardLog(locate(where), `bad input: payload is ${Array.isArray(payload) ? 'an array' : typeof payload}, not an object; allowed`);
      return 0;
    }
    const p = payload as Record<string, unknown>;
    if (typeof p.cwd === 'string' && p.cwd) where = p.cwd;
    const problems = payloadProblems(p);
    if (problems.length) guardLog(locate(where), `bad input: ${problems.join('; ')}; checked what could be read`);
    const adapter = detectClient(p);
    const event = adapter.parse(p);
    const ctx = new GuardContext(event);
    let decision = await decide(ctx);
    if (process.env.GIT_HANDOFF_BYPASS === '1') decision = await bypass(ctx, decision);
    const out = adapter.render(event, decision);
    if (out) process.stdout.write(out + '\n');
  } catch (e) {
    guardLog(locate(where), `internal error: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join('\n') : String(e)}; allowed`);
  } finally {
    clearTimeout(watchdog);
  }
  return 0;
}
