// Codex: Claude Code's hook wire format (PreToolUse/PostToolUse/SessionStart/Stop), told apart by `turn_id`;
// file edits arrive as one `apply_patch` envelope.
import { front as claudeFront } from './claude';
import { KINDS, shapedAdapter } from './common';
import { claudeEvents, claudeProbe, clientRecord, type ClientRecord, type FrontFacts } from './record';
import { sessionVarOf } from './names';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

/**
 * The tools Codex (0.169.0) ships that cannot write or run anything, as its hooks name them: images and MCP resources
 * read, questions, goals and plans, tool search, web search and its reading file tools. Its shell (`Bash` to the hooks,
 * whatever the model called: exec_command, shell), apply_patch, the subagent tools and every MCP server's tool
 * (`mcp__<server>__<tool>`) go to the guard. Its matchers are Rust regexes: no look-around (allBut has none).
 */
const READ_ONLY = [
  'view_image', 'list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource', 'request_user_input', 'get_goal', 'update_plan', 'tool_search',
  'web_search', 'read_file', 'list_dir', 'grep_files',
] as const;

export const wiring: Wiring = {
  client: 'codex',
  format: 'settings',
  settings: '.codex/hooks.json',
  // No PostToolUse, as for Claude Code: Codex shows a PreToolUse additionalContext to the model (observed with 0.169).
  events: claudeEvents(READ_ONLY),
  // hooks run as `bash -c <command>` (execve traces)
  bash: true,
  timeout: HOOK_TIMEOUT_S,
  // Codex 0.169.0 runs a SessionEnd hook for at most 3 s while it exits, and says "clamping SessionEnd hook timeout to
  // 3s" at every start for a longer one (observed); its trust hash counts it as 3 either way (./codex-trust.ts)
  eventTimeouts: { SessionEnd: 3 },
  named: false,
  notes: 'AGENTS.md',
  // Codex reads a project's skills from .agents/skills, as its binary showed
  skills: '.agents/skills',
};

/** What the sh front reads of Codex's calls: Claude Code's payload, its shell tool by its names old and new, and apply_patch. */
export const front: FrontFacts = {
  keys: claudeFront.keys,
  events: claudeFront.events,
  tools: { Bash: 'command', shell: 'command', exec_command: 'command', Write: 'write', Edit: 'file_path', apply_patch: 'patch' },
};

export const codex = shapedAdapter('codex', { kinds: KINDS });

export const record: ClientRecord = clientRecord({
  name: 'codex',
  agent: 'codex',
  home: { variable: 'CODEX_HOME', dir: '.codex' },
  hookFiles: [
    { scope: 'project', file: '.codex/hooks.json' },
    { scope: 'project', file: '.codex/config.toml' },
    { scope: 'user', file: '$CODEX_HOME/hooks.json' },
    { scope: 'user', file: '$CODEX_HOME/config.toml' },
    { scope: 'system', file: '/etc/codex/managed_config.toml' },
  ],
  // the project and each hook trusted (trust_level, hooks.state trusted_hash): ./codex-trust.ts
  trustFiles: [{ scope: 'user', file: '$CODEX_HOME/config.toml' }],
  readOnly: READ_ONLY,
  routing: 'matcher',
  mcpNames: 'mcp__<server>__<tool>',
  sessionVar: sessionVarOf('codex'),
  // its shell tool exports CODEX_THREAD_ID (the payload's session_id) to every command; its hooks get none (0.169.0)
  shellSession: 'always',
  payload: "Claude Code's, with turn_id (tool events), tool Bash or apply_patch (the patch in tool_input.command), a rollout-*.jsonl transcript",
  block: "Claude Code's",
  contextBeforeTool: true,
  runsHandoffRewrite: true,
  patchPrograms: ['apply_patch', 'applypatch'],
  // its native binary (observed with 0.169.0)
  isProcess: (argv, comm) => comm === 'codex' || /(^|\/)codex$/.test(argv[0] ?? ''),
  // exec_command keeps the command's stdin open: write_stdin types into it later, and no hook sees that
  stdinUnseen: true,
  probes: claudeProbe('Bash', () => ({ turn_id: 'doctor' })),
  adapter: codex,
  wiring,
  front,
});
