// Qwen Code: Claude Code's hook format in .qwen/settings.json with Qwen's tool names (docs/clients.md, Qwen Code).
import { str, unknownShape } from './event';
import type { ToClaude } from './common';
import { claudeEvents, claudeProbe, clientRecord, type ClientRecord } from './record';

/** The tools Qwen Code (0.24.4) ships that cannot write or run anything (monitor runs shell commands: not here). */
const READ_ONLY = [
  'read_file', 'read_many_files', 'zoom_image', 'grep_search', 'glob', 'list_directory', 'web_fetch', 'web_search', 'todo_write', 'ask_user_question',
  'tool_search', 'read_mcp_resource', 'list_agents', 'cron_list', 'task_list', 'agent',
] as const;

// Qwen's tool names onto Claude Code's: monitor runs a shell command as run_shell_command does, exec runs JavaScript
const TOOLS: Record<string, ToClaude> = {
  edit: (a) => ({ tool: 'Edit', input: a }),
  notebook_edit: (a) => ({ tool: 'NotebookEdit', input: a }),
  monitor: (a) => ({ tool: 'run_shell_command', input: a }),
  exec: (a) => unknownShape('exec', { code: str(a.source) ?? '', language: 'javascript' }),
};

export const record: ClientRecord = clientRecord({
  name: 'qwen-code',
  home: { dir: '.qwen' },
  hookFiles: { project: ['.qwen/settings.json'], user: ['.qwen/settings.json'], system: ['/etc/qwen-code/settings.json'] },
  // off by default; with security.folderTrust.enabled, an untrusted folder runs no hook
  trustFiles: { user: ['.qwen/trustedFolders.json'] },
  readOnly: READ_ONLY,
  shellSession: 'as-hook',
  probes: claudeProbe('run_shell_command'),
  shape: { tools: TOOLS, source: ['source'] },
  wiring: {
    format: 'settings',
    settings: '.qwen/settings.json',
    // PreToolUse's additionalContext reaches the model, so no PostToolUse
    events: claudeEvents(READ_ONLY),
    // hooks run as `bash -c <command>`
    bash: true,
    named: true,
    notes: 'QWEN.md',
    skills: '.agents/skills',
  },
  front: { tools: { run_shell_command: 'command', write_file: 'write', edit: 'file_path', replace: 'file_path' } },
});
