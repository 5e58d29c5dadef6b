// Tells the client apart (SPEC 6): by the `--client=<id>` the wiring states, else by its payload; hands back its adapter.
import { namesOnlyReading, payloadTool, str, unknownPayloadAction, type ClientAdapter, type GuardClient, type GuardEvent } from './event';
import { READ_ONLY_TOOLS, RECORDS } from './records';
import { claude } from './claude';
import { clientName } from './names';
import { codex } from './codex';
import { copilot, copilotAnswersNatively, copilotClaude, isCopilotClaudePayload } from './copilot';
import { qwen } from './qwen';
import { cursor, cursorAnswersNatively, isCursorPayload } from './cursor';
import { devin, devinAnswersNatively, isDevinPayload } from './devin';
import { gemini } from './gemini';
import { claudeWired, isVSCodePayload, vscode } from './vscode';

/** Whether git-handoff's native wiring of the event's client answers a call that came through the Claude Code wiring. */
export const answeredNatively = (e: GuardEvent): boolean => copilotAnswersNatively(e);

const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'AfterAgent', 'BeforeAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress', 'Notification']);
const GEMINI_TOOLS = new Set(['write_file', 'replace', 'run_shell_command', 'read_file', 'glob', 'search_file_content', 'list_directory']);


/**
 * The client the wiring names after `guard` (`git-handoff guard --client=codex`, or `--client codex`), or null when
 * none or an unknown one is named. Only the arguments after `guard` are read, so a launcher's own path cannot count.
 */
export function namedClient(argv: readonly string[] = process.argv): GuardClient | null {
  const at = argv.indexOf('guard');
  const args = at < 0 ? [] : argv.slice(at + 1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].startsWith('--client=') ? args[i].slice('--client='.length) : args[i] === '--client' ? args[i + 1] : undefined;
    if (v !== undefined) return clientName(v);
  }
  return null;
}

/**
 * The adapter for a payload: the client the wiring names (it cannot be mistaken), else the payload's shape. Its
 * parse reads an unknown shape too (judged): see readsUnknownShapes. A call that another wiring of git-handoff's
 * answers for its client gets an adapter that answers nothing (standingAside).
 */
export function detectClient(p: Record<string, unknown>, named: GuardClient | null = namedClient()): ClientAdapter {
  const adapter = adapterOf(p, named);
  return answeredElsewhere(adapter, named, p) ? standingAside(adapter) : readsUnknownShapes(adapter);
}

function adapterOf(p: Record<string, unknown>, named: GuardClient | null): ClientAdapter {
  // One wiring, many readers: Copilot CLI, VS Code's agent, Cursor (with its third-party configs setting) and Devin CLI
  // run Claude Code's wiring too, each sending its own payload, answered in its own protocol
  if (named === null || named === 'claude-code') {
    // Copilot's: its session, its argument names
    if (isCopilotClaudePayload(p)) return copilotClaude;
    if (isVSCodePayload(p)) return vscode;
    if (isCursorPayload(p)) return cursor;
    if (isDevinPayload(p)) return devin;
  }
  // VS Code's agent runs Copilot's hooks files too (`.github/hooks`)
  if (named === 'copilot' && isVSCodePayload(p)) return vscode;
  if (named) return RECORDS[named].adapter;
  // Qwen Code gives its hooks its session id (a Gemini CLI fork: its payloads could pass for Gemini's)
  if (typeof p.session_id === 'string' && process.env.QWEN_CODE_SESSION_ID === p.session_id) return qwen;
  const name = str(p.hook_event_name) ?? '';
  // Copilot CLI's native payloads name no event and are camelCase throughout
  if (p.hook_event_name === undefined && typeof p.sessionId === 'string') return copilot;
  if (/^[a-z]/.test(name) && p.workspace_roots !== undefined) return cursor;
  if (GEMINI_EVENTS.has(name) || GEMINI_TOOLS.has(str(p.tool_name) ?? '') || (p.timestamp !== undefined && p.turn_id === undefined && (name === 'SessionStart' || name === 'SessionEnd'))) {
    return gemini;
  }
  // Codex's SessionStart has no turn_id; its transcript is always a rollout-*.jsonl (observed with 0.169.0).
  if (p.turn_id !== undefined || str(p.tool_name) === 'apply_patch' || /(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(str(p.transcript_path) ?? '')) return codex;
  return claude;
}

/**
 * Whether another of git-handoff's wirings answers this call for its client, so this run answers nothing (one answer
 * a call): Cursor's and Devin CLI's own wirings, where they are, for their calls through Claude Code's; Claude Code's
 * wiring, where it is, for VS Code's calls through Copilot's hooks file. (Copilot CLI's calls through Claude Code's
 * wiring: src/clients/copilot.ts copilotAnswersNatively.)
 */
function answeredElsewhere(adapter: ClientAdapter, named: GuardClient | null, p: Record<string, unknown>): boolean {
  const viaClaude = named === null || named === 'claude-code';
  if (!(viaClaude && (adapter === cursor || adapter === devin)) && !(named === 'copilot' && adapter === vscode)) return false;
  let e: GuardEvent;
  try {
    e = adapter.parse(p);
  } catch {
    return false;
  }
  if (adapter === cursor) return cursorAnswersNatively(e);
  if (adapter === devin) return devinAnswersNatively(e);
  return claudeWired(e.cwd);
}

const ASIDE = new Map<ClientAdapter, ClientAdapter>();

/** An adapter that answers nothing: every event read as one the guard does not handle, with no session and no tool. */
function standingAside(adapter: ClientAdapter): ClientAdapter {
  let out = ASIDE.get(adapter);
  if (!out) {
    const client = adapter.client;
    out = {
      client,
      parse: (p) => ({ client, kind: 'other', name: String(p.hook_event_name ?? ''), session: null, agentId: null, cwd: typeof p.cwd === 'string' ? p.cwd : process.cwd(), tool: null, action: { type: 'other' }, toolInput: {}, source: null, stopHookActive: false }),
      render: () => null,
    };
    ASIDE.set(adapter, out);
  }
  return out;
}

const JUDGING = new Map<ClientAdapter, ClientAdapter>();

/**
 * An adapter whose parse lets no unknown shape through silently (SPEC 6): an event it does not know (kind `other`),
 * or a known before-tool event whose tool input it could not read, that carries a tool input naming a command or a
 * path (under any of the names a client may give it: tool_input, toolArgs, arguments, …, at the top or in another
 * nesting) is a stranger's tool call (no session: SPEC 6), judged on those; a parse that throws is read that way too,
 * never allowed for the throw; an unknown event naming a tool that may write, with nothing in it to read, is refused. A tool a client ships that cannot write or run anything (ClientRecord.readOnly), or whose name says it only
 * reads (an MCP server's read_file), is a read; a shell call of a client whose shell keeps stdin open for input no
 * hook sees (ClientRecord.stdinUnseen) says so.
 */
export function readsUnknownShapes(adapter: ClientAdapter): ClientAdapter {
  let out = JUDGING.get(adapter);
  if (!out) {
    out = { client: adapter.client, render: adapter.render, parse: (p) => seenAs(adapter, judgedEvent(adapter, p)) };
    JUDGING.set(adapter, out);
  }
  return out;
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
