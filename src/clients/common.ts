// The payload fields Claude Code, Codex and Gemini CLI share: one reader, each client naming its own events.
import { commonToolAction, obj, own, str, type EventKind, type GuardClient, type GuardEvent } from '../guard/event';

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
