// The payload fields Claude Code, Codex and Gemini CLI share: one reader, each client naming its own events.
import { commonToolAction, obj, own, str, type EventKind, type GuardClient, type GuardEvent, type ToolAction } from './event';

export function parseCommonPayload(client: GuardClient, kinds: Record<string, EventKind>, p: Record<string, unknown>, source: string | null): GuardEvent {
  const name = str(p.hook_event_name) ?? '';
  const cwd = str(p.cwd) ?? process.cwd();
  const tool = str(p.tool_name);
  const toolInput = obj(p.tool_input);
  return {
    client,
    kind: own(kinds, name) ?? 'other',
    name,
    session: str(p.session_id),
    agentId: str(p.agent_id),
    cwd,
    tool,
    action: commonToolAction(tool, toolInput, cwd),
    toolInput,
    source,
    stopHookActive: p.stop_hook_active === true,
  };
}

/**
 * A tool input in Claude Code's argument names: Copilot sends `{path, file_text}` for a Write and `{path, old_str,
 * new_str}` for an Edit, even through Claude Code's wiring. Names Claude Code uses win when both are there.
 */
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

/**
 * A tool call of a client whose tools are Claude Code's under other names (`tools`: its name → Claude Code's tool and
 * arguments): the action the rules judge. A tool the table does not name is read as commonToolAction reads it (a new
 * or MCP tool: judged on every argument).
 */
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
