// Claude Code (and Codex, which speaks the same wire format): PascalCase events, hookSpecificOutput answers.
import { KINDS, shapedAdapter } from './common';
import { allBut, claudeEvents, claudeProbe, clientRecord, type ClientRecord, type FrontFacts } from './record';
import { sessionVarOf } from './names';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

/**
 * The tools Claude Code (2.1.328) ships that cannot write or run anything: reading, searching, the web, its todo and
 * task lists, subagents (whose own calls reach the hooks), plan mode, its questions and MCP resources. Every other
 * tool (Bash, the file tools, Monitor, Workflow, Skill, every MCP server's) goes to the guard. A matcher is also tested
 * against a tool's old names (Task for Agent): both are here.
 */
const READ_ONLY = [
  'Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate',
  'TaskOutput', 'BashOutput', 'Agent', 'Task', 'ListAgents', 'AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'ToolSearch', 'ListMcpResourcesTool',
  'ReadMcpResourceTool', 'ReadMcpResourceDirTool',
] as const;
/** The tools whose payload is one short line (Wiring.split): Bash's command, Edit's old and new strings. */
const LINE = ['Bash', 'Edit'];

export const wiring: Wiring = {
  client: 'claude-code',
  format: 'settings',
  settings: '.claude/settings.json',
  // No PostToolUse: PreToolUse records what a call names (confirmed later by the file's state) and shows its
  // warnings to the model itself, so a tool call pays one hook process.
  // PreToolUse: every tool but the read-only ones (Claude Code reads a matcher that is not plain names as a regex,
  // unanchored); SessionEnd ends the session's lease and claims (`claude -p` sends it at exit too, reason "other")
  events: claudeEvents(READ_ONLY),
  // hooks run as `/bin/sh -c <command>` (execve traces): that sh runs the sh front itself (`.`: no second shell)
  sh: true,
  // a Bash call's payload is a few hundred bytes, an Edit's seldom more than a few KB (old and new strings): their own
  // group, whose front reads it with sh's `read`, not `cat` (a Write's, a whole file, and MultiEdit's stay with `cat`)
  split: {
    event: 'PreToolUse',
    line: LINE,
    get rest() {
      return allBut([...READ_ONLY, ...LINE]);
    },
  },
  timeout: HOOK_TIMEOUT_S,
  named: false,
  notes: 'CLAUDE.md',
  skills: '.claude/skills',
};

/** What the sh front reads of Claude Code's calls (src/clients/front.ts). */
export const front: FrontFacts = {
  keys: { session: 'session_id', tool: 'tool_name', event: 'hook_event_name', input: 'tool_input' },
  events: KINDS,
  tools: { Bash: 'command', Write: 'write', Edit: 'file_path', MultiEdit: 'file_path' },
};

export const claude = shapedAdapter('claude-code', { kinds: KINDS });

/**
 * Claude Code's OS sandbox (2.1.328; bubblewrap and socat on Linux): its settings' `sandbox.enabled` turns it on for
 * the Bash tool, and `sandbox.filesystem.denyWrite` (paths relative to the project, `~/…`, absolute; a missing one is
 * denied too, so nothing can be created there) adds to what it always keeps read-only (.claude/, .git/hooks,
 * .git/config, everything outside the project): src/install/sandbox.ts.
 */
const SANDBOX = { enabled: ['sandbox', 'enabled'], denyWrite: ['sandbox', 'filesystem', 'denyWrite'] } as const;

export const record: ClientRecord = clientRecord({
  name: 'claude-code',
  agent: 'claude',
  home: { variable: 'CLAUDE_CONFIG_DIR', dir: '.claude' },
  hookFiles: [
    { scope: 'project', file: '.claude/settings.json' },
    { scope: 'local', file: '.claude/settings.local.json' },
    { scope: 'user', file: '$CLAUDE_CONFIG_DIR/settings.json' },
    { scope: 'user', file: '$CLAUDE_CONFIG_DIR/settings.local.json' },
    { scope: 'system', file: '/etc/claude-code/managed-settings.json' },
  ],
  // project hooks run with no trust step
  trustFiles: [],
  readOnly: READ_ONLY,
  routing: 'matcher',
  mcpNames: 'mcp__<server>__<tool>',
  sessionVar: sessionVarOf('claude-code'),
  shellSession: 'as-hook',
  payload: 'PascalCase hook_event_name, session_id, tool_name, tool_input',
  block: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":…}}',
  contextBeforeTool: true,
  runsHandoffRewrite: true,
  // CLAUDE_PID, checked to be an ancestor
  pidVariable: 'CLAUDE_PID',
  sandbox: SANDBOX,
  probes: claudeProbe('Bash'),
  adapter: claude,
  wiring,
  front,
  plugin: {
    word: 'plugin',
    title: 'Claude Code',
    folder: 'claude-plugin',
    source: 'claude-marketplace',
    root: '${CLAUDE_PLUGIN_ROOT}',
    files: (m) => ({
      '.claude-plugin/plugin.json': { name: m.name, version: m.version, description: m.description, author: { name: 'git-handoff contributors' }, license: m.license, keywords: ['git', 'handoff', 'hooks'] },
    }),
    hooksHeader: { description: 'git-handoff guard: refuses moves of handoff refs and files owned by another session; the startup view' },
    folders: ['plugins', 'plugins/cache', 'plugins/marketplaces'],
    homeFiles: ['.claude.json'],
    // the plugin is `<name>@<name>`: in a marketplace of its own name
    rewrites: (name) => [
      { file: 'settings.json', ours: [['enabledPlugins', `${name}@${name}`], ['extraKnownMarketplaces', name]], changedBy: 'Claude Code removed the plugin from it' },
      { file: 'plugins/known_marketplaces.json', ours: [[name]] },
      { file: 'plugins/installed_plugins.json', ours: [['plugins', `${name}@${name}`], ['version']] },
    ],
  },
});
