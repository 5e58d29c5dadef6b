// Cline: hook scripts named after its events (docs/clients.md, Cline).
import { editOn, obj, str, type EventKind } from './event';
import { shellWord } from '../terminal-text';
import { onPath, strings, type ToClaude } from './common';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';

/** The tools the Cline CLI (3.0.65), then its extension, ship that cannot write or run anything. */
const READ_ONLY = [
  'read_files', 'search_codebase', 'fetch_web_content', 'ask_question', 'team_status', 'team_list_runs', 'team_read_mailbox', 'team_list_outcomes',
  'read_file', 'list_files', 'search_files', 'list_code_definition_names', 'ask_followup_question', 'attempt_completion', 'plan_mode_respond', 'access_mcp_resource', 'load_mcp_documentation', 'web_fetch',
] as const;

/** The project folder install writes its hook files into (one of the folders Cline reads them from). */
const CLINE_HOOKS_DIR = '.clinerules/hooks';

/** The events install wires: each a file of that name. */
const EVENTS = { PreToolUse: undefined, SessionShutdown: undefined };

/** Cline's `hookName` in the payload (the CLI's, then the extension's), by the kind the guard handles. */
const KINDS: Record<string, EventKind> = {
  tool_call: 'pre-tool',
  tool_result: 'post-tool',
  agent_start: 'session-start',
  agent_end: 'stop',
  session_shutdown: 'session-end',
  PreToolUse: 'pre-tool',
  PostToolUse: 'post-tool',
  TaskStart: 'session-start',
  TaskResume: 'session-start',
  // a cancelled task may be resumed: it ends a turn, not the session
  TaskCancel: 'stop',
  TaskComplete: 'stop',
};

/** A hook file: the guard run by sh, the payload on its stdin. */
const clineHookScript = (event: string, command: string) =>
  `#!/bin/sh\n# git-handoff's ${event} hook for Cline: \`git handoff uninstall --agent cline\` removes it.\nexec ${command}\n`;

/** A command line as the shell tool would run it, from any input shape run_commands takes. */
function commandsOf(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) return input.every((c) => typeof c === 'string') ? input.join('\n') : null;
  const o = obj(input);
  // {command, args}: an executable run without a shell, its arguments as they are
  if (typeof o.command === 'string' && Array.isArray(o.args)) return [o.command, ...o.args.map(String)].map(shellWord).join(' ');
  for (const k of ['commands', 'command', 'cmd']) {
    const v = o[k];
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && v.every((c) => typeof c === 'string')) return v.join('\n');
  }
  return null;
}

/** The extension's replace_in_file diff (`------- SEARCH` … `=======` … `+++++++ REPLACE` blocks, or `<<<<<<<`/`>>>>>>>`) as edits. */
function searchReplaceEdits(diff: string): Array<{ oldText: string; newText: string }> {
  const edits = [...diff.matchAll(/^(?:-{3,}|<{3,}) SEARCH[ \t]*\r?\n([\s\S]*?)^={3,}[ \t]*\r?\n([\s\S]*?)^(?:\+{3,}|>{3,}) REPLACE[ \t]*$/gm)];
  // a diff in no shape read here: judged as new text anywhere in the file
  return edits.length ? edits.map((m) => ({ oldText: m[1].replace(/\r?\n$/, ''), newText: m[2].replace(/\r?\n$/, '') })) : [{ oldText: '', newText: diff }];
}

const shell = (command: string | null) => (command === null ? null : { tool: 'Bash', input: { command } });

