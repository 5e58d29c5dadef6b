// Claude Code's payload and answer, which most clients speak under names of their own: one reader, one adapter.
import { exitAnswer } from './answer';
import { commonToolAction, obj, own, str, type ClientAdapter, type Decision, type EventKind, type GuardClient, type GuardEvent, type ToolAction } from './event';

/** Claude Code's event names (Codex, Qwen Code, droid, Augment and the OpenCode plugin's payloads use them too). */
export const KINDS: Record<string, EventKind> = {
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  SessionStart: 'session-start',
  Stop: 'stop',
  PreCompact: 'pre-compact',
  SessionEnd: 'session-end',
};

/** Claude Code's payload keys, as the sh front reads them (most clients send these). */
export const CLAUDE_KEYS = { session: 'session_id', tool: 'tool_name', event: 'hook_event_name', input: 'tool_input' };

/** A payload in Claude Code's shape under a client's own names: events, tools, the keys of event, session and source, its cwd variable. */
export interface PayloadShape {
  kinds: Readonly<Record<string, EventKind>>;
  tools?: Readonly<Record<string, ToClaude>>;
  event?: readonly string[];
  session?: readonly string[];
  source?: readonly string[];
  tool?: readonly string[];
  input?: readonly string[];
  cwdVar?: string;
}

const firstString = (p: Record<string, unknown>, keys: readonly string[]): string | null => keys.map((k) => str(p[k])).find((v) => v !== null) ?? null;
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((r): r is string => typeof r === 'string') : []);

/** A payload of `shape` as the event the guard judges. */
export function readShaped(client: GuardClient, shape: PayloadShape, p: Record<string, unknown>): GuardEvent {
  const name = firstString(p, shape.event ?? ['hook_event_name']) ?? '';
  const cwd = str(p.cwd) ?? (shape.cwdVar ? process.env[shape.cwdVar] : undefined) ?? strings(p.workspace_roots)[0] ?? process.cwd();
  const tool = firstString(p, shape.tool ?? ['tool_name']);
  // Copilot CLI runs Claude Code's wiring too, with its own argument names (Write {path, file_text}, Edit {path, old_str, new_str})
  const toolInput = claudeArgs(tool, obj((shape.input ?? ['tool_input']).map((k) => p[k]).find((v) => v != null)));
  return {
    client,
    kind: own(shape.kinds, name) ?? 'other',
    name,
    session: firstString(p, shape.session ?? ['session_id']),
    agentId: str(p.agent_id),
    cwd,
    tool,
    action: mappedAction(shape.tools ?? {}, tool, toolInput, cwd),
    toolInput,
    source: firstString(p, shape.source ?? ['source', 'reason']),
    stopHookActive: p.stop_hook_active === true,
  };
}

/** Claude Code's own answer: hookSpecificOutput for a tool and the session's start, decision block for a Stop. */
export function renderClaudeLike(e: GuardEvent, d: Decision): string | null {
  const out: Record<string, unknown> = {};
  if (e.kind === 'pre-tool') {
    if (d.deny !== undefined) {
      out.hookSpecificOutput = { hookEventName: e.name, permissionDecision: 'deny', permissionDecisionReason: d.deny };
    } else if (d.updatedInput) {
      out.hookSpecificOutput = {
        hookEventName: e.name,
        permissionDecision: 'allow',
        permissionDecisionReason: d.context ?? 'git-handoff added this session id to the command',
        updatedInput: d.updatedInput,
      };
    } else if (d.context) out.hookSpecificOutput = { hookEventName: e.name, additionalContext: d.context };
  } else if (e.kind === 'stop') {
    if (d.followUp) Object.assign(out, { decision: 'block', reason: d.followUp });
  } else if (e.kind === 'pre-compact') {
    // Claude Code (2.1.328) reads PreCompact's stdout as plain text: it is added to the compaction's instructions and
    // shown as the hook's output, so a JSON answer arrived there as a raw blob. Plain text it is.
    if (d.context && e.client === 'claude-code') return d.context;
    if (d.context) out.systemMessage = d.context;
  } else if (d.context && (e.kind === 'post-tool' || e.kind === 'session-start')) {
    out.hookSpecificOutput = { hookEventName: e.name, additionalContext: d.context };
  }
  // shown to the person by the client (the model reads additionalContext)
  if (d.notice && out.systemMessage === undefined) out.systemMessage = d.notice;
  return Object.keys(out).length ? JSON.stringify(out) : null;
}

type Render = ClientAdapter['render'];

/** An answer that refuses by exit 2 with the reason on stderr (read by the model), every other answer `rest`'s (none: nothing). */
export const exitRefusal =
  (rest?: Render): Render =>
  (e, d) =>
    e.kind === 'pre-tool' && d.deny !== undefined ? exitAnswer(2, d.deny) : (rest?.(e, d) ?? null);

/** The adapter of a client whose payload is `shape` (readShaped), answered by `render` (Claude Code's where none is given). */
export const shapedAdapter = (client: GuardClient, shape: PayloadShape, render: Render = renderClaudeLike): ClientAdapter => ({ client, parse: (p) => readShaped(client, shape, p), render });

/** A Write's or Edit's input in Claude Code's argument names (Copilot's `path`, `file_text`, `old_str`, `new_str`); its own win. */
export function claudeArgs(tool: string | null, input: Record<string, unknown>): Record<string, unknown> {
  if (tool !== 'Write' && tool !== 'Edit') return input;
  const out = { ...input };
  if (str(out.file_path) === null && str(input.path) !== null) out.file_path = input.path;
  if (tool === 'Write' && str(out.content) === null && str(input.file_text) !== null) out.content = input.file_text;
  if (tool === 'Edit' && str(out.old_string) === null && str(input.old_str) !== null) out.old_string = input.old_str;
  if (tool === 'Edit' && str(out.new_string) === null && str(input.new_str) !== null) out.new_string = input.new_str;
  return out;
}

/** A client's tool call in Claude Code's tool and argument names, or the action itself (null: read as commonToolAction reads it). */
export type ToClaude = (input: Record<string, unknown>) => { tool: string; input: Record<string, unknown> } | ToolAction | null;

/** A tool call as the action the rules judge, through `tools` (a client's names onto Claude Code's) where it names the tool. */
export function mappedAction(tools: Record<string, ToClaude>, tool: string | null, input: Record<string, unknown>, cwd: string): ToolAction {
  const m = tool === null ? null : (own(tools, tool)?.(input) ?? null);
  if (m && 'type' in m) return m;
  return m ? commonToolAction(m.tool, m.input, cwd) : commonToolAction(tool, input, cwd);
}

/** `{old_str, new_str}` (and Claude Code's own names, which win) as Claude Code's Edit arguments. */
export const editOf = (input: Record<string, unknown>, path: unknown = input.file_path ?? input.path): { tool: string; input: Record<string, unknown> } => ({
  tool: 'Edit',
  input: { file_path: path, old_string: input.old_string ?? input.old_str ?? input.oldString ?? '', new_string: input.new_string ?? input.new_str ?? input.newString ?? '' },
});

/** A whole file written, its path and content under the client's names, as Claude Code's Write. */
export const writeOf = (path: unknown, content: unknown): { tool: string; input: Record<string, unknown> } => ({ tool: 'Write', input: { file_path: path, content: typeof content === 'string' ? content : '' } });
