// Claude Code (and Codex, which speaks the same wire format): PascalCase events, hookSpecificOutput answers.
import { commonToolAction, obj, own, str, type ClientAdapter, type Decision, type EventKind, type GuardClient, type GuardEvent } from '../event';

const KINDS: Record<string, EventKind> = {
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  SessionStart: 'session-start',
  Stop: 'stop',
  PreCompact: 'pre-compact',
};

export function parseClaudeLike(client: GuardClient, p: Record<string, unknown>): GuardEvent {
  const name = str(p.hook_event_name) ?? '';
  const cwd = str(p.cwd) ?? process.cwd();
  const tool = str(p.tool_name);
  const toolInput = obj(p.tool_input);
  return {
    client,
    kind: own(KINDS, name) ?? 'other',
    name,
    session: str(p.session_id),
    agentId: str(p.agent_id),
    cwd,
    tool,
    action: commonToolAction(tool, toolInput, cwd),
    toolInput,
    source: str(p.source),
    stopHookActive: p.stop_hook_active === true,
  };
}

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
    if (d.context) out.systemMessage = d.context;
  } else if (d.context && (e.kind === 'post-tool' || e.kind === 'session-start')) {
    out.hookSpecificOutput = { hookEventName: e.name, additionalContext: d.context };
  }
  return Object.keys(out).length ? JSON.stringify(out) : null;
}

export const claude: ClientAdapter = {
  client: 'claude-code',
  parse: (p) => parseClaudeLike('claude-code', p),
  render: renderClaudeLike,
};
