// VS Code's agent: Claude Code's or Copilot's hooks files, its own payload and tools (docs/clients.md, VS Code).
import path from 'node:path';
import { editOn, obj, str, textEdit, unknownShape, type EventKind } from './event';
import { record as claudeRecord } from './claude';
import { CLAUDE_ANSWER, KINDS, onPath, type ToClaude } from './common';
import { wiredWithGuard } from './wiring';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';

/** VS Code's events (its hooks reference): Claude Code's names, and three of its own with nothing to judge. */
const VSCODE_KINDS: Record<string, EventKind> = { ...KINDS, UserPromptSubmit: 'other', SubagentStart: 'other', SubagentStop: 'other' };

/** Events only VS Code's agent sends with an ISO `timestamp` and no `permission_mode` (Gemini CLI's are BeforeTool …). */
const VSCODE_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'Stop', 'PreCompact']);

/** Its tools that only read or ask (their paths are not judged). */
const READ_ONLY = [
  'read_file', 'readFile', 'list_dir', 'listDirectory', 'file_search', 'findFiles', 'grep_search', 'findTextInFiles', 'semantic_search', 'codebase', 'get_errors',
  'problems', 'get_changed_files', 'changes', 'view_image', 'fetch_webpage', 'fetch', 'get_terminal_output', 'getTerminalOutput', 'terminal_last_command',
  'terminal_selection', 'test_failure', 'test_search', 'search_workspace_symbols', 'get_vscode_api', 'get_project_setup_info', 'get_search_view_results',
  'read_notebook_cell_output', 'copilot_getNotebookSummary', 'manage_todo_list', 'tool_search', 'vscode_askQuestions',
];

/** The file paths a `files` tool names: strings, or objects with a path (`{filePath}`, `{path}`, `{uri}`). */
const filesOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v : []).flatMap((f) => (typeof f === 'string' ? [f] : (str(obj(f).filePath) ?? str(obj(f).path) ?? str(obj(f).uri) ?? [])));

const PATH = ['filePath', 'file_path', 'path'];

/**
 * Its tools by the names the model calls and those its docs show (Claude Code's, which it passes on, read as Claude
 * Code's), each as the action the rules judge; null: its arguments in a shape the guard does not know.
 */
const SHAPES: Array<[string[], ToClaude]> = [
  [['run_in_terminal', 'runInTerminal', 'runTerminalCommand', 'Bash'], (a) => (str(a.command) === null ? null : { tool: 'Bash', input: { command: a.command } })],
  [['create_file', 'createFile'], onPath(PATH, (path, a) => ({ type: 'write', path, content: str(a.content) ?? '' }))],
  [['replace_string_in_file', 'replaceString'], onPath(PATH, (path, a) => editOn(path, a.oldString, a.newString))],
  [
    ['multi_replace_string_in_file', 'multiReplaceString'],
    (a) => {
      const each = (Array.isArray(a.replacements) ? a.replacements : []).map(obj);
      const paths = [...new Set(each.map((r) => str(r.filePath) ?? str(r.file_path)))];
      // one file: its edits; several (or one unnamed): every file named, judged as written
      if (paths.length !== 1 || paths[0] === null) return null;
      return { type: 'edit', path: paths[0], edits: each.map((r) => textEdit(r.oldString, r.newString)) };
    },
  ],
  // the new text of a region, `...existing code...` standing for the rest: what line 1 becomes cannot be known
  [['insert_edit_into_file', 'insertEdit'], onPath(PATH, (path, a) => editOn(path, '', a.code))],
  [['editFiles', 'edit_files'], (a) => (filesOf(a.files).length ? { type: 'paths', paths: filesOf(a.files) } : null)],
  [['edit_notebook_file', 'editNotebook'], onPath(PATH, (path, a) => editOn(path, '', [a.newCode].flat().filter((x) => typeof x === 'string').join('\n')))],
  [['apply_patch', 'applyPatch'], (a) => ({ tool: 'apply_patch', input: a })],
  [['create_directory', 'createDirectory'], onPath(['dirPath', ...PATH], (dir) => ({ type: 'paths', paths: [dir] }))],
  [READ_ONLY, () => ({ type: 'other' })],
];

