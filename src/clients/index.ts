// Tells the client apart (SPEC 6): by the `--client=<id>` the wiring states, else by its payload; hands back its adapter.
import { namesOnlyReading, payloadTool, str, unknownPayloadAction, type ClientAdapter, type GuardClient, type GuardEvent } from './event';
import { ALL_RECORDS, READ_ONLY_TOOLS, RECORDS } from './records';
import { clientName, type ClientName } from './names';
import { copilotAnswersNatively } from './copilot';

/** Whether git-handoff's native wiring of the event's client answers a call that came through the Claude Code wiring. */
export const answeredNatively = (e: GuardEvent): boolean => copilotAnswersNatively(e);

const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'AfterAgent', 'BeforeAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress', 'Notification']);
const GEMINI_TOOLS = new Set(['write_file', 'replace', 'run_shell_command', 'read_file', 'glob', 'search_file_content', 'list_directory']);


/** The client the wiring names after `guard` (`--client=codex`, `--client codex`), or null: a launcher's path cannot count. */
export function namedClient(argv: readonly string[] = process.argv): GuardClient | null {
  const at = argv.indexOf('guard');
  const args = at < 0 ? [] : argv.slice(at + 1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].startsWith('--client=') ? args[i].slice('--client='.length) : args[i] === '--client' ? args[i + 1] : undefined;
    if (v !== undefined) return clientName(v);
  }
  return null;
}

/** The adapter for a payload: the client the wiring names, else the payload's shape; one answering nothing where another wiring answers. */
export function detectClient(p: Record<string, unknown>, named: GuardClient | null = namedClient()): ClientAdapter {
  const adapter = adapterFor(p, named);
  return answeredElsewhere(adapter, named, p) ? standingAside(adapter) : readsUnknownShapes(adapter);
}

/** Every client's rides on another's wiring (ClientRecord.rides), in the records' order. */
const RIDES = ALL_RECORDS.flatMap((r) => (r.rides ?? []).map((ride) => ({ ...ride, client: r.name, adapter: ride.adapter ?? r.adapter })));

/** One wiring, many readers: a payload another client sent through the wiring `named` (none: Claude Code's) is read as that client's. */
function adapterFor(p: Record<string, unknown>, named: GuardClient | null): ClientAdapter {
  return RIDES.find((r) => r.wiring === (named ?? 'claude-code') && r.payload(p))?.adapter ?? RECORDS[named ?? shapeOf(p)].adapter;
}

