// Windsurf's Cascade hooks: one per kind of action, no matcher, exit 2 refuses (docs/clients.md, Windsurf).
import type { ToClaude } from './common';
import { obj, str, type EventKind } from './event';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';
import { eachEvent } from './wiring';

const WINDSURF_HOOKS_FILE = '.windsurf/hooks.json';

/** The before-action hooks of every kind that writes or runs anything (pre_read_code is not wired: reading). */
const EVENTS = { pre_run_command: undefined, pre_write_code: undefined, pre_mcp_tool_use: undefined };

const KINDS: Record<string, EventKind> = { pre_run_command: 'pre-tool', pre_write_code: 'pre-tool', pre_mcp_tool_use: 'pre-tool', post_write_code: 'post-tool', post_run_command: 'post-tool', post_mcp_tool_use: 'post-tool', post_cascade_response: 'stop' };

/** Its actions as tools: a command line, the edits of one file (null: read as an unknown tool's arguments). */
const TOOLS: Record<string, ToClaude> = {
  run_command: (a) => (str(a.command_line) === null ? null : { tool: 'Bash', input: { command: a.command_line } }),
  write_code: (a) => (str(a.file_path) === null ? null : { tool: 'MultiEdit', input: { file_path: a.file_path, edits: Array.isArray(a.edits) ? a.edits : [] } }),
};

/** A payload as a tool call: its kind of action the tool, an MCP tool's arguments judged as an unknown tool's. */
function asToolCall(p: Record<string, unknown>): Record<string, unknown> {
  const name = str(p.agent_action_name) ?? '';
  const info = obj(p.tool_info);
  const mcp = name.endsWith('_mcp_tool_use') ? `mcp_${str(info.mcp_server_name) ?? ''}_${str(info.mcp_tool_name) ?? ''}` : null;
  const tool = mcp ?? ['run_command', 'write_code'].find((t) => name.endsWith(`_${t}`)) ?? null;
  return { hook_event_name: name, trajectory_id: p.trajectory_id, cwd: info.cwd, tool_name: tool, tool_input: mcp ? obj(info.mcp_tool_arguments) : info };
}

export const record: ClientRecord = clientRecord({
  name: 'windsurf',
  home: { dir: '.codeium/windsurf' },
  // .codeium/hooks.json: JetBrains
  hookFiles: { project: [WINDSURF_HOOKS_FILE], user: ['.codeium/windsurf/hooks.json', '.codeium/hooks.json'], system: ['/etc/windsurf/hooks.json'] },
  // no tool names: its hooks are per kind of action, and the reading kinds are not wired
  readOnly: [],
  // its pre_mcp_tool_use names the server and the tool; the guard reads them as mcp_<server>_<tool>
  mcpNames: 'mcp_<server>_<tool>',
  shape: { kinds: KINDS, tools: TOOLS, session: ['trajectory_id'], reshape: asToolCall },
  // exit 2 refuses, with the reason on stderr; nothing else is read
  answer: { deny: 'exit' },
  contextBeforeTool: false,
  probes: (cwd, command) => [['pre_run_command', { agent_action_name: 'pre_run_command', trajectory_id: PROBE_SESSION, execution_id: 'doctor', timestamp: new Date().toISOString(), tool_info: { command_line: command, cwd } }]],
  wiring: {
    settings: WINDSURF_HOOKS_FILE,
    events: EVENTS,
    files: (command) => [{ file: WINDSURF_HOOKS_FILE, json: { at: ['hooks'], entries: eachEvent(EVENTS, () => ({ command, show_output: true })) } }],
  },
});