const TOOLS: Record<string, ToClaude> = Object.fromEntries(SHAPES.flatMap(([names, read]) => names.map((n) => [n, (a: Record<string, unknown>) => read(a) ?? unknownShape(n, a)])));

/** A payload VS Code's agent sent: `hookEventName` (1.110), or Claude Code's event with an ISO `timestamp` and its own marks. */
function isVSCodePayload(p: Record<string, unknown>): boolean {
  if (typeof p.hookEventName === 'string' && p.hook_event_name === undefined) return true;
  if (typeof p.hook_event_name !== 'string' || typeof p.timestamp !== 'string') return false;
  if (p.permission_mode !== undefined || p.prompt_id !== undefined || p.turn_id !== undefined) return false;
  // a tool event always carries the call's id, any other its transcript, `<storage>/transcripts/<session>.jsonl`
  // (Copilot CLI's through this wiring have no call id, and their transcript is session-state/<id>/events.jsonl)
  if (p.tool_name !== undefined ? p.tool_use_id === undefined : !/[\\/]transcripts[\\/][^\\/]+\.jsonl$/.test(str(p.transcript_path) ?? '')) return false;
  return VSCODE_EVENTS.has(p.hook_event_name) || (p.hook_event_name === 'SessionStart' && p.source === 'new');
}

export const record: ClientRecord = clientRecord({
  name: 'vscode',
  // chat.hookFilesLocations by default: Claude Code's files and Copilot's folder
  hookFiles: { project: ['.claude/settings.json'], local: ['.claude/settings.local.json'], user: ['$CLAUDE_CONFIG_DIR/settings.json'] },
  hookDirs: { project: ['.github/hooks'] },
  readOnly: READ_ONLY,
  mcpNames: 'mcp_<server>_<tool>',
  shape: {
    kinds: VSCODE_KINDS,
    tools: TOOLS,
    event: ['hook_event_name', 'hookEventName'],
    session: ['session_id', 'sessionId'],
    tool: ['tool_name', 'toolName'],
    input: ['tool_input', 'toolInput'],
    source: ['source'],
    // its only SessionStart is a new session's
    reshape: (p) => (p.source === 'new' ? { ...p, source: 'startup' } : p),
  },
  // a Stop is kept going only by a decision inside hookSpecificOutput
  answer: {
    ...CLAUDE_ANSWER,
    stop: { decision: 'block', reason: '$followUp', hookSpecificOutput: { hookEventName: '$name', decision: 'block', reason: '$followUp' } },
  },
  runsHandoffRewrite: true,
  readsClaude: 'by default: chat.hookFilesLocations, every tool, matchers ignored',
  // it runs Copilot's hooks files too (`.github/hooks`): where Claude Code's wiring is in the workspace, that one answers
  rides: [
    { wiring: 'claude-code', payload: isVSCodePayload },
    { wiring: 'copilot', payload: isVSCodePayload, answeredElsewhere: (e) => wiredWithGuard(path.join(e.cwd, claudeRecord.wiring!.settings)) },
  ],
  // each shape it has sent: run_in_terminal snake_case (1.111 on), runInTerminal camelCase (1.110)
  probes: (cwd, command) => {
    const common = { timestamp: new Date().toISOString(), cwd, tool_input: { command, explanation: 'git-handoff doctor probe', isBackground: false }, tool_use_id: 'git-handoff-doctor' };
    return [
      ['run_in_terminal', { ...common, hook_event_name: 'PreToolUse', session_id: PROBE_SESSION, tool_name: 'run_in_terminal' }],
      ['runInTerminal, VS Code 1.110', { ...common, hookEventName: 'PreToolUse', sessionId: PROBE_SESSION, tool_name: 'runInTerminal' }],
    ];
  },
  wiring: null,
});
