// Cursor: its own .cursor/hooks.json and Claude Code's wiring, camelCase events (docs/clients.md, Cursor).
import path from 'node:path';
import { str, type EventKind, type GuardEvent } from './event';
import type { ToClaude } from './common';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';
import { eachEvent, HOOK_TIMEOUT_S, wiredWithGuard } from './wiring';
import { userHome } from '../user-dirs';

const CURSOR_HOOKS_FILE = '.cursor/hooks.json';

/** The events install wires (preToolUse: every tool, failing closed: a guard that cannot run refuses). */
const EVENTS = { preToolUse: undefined, sessionStart: undefined, stop: undefined, preCompact: undefined, sessionEnd: undefined };

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

/** Cursor's own tool names onto Claude Code's (Delete's arguments are judged as an unknown tool's: every path). */
const TOOLS: Record<string, ToClaude> = {
  // Shell runs in its working_directory
  Shell: (a) => ({ tool: 'Bash', input: str(a.working_directory) ? { ...a, workdir: a.working_directory } : a }),
  // Write's content may be `contents`
  Write: (a) => ({ tool: 'Write', input: { ...a, content: str(a.content) ?? str(a.contents) ?? '' } }),
  StrReplace: (a) => ({ tool: 'Edit', input: a }),
  // afterFileEdit's are several
  Edit: (a) => ({ tool: Array.isArray(a.edits) ? 'MultiEdit' : 'Edit', input: a }),
};

/** Its shell and file-edit events name their call at the top: read as the Shell or Edit tool's. */
function asToolCall(p: Record<string, unknown>): Record<string, unknown> {
  const name = p.hook_event_name;
  if (name === 'beforeShellExecution' || name === 'afterShellExecution') return { ...p, tool_name: 'Shell', tool_input: { command: str(p.command) ?? '' } };
  if (name === 'afterFileEdit') return { ...p, tool_name: 'Edit', tool_input: { file_path: str(p.file_path) ?? '', edits: Array.isArray(p.edits) ? p.edits : [] } };
  return p;
}

/** A payload Cursor sent, through its own hooks or Claude Code's: a camelCase event with its conversation or generation. */
const isCursorPayload = (p: Record<string, unknown>): boolean =>
  typeof p.hook_event_name === 'string' && /^[a-z]/.test(p.hook_event_name) && (p.conversation_id !== undefined || p.generation_id !== undefined || p.cursor_version !== undefined);

/** Where git-handoff's Cursor wiring is in the project (or the user's hooks), it answers Cursor's calls, not Claude Code's. */
function cursorAnswersNatively(e: GuardEvent): boolean {
  if (e.client !== 'cursor') return false;
  const files = [path.join(userHome(), CURSOR_HOOKS_FILE)];
  for (let d = path.resolve(e.cwd); ; d = path.dirname(d)) {
    files.push(path.join(d, CURSOR_HOOKS_FILE));
    if (d === path.dirname(d)) break;
  }
  return files.some((f) => wiredWithGuard(f, '--client=cursor'));
}

export const record: ClientRecord = clientRecord({
  name: 'cursor',
  home: { dir: '.cursor' },
  hookFiles: { project: [CURSOR_HOOKS_FILE], user: ['.cursor/hooks.json'] },
  // its reading tools, as its hooks reference names them (not run here); preToolUse has no matcher: these are read as reads
  readOnly: ['Read', 'Grep', 'Glob', 'LS'],
  mcpNames: 'MCP:<tool>',
  shape: { kinds: KINDS, tools: TOOLS, session: ['conversation_id', 'session_id'], reshape: asToolCall },
  answer: {
    deny: { permission: 'deny', user_message: '$deny', agent_message: '$deny' },
    allow: { permission: 'allow', agent_message: '$context', user_message: '$notice?' },
    stop: { followup_message: '$followUp' },
    'session-start': { additional_context: '$context' },
    // preCompact only informs: its one answer is a message to the person
    'pre-compact': { user_message: '$context' },
  },
  recordsAfterTool: true,
  readsClaude: 'with its third-party configs setting on',
  rides: [{ wiring: 'claude-code', payload: isCursorPayload, answeredElsewhere: cursorAnswersNatively }],
  probes: (cwd, command) => [['Shell', { conversation_id: PROBE_SESSION, generation_id: 'doctor', cwd, workspace_roots: [cwd], hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command, working_directory: cwd } }]],
  wiring: {
    settings: CURSOR_HOOKS_FILE,
    events: EVENTS,
    files: (command) => {
      const entries = eachEvent(EVENTS, (e) => ({ command, timeout: HOOK_TIMEOUT_S, ...(e === 'preToolUse' ? { failClosed: true } : {}) }));
      return [{ file: CURSOR_HOOKS_FILE, json: { at: ['hooks'], base: { version: 1 }, entries } }];
    },
  },
});
