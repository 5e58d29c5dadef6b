// Claude Code (and Codex, which speaks the same wire format): PascalCase events, hookSpecificOutput answers.
import { str, type ClientAdapter, type Decision, type EventKind, type GuardClient, type GuardEvent } from '../event';
import { parseCommonPayload } from './common';

const KINDS: Record<string, EventKind> = {
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  SessionStart: 'session-start',
  Stop: 'stop',
  PreCompact: 'pre-compact',
};

export function parseClaudeLike(client: GuardClient, p: Record<string, unknown>): GuardEvent {
  return parseCommonPayload(client, KINDS, p, str(p.source));
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
  // shown to the person by the client (the model reads additionalContext)
  if (d.notice && out.systemMessage === undefined) out.systemMessage = d.notice;
  return Object.keys(out).length ? JSON.stringify(out) : null;
}

export const claude: ClientAdapter = {
  client: 'claude-code',
  parse: (p) => parseClaudeLike('claude-code', p),
  render: renderClaudeLike,
};
