// VS Code's agent: Claude Code's or Copilot's hooks files, its own payload and tools (docs/clients.md, VS Code).
import path from 'node:path';
import { commonToolAction, obj, own, str, unknownShape, type ClientAdapter, type Decision, type EventKind, type GuardEvent, type ToolAction } from './event';
import { record as claudeRecord } from './claude';
import { KINDS, renderClaudeLike } from './common';
import { wiredWithGuard } from './wiring';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';

/** VS Code's events (its hooks reference): Claude Code's names, and three of its own with nothing to judge. */
const VSCODE_KINDS: Record<string, EventKind> = { ...KINDS, UserPromptSubmit: 'other', SubagentStart: 'other', SubagentStop: 'other' };

/** Events only VS Code's agent sends with an ISO `timestamp` and no `permission_mode` (Gemini CLI's are BeforeTool …). */
const VSCODE_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'Stop', 'PreCompact']);

type Shape = 'shell' | 'create' | 'replace' | 'multi-replace' | 'insert' | 'files' | 'notebook' | 'patch' | 'directory' | 'read';

/** Its tools by shape: the names the model calls, those its docs show, and Claude Code's where VS Code passes them on. */
const SHAPES: Record<Exclude<Shape, 'read'>, string[]> = {
  shell: ['run_in_terminal', 'runInTerminal', 'runTerminalCommand', 'Bash'],
  create: ['create_file', 'createFile'],
  replace: ['replace_string_in_file', 'replaceString'],
  'multi-replace': ['multi_replace_string_in_file', 'multiReplaceString'],
  insert: ['insert_edit_into_file', 'insertEdit'],
  files: ['editFiles', 'edit_files'],
  notebook: ['edit_notebook_file', 'editNotebook'],
  patch: ['apply_patch', 'applyPatch'],
  directory: ['create_directory', 'createDirectory'],
};

/** Its tools that only read or ask (their paths are not judged). */
const READ_ONLY = [
  'read_file', 'readFile', 'list_dir', 'listDirectory', 'file_search', 'findFiles', 'grep_search', 'findTextInFiles', 'semantic_search', 'codebase', 'get_errors',
  'problems', 'get_changed_files', 'changes', 'view_image', 'fetch_webpage', 'fetch', 'get_terminal_output', 'getTerminalOutput', 'terminal_last_command',
  'terminal_selection', 'test_failure', 'test_search', 'search_workspace_symbols', 'get_vscode_api', 'get_project_setup_info', 'get_search_view_results',
  'read_notebook_cell_output', 'copilot_getNotebookSummary', 'manage_todo_list', 'tool_search', 'vscode_askQuestions',
];

const TOOLS: Record<string, Shape> = Object.fromEntries([...Object.entries(SHAPES).flatMap(([shape, tools]) => tools.map((t) => [t, shape])), ...READ_ONLY.map((t) => [t, 'read'])]);

/** The file paths a `files` tool names: strings, or objects with a path (`{filePath}`, `{path}`, `{uri}`). */
const filesOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v : []).flatMap((f) => (typeof f === 'string' ? [f] : (str(obj(f).filePath) ?? str(obj(f).path) ?? str(obj(f).uri) ?? [])));

/** A VS Code tool call as the action the rules judge; a tool or argument shape it does not know is read as unknown. */
function vscodeToolAction(tool: string | null, input: Record<string, unknown>, cwd: string): ToolAction {
  const shape = tool === null ? undefined : own(TOOLS, tool);
  const path = str(input.filePath) ?? str(input.file_path) ?? str(input.path);
  switch (shape) {
    case 'shell': {
      const command = str(input.command);
      return command === null ? unknownShape(tool, input) : { type: 'shell', command, cwd };
    }
    case 'create':
      return path === null ? unknownShape(tool, input) : { type: 'write', path, content: str(input.content) ?? '' };
    case 'replace':
      return path === null ? unknownShape(tool, input) : { type: 'edit', path, edits: [{ oldText: str(input.oldString) ?? '', newText: str(input.newString) ?? '' }] };
    case 'multi-replace': {
      const each = (Array.isArray(input.replacements) ? input.replacements : []).map(obj);
      const paths = [...new Set(each.map((r) => str(r.filePath) ?? str(r.file_path)))];
      // one file: its edits; several (or one unnamed): every file named, judged as written
      if (paths.length === 1 && paths[0] !== null) return { type: 'edit', path: paths[0], edits: each.map((r) => ({ oldText: str(r.oldString) ?? '', newText: str(r.newString) ?? '' })) };
      return unknownShape(tool, input);
    }
    case 'insert':
      // the new text of a region, `...existing code...` standing for the rest: what line 1 becomes cannot be known
      return path === null ? unknownShape(tool, input) : { type: 'edit', path, edits: [{ oldText: '', newText: str(input.code) ?? '' }] };
    case 'notebook':
      return path === null ? unknownShape(tool, input) : { type: 'edit', path, edits: [{ oldText: '', newText: [input.newCode].flat().filter((x) => typeof x === 'string').join('\n') }] };
    case 'files': {
      const files = filesOf(input.files);
      return files.length ? { type: 'paths', paths: files } : unknownShape(tool, input);
    }
    case 'patch':
      return commonToolAction('apply_patch', input, cwd);
    case 'directory': {
      const dir = str(input.dirPath) ?? path;
      return dir === null ? unknownShape(tool, input) : { type: 'paths', paths: [dir] };
    }
    case 'read':
      return { type: 'other' };
    default:
      // Claude Code's own tool names (VS Code passes some on), then any other tool as an unknown shape
      return commonToolAction(tool, input, cwd);
  }
}