/** Cline's tools (the CLI's, then the extension's) as the actions the rules judge; null: read as an unknown tool's. */
const TOOLS: Record<string, ToClaude> = {
  run_commands: (a) => shell(commandsOf(a)),
  // {path, new_text} writes the file; with old_text it replaces, with insert_line it inserts
  editor: onPath(['path'], (path, a) =>
    a.old_text === undefined && a.insert_line === undefined ? { type: 'write', path, content: str(a.new_text) ?? '' } : editOn(path, a.old_text, a.new_text),
  ),
  write_to_file: onPath(['path'], (path, a) => ({ type: 'write', path, content: str(a.content) ?? '' })),
  replace_in_file: onPath(['path'], (path, a) => ({ type: 'edit', path, edits: searchReplaceEdits(str(a.diff) ?? '') })),
  execute_command: (a) => shell(str(a.command)),
  // its arguments are JSON text: judged as the MCP tool's own
  use_mcp_tool: (a) => {
    try {
      return { tool: 'use_mcp_tool', input: { ...a, arguments: typeof a.arguments === 'string' ? JSON.parse(a.arguments) : a.arguments } };
    } catch {
      return null;
    }
  },
};

/** A payload (the CLI's or the extension's) as a tool call in Claude Code's keys. */
function asToolCall(p: Record<string, unknown>): Record<string, unknown> {
  const call = obj(p.tool_call ?? p.tool_result);
  const ext = obj(p.preToolUse ?? p.postToolUse);
  // the input as the model sent it (the extension's parameters have every non-string value as JSON text); run_commands
  // may take its commands bare
  const input = call.input ?? ext.parameters;
  const bare = typeof input === 'string' || (Array.isArray(input) && input.every((c) => typeof c === 'string'));
  return {
    hook_event_name: p.hookName,
    session_id: str(obj(p.sessionContext).rootSessionId) ?? p.taskId,
    // every agent has an id; a subagent's names its parent
    agent_id: typeof p.parent_agent_id === 'string' ? p.agent_id : null,
    cwd: strings(p.workspaceRoots)[0] ?? obj(p.workspaceInfo).rootPath,
    tool_name: str(call.name) ?? ext.toolName,
    tool_input: bare ? { commands: input } : input,
    reason: p.reason,
  };
}

export const record: ClientRecord = clientRecord({
  name: 'cline',
  home: { variable: 'CLINE_DIR', dir: '.cline' },
  hookFiles: { project: Object.keys(EVENTS).map((e) => `${CLINE_HOOKS_DIR}/${e}`) },
  // every file in the hook folders named after an event runs around the tools (any extension), and each plugin module too
  pluginDirs: {
    project: [`${CLINE_HOOKS_DIR}/*`, '.cline/hooks/*', '.cline/plugins'],
    user: ['$CLINE_DIR/hooks/*', 'Documents/Cline/Hooks/*', '$CLINE_DIR/plugins', 'Documents/Cline/Plugins'],
  },
  readOnly: READ_ONLY,
  mcpNames: '<server>__<tool>',
  shape: { kinds: KINDS, tools: TOOLS, reshape: asToolCall },
  // the only refusal Cline has ends the whole task before the call runs; the reason is in its log only
  answer: { deny: { cancel: true, errorMessage: '$deny' }, allow: { contextModification: '$told' } },
  guardLimit: 'a refusal ends the whole task; a guard that crashes lets the call run',
  probes: (cwd, command) => [
    ['run_commands', { hookName: 'tool_call', taskId: PROBE_SESSION, sessionContext: { rootSessionId: PROBE_SESSION }, workspaceRoots: [cwd], agent_id: 'doctor', parent_agent_id: null, tool_call: { id: 'doctor', name: 'run_commands', input: { commands: [command] } }, preToolUse: { toolName: 'run_commands', parameters: { commands: JSON.stringify([command]) } } }],
  ],
  wiring: {
    settings: `${CLINE_HOOKS_DIR}/PreToolUse`,
    events: EVENTS,
    files: (command) => Object.keys(EVENTS).map((e) => ({ file: `${CLINE_HOOKS_DIR}/${e}`, text: clineHookScript(e, command), mode: 0o755 })),
    runs: () => `sh ${CLINE_HOOKS_DIR}/PreToolUse`,
  },
});
