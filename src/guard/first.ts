// The guard's first look (dist/first.cjs): parse the payload and answer a call that cannot concern handoffs, or that
// the rules reading the call alone decide (this session's own handoff file, one plain git command moving a protected
// ref), without loading the rest of the guard or starting git. Anything else goes to the full guard with what it
// parsed and located (Seen); state is written after the verdict, by src/fast-guard.ts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { absent, recordIntents } from '../handoff/state/ledger';
import { isKnownSession } from '../handoff/state/lineage-record';
import { sessionStateFile } from '../handoff/state/notes';
import { readTextOr } from '../read-file';
import { claimsMarker } from '../handoff/state/claims-marker';
import { SESSION_RE } from '../handoff/state/session';
import { answeredNatively, detectClient, namedClient } from '../clients/index';
import { firstParse, surelyHarmless } from './allow';
import { setting } from '../config-keys';
import { configKey, locate, readConfigCache, type Location } from './locate';
import { noteRefusal } from '../handoff/state/refusals';
import { PROBE_COMMAND, PROBE_SESSION } from '../clients/record';
import { deferToPlugin } from '../clients/plugin-active';
import { plainRefMove } from './rules/refs';
import type { Seen } from './context';
import type { GuardEvent } from '../clients/event';
import { surelyOwnFiles, type FileOp } from './rules/files';
import { fileOps } from './effect';

const TYPES: Record<string, string> = { hook_event_name: 'string', session_id: 'string', conversation_id: 'string', cwd: 'string', tool_name: 'string', tool_input: 'object' };

/** Fields of the wrong type or shape: logged, never fatal (the adapters read what they can). */
export function payloadProblems(p: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, t] of Object.entries(TYPES)) {
    const v = p[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== t || (t === 'object' && Array.isArray(v))) out.push(`${k} is ${Array.isArray(v) ? 'an array' : typeof v}, not ${t === 'object' ? 'an object' : 'a string'}`);
  }
  // some clients' payloads name no event (their adapter tells it by the fields there are) or name it hookName
  if (typeof p.hook_event_name !== 'string' && typeof p.sessionId !== 'string' && typeof p.hookName !== 'string') out.push('no hook_event_name');
  const session = p.session_id ?? p.conversation_id ?? p.sessionId;
  if (typeof session === 'string' && !SESSION_RE.test(session)) out.push(`session id ${JSON.stringify(session.slice(0, 40))} is not valid`);
  const input = p.tool_input;
  if (input && typeof input === 'object' && 'command' in input && typeof (input as { command: unknown }).command !== 'string') out.push('tool_input.command is not a string');
  return out;
}

/** The payload as an object, or why it is none (not JSON, not an object). */
export function parsePayload(text: string): Record<string, unknown> | string {
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch (e) {
    return `not JSON (${(e as Error).message})`;
  }
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : `payload is ${Array.isArray(p) ? 'an array' : typeof p}, not an object`;
}

/**
 * What the first look decided: `answer` for the client (null: nothing; absent: the full guard looks, with `seen`), `use`
 * the full guard's code cache (src/load.ts), `tag` the way it went, `after` what the answer leaves, written once given.
 */
export interface Look {
  answer?: string | null;
  use: string;
  tag: string;
  seen?: Seen;
  after?: () => void;
}

const BAD: Look = { use: 'guard-bad', tag: 'bad' };

