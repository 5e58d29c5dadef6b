// Codex: Claude Code's hook format, told apart by `turn_id`; file edits arrive as one `apply_patch` envelope.
import { claudeEvents, claudeProbe, clientRecord, type ClientRecord } from './record';

/** The tools Codex (0.169.0) ships that cannot write or run anything, as its hooks name them. */
const READ_ONLY = [
  'view_image', 'list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource', 'request_user_input', 'get_goal', 'update_plan', 'tool_search',
  'web_search', 'read_file', 'list_dir', 'grep_files',
] as const;

export const record: ClientRecord = clientRecord({
  name: 'codex',
  home: { variable: 'CODEX_HOME', dir: '.codex' },
  hookFiles: {
    project: ['.codex/hooks.json', '.codex/config.toml'],
    user: ['$CODEX_HOME/hooks.json', '$CODEX_HOME/config.toml'],
    system: ['/etc/codex/managed_config.toml'],
  },
  // the project and each hook trusted (trust_level, hooks.state trusted_hash): ./codex-trust.ts
  trustFiles: { user: ['$CODEX_HOME/config.toml'] },
  readOnly: READ_ONLY,
  // its shell tool exports CODEX_THREAD_ID to every command; its hooks get none
  shellSession: 'always',
  runsHandoffRewrite: true,
  patchPrograms: ['apply_patch', 'applypatch'],
  isProcess: (argv, comm) => comm === 'codex' || /(^|\/)codex$/.test(argv[0] ?? ''),
  // exec_command keeps the command's stdin open: write_stdin types into it later, and no hook sees that
  stdinUnseen: true,
  probes: claudeProbe('Bash', () => ({ turn_id: 'doctor' })),
  wiring: {
    format: 'settings',
    settings: '.codex/hooks.json',
    // no PostToolUse: Codex shows a PreToolUse additionalContext to the model
    events: claudeEvents(READ_ONLY),
    // hooks run as `bash -c <command>`
    bash: true,
    // Codex runs a SessionEnd hook for at most 3 s, and warns at every start of a longer one; its trust hash counts 3
    eventTimeouts: { SessionEnd: 3 },
    skills: '.agents/skills',
  },
  front: { tools: { Bash: 'command', shell: 'command', exec_command: 'command', Write: 'write', Edit: 'file_path', apply_patch: 'patch' } },
});