/** A payload VS Code's agent sent: `hookEventName` (1.110), or Claude Code's event with an ISO `timestamp` and its own marks. */
export function isVSCodePayload(p: Record<string, unknown>): boolean {
  if (typeof p.hookEventName === 'string' && p.hook_event_name === undefined) return true;
  if (typeof p.hook_event_name !== 'string' || typeof p.timestamp !== 'string') return false;
  if (p.permission_mode !== undefined || p.prompt_id !== undefined || p.turn_id !== undefined) return false;
  // a tool event always carries the call's id, any other its transcript, `<storage>/transcripts/<session>.jsonl`
  // (Copilot CLI's through this wiring have no call id, and their transcript is session-state/<id>/events.jsonl)
  if (p.tool_name !== undefined ? p.tool_use_id === undefined : !/[\\/]transcripts[\\/][^\\/]+\.jsonl$/.test(str(p.transcript_path) ?? '')) return false;
  return VSCODE_EVENTS.has(p.hook_event_name) || (p.hook_event_name === 'SessionStart' && p.source === 'new');
}

/** Whether Claude Code's wiring is in the workspace: VS Code's agent runs it too, and it answers, not the Copilot wiring. */
export const claudeWired = (cwd: string): boolean => wiredWithGuard(path.join(cwd, claudeRecord.wiring!.settings));

function parseVSCode(p: Record<string, unknown>): GuardEvent {
  const name = str(p.hook_event_name) ?? str(p.hookEventName) ?? '';
  const cwd = str(p.cwd) ?? process.cwd();
  const tool = str(p.tool_name) ?? str(p.toolName);
  const toolInput = obj(p.tool_input ?? p.toolInput);
  const source = str(p.source);
  return {
    client: 'vscode',
    kind: own(VSCODE_KINDS, name) ?? 'other',
    name,
    session: str(p.session_id) ?? str(p.sessionId),
    agentId: str(p.agent_id),
    cwd,
    tool,
    action: vscodeToolAction(tool, toolInput, cwd),
    toolInput,
    // its only SessionStart is a new session's
    source: source === 'new' ? 'startup' : source,
    stopHookActive: p.stop_hook_active === true,
  };
}

export const vscode: ClientAdapter = {
  client: 'vscode',
  parse: parseVSCode,
  render(e: GuardEvent, d: Decision): string | null {
    // a Stop is kept going only by a decision inside hookSpecificOutput
    if (e.kind === 'stop') return d.followUp ? JSON.stringify({ decision: 'block', reason: d.followUp, hookSpecificOutput: { hookEventName: e.name, decision: 'block', reason: d.followUp } }) : null;
    return renderClaudeLike(e, d);
  },
};

export const record: ClientRecord = clientRecord({
  name: 'vscode',
  agent: null,
  // chat.hookFilesLocations by default: Claude Code's files and Copilot's folder
  hookFiles: [
    { scope: 'project', file: '.claude/settings.json' },
    { scope: 'local', file: '.claude/settings.local.json' },
    { scope: 'user', file: '$CLAUDE_CONFIG_DIR/settings.json' },
  ],
  hookDirs: [{ scope: 'project', file: '.github/hooks' }],
  readOnly: READ_ONLY,
  routing: 'every-tool',
  mcpNames: 'mcp_<server>_<tool>',
  // its terminal exports none: a git handoff command gets the session by updatedInput
  sessionVar: null,
  payload: "Claude Code's events with an ISO timestamp, hookEventName/sessionId (1.110) or hook_event_name/session_id, tool_use_id, its own tools",
  block: "Claude Code's hookSpecificOutput (a Stop's block inside it too)",
  contextBeforeTool: true,
  runsHandoffRewrite: true,
  readsClaude: 'by default: chat.hookFilesLocations, every tool, matchers ignored',
  // each shape it has sent: run_in_terminal snake_case (1.111 on), runInTerminal camelCase (1.110)
  probes: (cwd, command) => {
    const common = { timestamp: new Date().toISOString(), cwd, tool_input: { command, explanation: 'git-handoff doctor probe', isBackground: false }, tool_use_id: 'git-handoff-doctor' };
    return [
      ['run_in_terminal', { ...common, hook_event_name: 'PreToolUse', session_id: PROBE_SESSION, tool_name: 'run_in_terminal' }],
      ['runInTerminal, VS Code 1.110', { ...common, hookEventName: 'PreToolUse', sessionId: PROBE_SESSION, tool_name: 'runInTerminal' }],
    ];
  },
  adapter: vscode,
  wiring: null,
});
