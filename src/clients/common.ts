// The payload fields Claude Code, Codex and Gemini CLI share: one reader, each client naming its own events.
import { commonToolAction, obj, own, str, type EventKind, type GuardClient, type GuardEvent } from './event';

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
