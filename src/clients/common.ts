// Claude Code's payload and answer, which most clients speak under names of their own: one reader, one adapter.
import { exitAnswer } from './answer';
import { commonToolAction, obj, own, str, type Decision, type EventKind, type GuardClient, type GuardEvent, type ToolAction } from './event';
import { shellQuote } from '../terminal-text';

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
  /** a payload that names its call elsewhere, in Claude Code's keys (`hook_event_name`, `tool_name`, `tool_input`, …) */
  reshape?: (p: Record<string, unknown>) => Record<string, unknown>;
}

const firstString = (p: Record<string, unknown>, keys: readonly string[]): string | null => keys.map((k) => str(p[k])).find((v) => v !== null) ?? null;
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((r): r is string => typeof r === 'string') : []);

/** A payload of `shape` as the event the guard judges. */
export function readShaped(client: GuardClient, shape: PayloadShape, payload: Record<string, unknown>): GuardEvent {
  const p = shape.reshape?.(payload) ?? payload;
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

/**
 * A JSON answer whose `$field` strings are the verdict's (Answer's values): an object with an unset one is left out,
 * but a `$field?` only leaves out its key and an object inside another only itself; a `$field` alone is plain text.
 */
type Template = string | { [key: string]: unknown };

/**
 * How a client is told a verdict, as data: a template per case (a tool call refused, rewritten, allowed, else the event's
 * kind). `deny` `exit`: the hook exits 2 with the reason on stderr; no `rewrite`: `allow`'s; `notice`: merged into every
 * answer, in the keys it leaves unset.
 */
export type Answer = { deny: Template | 'exit' } &
  Partial<Record<'rewrite' | 'allow' | 'notice' | Exclude<EventKind, 'pre-tool'>, Template>>;

/** Claude Code's answer: hookSpecificOutput for a tool and the session's start, decision block for a Stop. */
const CONTEXT = { hookSpecificOutput: { hookEventName: '$name', additionalContext: '$context' } };
export const CLAUDE_ANSWER: Answer = {
  deny: { hookSpecificOutput: { hookEventName: '$name', permissionDecision: 'deny', permissionDecisionReason: '$deny' } },
  rewrite: {
    hookSpecificOutput: { hookEventName: '$name', permissionDecision: 'allow', permissionDecisionReason: '$reason', updatedInput: '$input' },
  },
  allow: CONTEXT,
  'post-tool': CONTEXT,
  'session-start': CONTEXT,
  stop: { decision: 'block', reason: '$followUp' },
  'pre-compact': { systemMessage: '$context' },
  // shown to the person by the client (the model reads additionalContext)
  notice: { systemMessage: '$notice' },
};

function fill(t: unknown, values: Record<string, unknown>): unknown {
  if (typeof t === 'string' && t.startsWith('$')) return values[t.replace(/^\$|\?$/g, '')];
  if (!t || typeof t !== 'object') return t;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(t)) {
    const v = fill(x, values);
    if (v !== undefined) out[k] = v;
    else if (typeof x === 'string' && !x.endsWith('?')) return undefined;
  }
  return out;
}

/** The verdict `d` on `e` as `answer` says it (`printsContext`: a shell call's context printed by its command, Gemini CLI's). */
export function render(answer: Answer, printsContext: boolean, e: GuardEvent, d: Decision): string | null {
  const refused = e.kind === 'pre-tool' && d.deny !== undefined;
  if (refused && answer.deny === 'exit') return exitAnswer(2, d.deny!);
  const slot = e.kind !== 'pre-tool' ? e.kind : refused ? 'deny' : d.updatedInput && answer.rewrite ? 'rewrite' : 'allow';
  const values = {
    name: e.name,
    deny: d.deny,
    context: d.context || undefined,
    notice: d.notice || undefined,
    followUp: d.followUp || undefined,
    input: printsContext ? withContextPrinted(e, d) : d.updatedInput,
    reason: d.context || 'git-handoff added this session id to the command',
    warning: d.notice || d.context || undefined,
    told: [d.notice, d.context].filter(Boolean).join('\n') || undefined,
  };
  const main = fill(answer[slot], values);
  if (typeof main === 'string') return main;
  const out = { ...(main as Record<string, unknown> | undefined) };
  for (const [k, v] of Object.entries((fill(answer.notice, values) as Record<string, unknown> | undefined) ?? {})) out[k] ??= v;
  return Object.keys(out).length ? JSON.stringify(out) : null;
}

/** The input an allowed shell call with context runs with: the command prints the context first to stderr, which its model reads. */
function withContextPrinted(e: GuardEvent, d: Decision): Record<string, unknown> | undefined {
  const input = d.updatedInput ?? e.toolInput;
  const command = str(input.command);
  if (!d.context || e.action.type !== 'shell' || command === null) return d.updatedInput;
  return { ...input, command: `printf '%s\\n' ${shellQuote(d.context)} >&2\n${command}` };
}

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

/** A tool of the file named under the first of `keys` it has (none: null, its arguments read as an unknown shape). */
export const onPath =
  (keys: readonly string[], act: (path: string, input: Record<string, unknown>) => ToolAction): ToClaude =>
  (input) => {
    const path = keys.map((k) => str(input[k])).find((p) => p !== null);
    return path == null ? null : act(path, input);
  };
