// Cursor: camelCase events and `conversation_id`; answers with permission/user_message/agent_message.
import { commonToolAction, obj, own, str, type ClientAdapter, type EventKind, type ToolAction } from './event';
import type { ClientRecord } from './record';
import { PROBE_SESSION } from './record';

const KINDS: Record<string, EventKind> = {
  beforeShellExecution: 'pre-tool',
  preToolUse: 'pre-tool',
  afterShellExecution: 'post-tool',
  afterFileEdit: 'post-tool',
  postToolUse: 'post-tool',
  sessionStart: 'session-start',
  stop: 'stop',
  preCompact: 'pre-compact',
  sessionEnd: 'session-end',
};

// Cursor's own tool names, mapped onto the shared ones.
const TOOLS: Record<string, string> = { Shell: 'Bash', Write: 'Write', StrReplace: 'Edit', Edit: 'Edit', Delete: 'Delete' };

export const cursor: ClientAdapter = {
  client: 'cursor',
  parse(p) {
    const name = str(p.hook_event_name) ?? '';
    const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
    const cwd = str(p.cwd) ?? roots[0] ?? process.cwd();
    let tool = str(p.tool_name);
    let toolInput = obj(p.tool_input);
    let action: ToolAction;
    if (name === 'beforeShellExecution' || name === 'afterShellExecution') {
      tool = 'Shell';
      toolInput = { command: str(p.command) ?? '' };
      action = { type: 'shell', command: str(p.command) ?? '', cwd };
    } else if (name === 'afterFileEdit') {
      tool = 'Edit';
      const edits = Array.isArray(p.edits) ? p.edits.map(obj).map((e) => ({ oldText: str(e.old_string) ?? '', newText: str(e.new_string) ?? '' })) : [];
      toolInput = { file_path: str(p.file_path) ?? '' };
      action = { type: 'edit', path: str(p.file_path) ?? '', edits };
    } else {
      const mapped = tool ? own(TOOLS, tool) ?? tool : null;
      const input = mapped === 'Write' ? { ...toolInput, content: str(toolInput.content) ?? str(toolInput.contents) ?? '' } : toolInput;
      action = commonToolAction(mapped, input, cwd);
    }
    return {
      client: 'cursor',
      kind: own(KINDS, name) ?? 'other',
      name,
      session: str(p.conversation_id) ?? str(p.session_id),
      agentId: null,
      cwd,
      tool,
      action,
      toolInput,
      source: str(p.source) ?? str(p.reason),
      stopHookActive: false,
    };
  },
  render(e, d) {
    const out: Record<string, unknown> = {};
    if (e.kind === 'pre-tool') {
      if (d.deny !== undefined) Object.assign(out, { permission: 'deny', user_message: d.deny, agent_message: d.deny });
      else if (d.context) Object.assign(out, { permission: 'allow', agent_message: d.context, ...(d.notice ? { user_message: d.notice } : {}) });
    } else if (e.kind === 'stop') {
      if (d.followUp) out.followup_message = d.followUp;
    } else if (e.kind === 'session-start') {
      if (d.context) out.additional_context = d.context;
    } else if (e.kind === 'pre-compact') {
      // preCompact only informs: its one answer is a message to the person
      if (d.context) out.user_message = d.context;
    }
    return Object.keys(out).length ? JSON.stringify(out) : null;
  },
};

export const record: ClientRecord = {
  name: 'cursor',
  agent: null,
  home: { dir: '.cursor' },
  hookFiles: [
    { scope: 'project', file: '.cursor/hooks.json' },
    { scope: 'user', file: '.cursor/hooks.json' },
  ],
  trustFiles: [],
  // its reading tools, as its hooks reference names them (not run here)
  readOnly: ['Read', 'Grep', 'Glob', 'LS'],
  routing: 'by-hand',
  mcpNames: 'MCP:<tool>',
  // its shell carries none: its commits are told apart by the guard's ledger
  sessionVar: null,
  shellSession: 'never',
  payload: 'conversation_id, camelCase events (beforeShellExecution, preToolUse, afterFileEdit, …)',
  block: '{"permission":"deny","user_message":…,"agent_message":…}',
  probes: (cwd, command) => [['beforeShellExecution', { conversation_id: PROBE_SESSION, cwd, hook_event_name: 'beforeShellExecution', command }]],
  adapter: cursor,
  wiring: null,
  front: null,
};
