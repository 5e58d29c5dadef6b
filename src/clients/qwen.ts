// Qwen Code (observed with 0.24.4, ../shared/tools/qwen-offline): Claude Code's hook format read from
// `.qwen/settings.json` (never `.claude/settings.json`), with Qwen's own tool names and snake_case inputs
// (`run_shell_command {command}`, `write_file {file_path, content}`, `edit {file_path, old_string, new_string}`);
// it obeys Claude Code's hookSpecificOutput answers (a flat permissionDecision is ignored). Hooks and the shell
// get QWEN_CODE_SESSION_ID. Folder trust is off by default; when the user turns it on, an untrusted folder runs
// no hook at all.
import { str, unknownShape } from './event';
import { front as claudeFront } from './claude';
import { KINDS, shapedAdapter, type ToClaude } from './common';
import { claudeEvents, claudeProbe, clientRecord, type ClientRecord, type FrontFacts } from './record';
import { sessionVarOf } from './names';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

/**
 * The tools Qwen Code (0.24.4) ships that cannot write or run anything: reading (images too), searching, the web, its
 * todo list, its questions, tool search, MCP resources, lists of its agents, crons and tasks, and subagents (whose own
 * calls reach the hooks). Every other tool goes to the guard: run_shell_command, monitor (it runs any shell command),
 * exec (JavaScript), the file tools, every MCP server's `mcp__<server>__<tool>`. Its matchers are JavaScript regexes,
 * unanchored (a matcher of plain names joined by `|` is tried name by name first).
 */
const READ_ONLY = [
  'read_file', 'read_many_files', 'zoom_image', 'grep_search', 'glob', 'list_directory', 'web_fetch', 'web_search', 'todo_write', 'ask_user_question',
  'tool_search', 'read_mcp_resource', 'list_agents', 'cron_list', 'task_list', 'agent',
] as const;

export const wiring: Wiring = {
  client: 'qwen-code',
  format: 'settings',
  settings: '.qwen/settings.json',
  // PreToolUse's additionalContext reaches the model in Qwen Code, so no PostToolUse; matchers are regexes
  // SessionEnd: wired for when it fires (it did not in a `qwen -p` turn with 0.24.4)
  events: claudeEvents(READ_ONLY),
  // hooks run as `bash -c <command>` (its hookRunner's getShellConfiguration off Windows)
  bash: true,
  // seconds (a value of 1000 or more is read as milliseconds, with a warning)
  timeout: HOOK_TIMEOUT_S,
  named: true,
  notes: 'QWEN.md',
  // Qwen Code reads a project's skills from .agents/skills too (the skill's description reached the model with 0.24.4)
  skills: '.agents/skills',
};


// Qwen's tool names onto Claude Code's (run_shell_command and write_file are read as they are): monitor runs any
// shell command it is given (`{command, directory}`), as run_shell_command does; exec runs the JavaScript it is given
// (`{source}`), judged as node would run it
const TOOLS: Record<string, ToClaude> = {
  edit: (a) => ({ tool: 'Edit', input: a }),
  notebook_edit: (a) => ({ tool: 'NotebookEdit', input: a }),
  monitor: (a) => ({ tool: 'run_shell_command', input: a }),
  exec: (a) => unknownShape('exec', { code: str(a.source) ?? '', language: 'javascript' }),
};

/** What the sh front reads of Qwen Code's calls: Claude Code's payload with Qwen's tool names. */
export const front: FrontFacts = {
  keys: claudeFront.keys,
  events: KINDS,
  tools: { run_shell_command: 'command', write_file: 'write', edit: 'file_path', replace: 'file_path' },
};

export const qwen = shapedAdapter('qwen-code', { kinds: KINDS, tools: TOOLS, source: ['source'] });

export const record: ClientRecord = clientRecord({
  name: 'qwen-code',
  agent: 'qwen',
  home: { dir: '.qwen' },
  hookFiles: [
    { scope: 'project', file: '.qwen/settings.json' },
    { scope: 'user', file: '.qwen/settings.json' },
    { scope: 'system', file: '/etc/qwen-code/settings.json' },
  ],
  // off by default; with security.folderTrust.enabled, an untrusted folder runs no hook
  trustFiles: [{ scope: 'user', file: '.qwen/trustedFolders.json' }],
  readOnly: READ_ONLY,
  routing: 'matcher',
  mcpNames: 'mcp__<server>__<tool>',
  sessionVar: sessionVarOf('qwen-code'),
  shellSession: 'as-hook',
  payload: "Claude Code's, with Qwen's tools (run_shell_command {command}, write_file {file_path, content}, edit {file_path, old_string, new_string}), permission_mode, prompt_id",
  block: "Claude Code's (a flat permissionDecision is ignored)",
  contextBeforeTool: true,
  probes: claudeProbe('run_shell_command'),
  adapter: qwen,
  wiring,
  front,
});