/** The client of a payload no wiring names, by its shape. */
function shapeOf(p: Record<string, unknown>): ClientName {
  // Qwen Code gives its hooks its session id (a Gemini CLI fork: its payloads could pass for Gemini's)
  if (typeof p.session_id === 'string' && process.env.QWEN_CODE_SESSION_ID === p.session_id) return 'qwen-code';
  const name = str(p.hook_event_name) ?? '';
  // Copilot CLI's native payloads name no event and are camelCase throughout
  if (p.hook_event_name === undefined && typeof p.sessionId === 'string') return 'copilot';
  if (/^[a-z]/.test(name) && p.workspace_roots !== undefined) return 'cursor';
  if (GEMINI_EVENTS.has(name) || GEMINI_TOOLS.has(str(p.tool_name) ?? '') || (p.timestamp !== undefined && p.turn_id === undefined && (name === 'SessionStart' || name === 'SessionEnd'))) {
    return 'gemini-cli';
  }
  // Codex's SessionStart has no turn_id; its transcript is always a rollout-*.jsonl (observed with 0.169.0).
  if (p.turn_id !== undefined || str(p.tool_name) === 'apply_patch' || /(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(str(p.transcript_path) ?? '')) return 'codex';
  return 'claude-code';
}

/** Whether another of git-handoff's wirings answers this call for its client (one answer a call): then this run answers nothing. */
function answeredElsewhere(adapter: ClientAdapter, named: GuardClient | null, p: Record<string, unknown>): boolean {
  const ride = RIDES.find((r) => r.wiring === (named ?? 'claude-code') && r.client === adapter.client && r.answeredElsewhere);
  if (!ride) return false;
  let e: GuardEvent;
  try {
    e = adapter.parse(p);
  } catch {
    return false;
  }
  return ride.answeredElsewhere!(e);
}

/** An adapter that answers nothing: every event read as one the guard does not handle, with no session and no tool. */
function standingAside({ client }: ClientAdapter): ClientAdapter {
  return {
    client,
    parse: (p) => ({ client, kind: 'other', name: String(p.hook_event_name ?? ''), session: null, agentId: null, cwd: typeof p.cwd === 'string' ? p.cwd : process.cwd(), tool: null, action: { type: 'other' }, toolInput: {}, source: null, stopHookActive: false }),
    render: () => null,
  };
}

/**
 * An adapter whose parse lets no unknown shape through silently (SPEC 6): an event or tool input it cannot read that
 * names a command or a path is a stranger's call judged on those (a throw too); one naming a tool that may write, with
 * nothing to read, is refused. A client's read-only tool, or one whose name says it only reads, is a read.
 */
export function readsUnknownShapes(adapter: ClientAdapter): ClientAdapter {
  return { client: adapter.client, render: adapter.render, parse: (p) => seenAs(adapter, judgedEvent(adapter, p)) };
}

/** Why a payload that may carry a tool call, but none the guard can read, is refused. */
const UNREADABLE = "the call came in a shape git-handoff cannot read (its event, its fields or its tool's arguments), so it cannot tell what the call would change";

function judgedEvent(adapter: ClientAdapter, p: Record<string, unknown>): GuardEvent {
  const cwd = typeof p.cwd === 'string' ? p.cwd : process.cwd();
  let event: GuardEvent;
  try {
    event = adapter.parse(p);
  } catch (e) {
    const found = unknownPayloadAction(p, cwd);
    if (!found) throw e;
    return { client: adapter.client, kind: 'pre-tool', name: String(p.hook_event_name ?? p.hookEventName ?? p.hookName ?? ''), session: null, agentId: null, cwd, tool: found.tool, action: found.action, toolInput: found.input, source: null, stopHookActive: false };
  }
  const unread = event.kind === 'other' || (event.kind === 'pre-tool' && event.action.type === 'other' && Object.keys(event.toolInput).length === 0);
  if (!unread) return event;
  // a payload its client's reader does not know names no session the guard can trust: a stranger's call (SPEC 6)
  const stranger = { ...event, kind: 'pre-tool' as const, session: null, agentId: null };
  const found = unknownPayloadAction(p, event.cwd);
  if (found) return { ...stranger, tool: event.tool ?? found.tool, action: found.action, toolInput: found.input };
  // an event it does not know that names a tool which may write, with nothing read out of it: refused, never allowed unseen
  const tool = event.kind === 'other' ? (event.tool ?? payloadTool(p)) : null;
  if (tool === null || READ_ONLY_TOOLS.has(tool) || namesOnlyReading(tool)) return event;
  return { ...stranger, tool, action: { type: 'paths', paths: [], over: UNREADABLE }, toolInput: {} };
}

/** A before-tool event as the rules see it: a read-only tool's call a read; a shell whose stdin stays open marked so. */
function seenAs(adapter: ClientAdapter, e: GuardEvent): GuardEvent {
  if (e.kind !== 'pre-tool' || e.tool === null) return e;
  const a = e.action;
  if (READ_ONLY_TOOLS.has(e.tool)) return { ...e, action: { type: 'other' } };
  // an unknown tool that names what it reads and runs nothing: an MCP server's read_file, directory_tree, get_file_info
  if (a.type === 'paths' && !a.commands?.length && !a.over && namesOnlyReading(e.tool)) return { ...e, action: { type: 'other' } };
  if (a.type === 'shell' && RECORDS[adapter.client].stdinUnseen) return { ...e, action: { ...a, stdinUnseen: true } };
  return e;
}
