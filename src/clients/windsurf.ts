// Windsurf's Cascade hooks: one per kind of action, no matcher, exit 2 refuses (docs/clients.md, Windsurf).
import { exitRefusal } from './common';
import { obj, own, str, unknownShape, type ClientAdapter, type EventKind, type ToolAction } from './event';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';
import { filesWiring, type Wiring } from './wiring';

const WINDSURF_HOOKS_FILE = '.windsurf/hooks.json';

/** The before-action hooks of every kind that writes or runs anything (pre_read_code is not wired: reading). */
const EVENTS = { pre_run_command: undefined, pre_write_code: undefined, pre_mcp_tool_use: undefined };

const KINDS: Record<string, EventKind> = { pre_run_command: 'pre-tool', pre_write_code: 'pre-tool', pre_mcp_tool_use: 'pre-tool', post_write_code: 'post-tool', post_run_command: 'post-tool', post_mcp_tool_use: 'post-tool', post_cascade_response: 'stop' };

export const wiring: Wiring = filesWiring({
  client: 'windsurf',
  settings: WINDSURF_HOOKS_FILE,
  events: EVENTS,
  files: (command) => [{ file: WINDSURF_HOOKS_FILE, json: { at: ['hooks'], entries: Object.fromEntries(Object.keys(EVENTS).map((e) => [e, [{ command, show_output: true }]])) } }],
});

/** What an action does: its command line, its edits of one file, or an MCP tool's arguments judged as an unknown tool's. */
function windsurfAction(name: string, info: Record<string, unknown>, cwd: string): { tool: string | null; action: ToolAction; input: Record<string, unknown> } {
  if (name.endsWith('_run_command')) {
    const command = str(info.command_line);
    return { tool: 'run_command', action: command === null ? unknownShape('run_command', info) : { type: 'shell', command, cwd: str(info.cwd) ?? cwd }, input: info };
  }
  if (name.endsWith('_write_code')) {
    const path = str(info.file_path);
    const edits = (Array.isArray(info.edits) ? info.edits : []).map(obj).map((e) => ({ oldText: str(e.old_string) ?? '', newText: str(e.new_string) ?? '' }));
    return { tool: 'write_code', action: path === null ? unknownShape('write_code', info) : { type: 'edit', path, edits }, input: info };
  }
  if (name.endsWith('_mcp_tool_use')) {
    const tool = `mcp_${str(info.mcp_server_name) ?? ''}_${str(info.mcp_tool_name) ?? ''}`;
    const input = obj(info.mcp_tool_arguments);
    return { tool, action: unknownShape(tool, input), input };
  }
  return { tool: null, action: { type: 'other' }, input: info };
}

export const windsurf: ClientAdapter = {
  client: 'windsurf',
  parse(p) {
    const name = str(p.agent_action_name) ?? '';
    const info = obj(p.tool_info);
    const cwd = str(info.cwd) ?? process.cwd();
    const { tool, action, input } = windsurfAction(name, info, cwd);
    return { client: 'windsurf', kind: own(KINDS, name) ?? 'other', name, session: str(p.trajectory_id), agentId: null, cwd, tool, action, toolInput: input, source: null, stopHookActive: false };
  },
  // exit 2 refuses, with the reason on stderr; nothing else is read
  render: exitRefusal(),
};

export const record: ClientRecord = clientRecord({
  name: 'windsurf',
  agent: 'windsurf',
  home: { dir: '.codeium/windsurf' },
  hookFiles: [
    { scope: 'project', file: WINDSURF_HOOKS_FILE },
    { scope: 'user', file: '.codeium/windsurf/hooks.json' },
    // JetBrains
    { scope: 'user', file: '.codeium/hooks.json' },
    { scope: 'system', file: '/etc/windsurf/hooks.json' },
  ],
  // no tool names: its hooks are per kind of action, and the reading kinds are not wired
  readOnly: [],
  routing: 'events',
  // its pre_mcp_tool_use names the server and the tool; the guard reads them as mcp_<server>_<tool>
  mcpNames: 'mcp_<server>_<tool>',
  payload: 'agent_action_name (pre_run_command, pre_write_code, pre_mcp_tool_use), trajectory_id, execution_id, tool_info',
  block: 'exit 2, the reason on stderr',
  contextBeforeTool: false,
  probes: (cwd, command) => [['pre_run_command', { agent_action_name: 'pre_run_command', trajectory_id: PROBE_SESSION, execution_id: 'doctor', timestamp: new Date().toISOString(), tool_info: { command_line: command, cwd } }]],
  adapter: windsurf,
  wiring,
});