/** The first look at a payload (see the top of this file). */
export function firstLook(text: string, argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): Look {
  const payload = parsePayload(text);
  // the full guard logs what is wrong with it
  if (typeof payload === 'string' || payloadProblems(payload).length) return BAD;
  const adapter = detectClient(payload, namedClient(argv));
  const event = adapter.parse(payload);
  // a client that runs another client's wiring beside its own native hooks is answered by those
  if (answeredNatively(event)) return { answer: null, use: 'guard', tag: 'native' };
  const seen: Seen = { adapter, event };
  const full: Look = { use: `guard-${event.kind}-${event.action.type}`, tag: 'full', seen };
  if (event.kind !== 'pre-tool') return event.kind === 'other' ? { answer: adapter.render(event, {}), use: 'guard', tag: 'harmless' } : full;
  const action = event.action;
  const cwd = action.type === 'shell' ? (action.cwd ?? event.cwd) : event.cwd;
  if (action.type === 'shell') seen.cmds = firstParse(action.command, cwd);
  const session = event.session && SESSION_RE.test(event.session) ? event.session : null;
  const files = fileOps(action, event.cwd);
  const tag = surelyHarmless(action, seen.cmds) ? 'harmless' : session && surelyOwnFiles(files, session) ? 'own' : null;
  if (tag) {
    const intents = bookkeeping(seen, session, files);
    return intents ? { answer: adapter.render(event, {}), use: 'guard', tag, after: () => intents.forEach(([l, rel, created]) => recordIntents(l.commonDir, session!, l.worktree, [rel], created ? [rel] : [])) } : full;
  }
  const refused = action.type === 'shell' && seen.cmds && session ? plainRefMove(seen.cmds, action.command, cwd) : null;
  if (refused === null || !alone(seen, session!, argv, env)) return full;
  return { answer: adapter.render(event, refused), use: 'guard', tag: 'refused', after: () => noteDenied(seen.loc?.commonDir, event, refused.deny!) };
}

/** The repository of the event's cwd, looked for once per run. */
const located = (seen: Seen): Location | null => (seen.loc === undefined ? (seen.loc = locate(seen.event.cwd)) : seen.loc);

/** How often the full guard refreshes a session's lease. */
export const LEASE_EVERY_MS = 60_000;

/**
 * The ledger's intents a call this file answers leaves (each file's repository, its path there, whether the call
 * creates it); null where the full guard records: a first sight, a lease refresh due, a live claim (SPEC 10).
 */
function bookkeeping(seen: Seen, session: string | null, files: FileOp[]): Array<[Location, string, boolean]> | null {
  const loc = session ? located(seen) : null;
  if (!session || !loc) return [];
  if (seen.event.agentId || !isKnownSession(loc.commonDir, session)) return null;
  // no beat file reads as 0: a refresh due
  if (!(Date.now() - Number(readTextOr(sessionStateFile(loc.commonDir, session, 'beat'))) < LEASE_EVERY_MS)) return null;
  if (files.length && existsSync(claimsMarker(loc.commonDir))) return null;
  const intents: Array<[Location, string, boolean]> = [];
  for (const { abs } of files) {
    const dir = path.dirname(abs);
    const l = dir === path.resolve(seen.event.cwd) ? loc : locate(dir);
    if (!l) return null;
    intents.push([l, path.relative(l.worktree, abs).split(path.sep).join('/'), absent(abs)]);
  }
  return intents;
}

/** Whether the rules' verdict is the whole answer: a known session, no subagent, the guard on by the cache, no bypass, no plugin beside. */
function alone(seen: Seen, session: string, argv: string[], env: NodeJS.ProcessEnv): boolean {
  if (env.GIT_HANDOFF_BYPASS === '1' || seen.event.agentId) return false;
  const loc = located(seen);
  if (!loc || !isKnownSession(loc.commonDir, session) || deferToPlugin(argv, seen.event.client, seen.event.cwd)) return false;
  const config = (seen.config = readConfigCache(loc, configKey(loc, env), env));
  return !!config && setting(config, 'guard');
}

/** Keeps a refused tool call in the refusals record (src/handoff/state/refusals.ts) for `status` and `web`; nothing outside a repository. */
export function noteDenied(commonDir: string | undefined, event: GuardEvent, reason: string): void {
  if (!commonDir || event.kind !== 'pre-tool') return;
  const a = event.action;
  // doctor's probes (each client's shape, some with no session field) are the product's own, for no person to act on
  if (event.session === PROBE_SESSION || (a.type === 'shell' && a.command === PROBE_COMMAND)) return;
  const what = a.type === 'shell' ? a.command : 'path' in a ? `${event.tool ?? a.type} ${a.path}` : `${event.tool ?? a.type}`;
  noteRefusal(commonDir, { by: 'guard', session: event.session, client: event.client, what, why: reason });
}
