// Claude Code: PascalCase events, hookSpecificOutput answers; the shape most clients speak (./common.ts).
import { CLAUDE_ANSWER } from './common';
import { allBut, claudeEvents, claudeProbe, clientRecord, type ClientRecord } from './record';

/** The tools Claude Code (2.1.328) ships that cannot write or run anything, with old names (Task for Agent) too. */
const READ_ONLY = [
  'Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate',
  'TaskOutput', 'BashOutput', 'Agent', 'Task', 'ListAgents', 'AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'ToolSearch', 'ListMcpResourcesTool',
  'ReadMcpResourceTool', 'ReadMcpResourceDirTool',
] as const;
/** The tools whose payload is one short line (Wiring.split): Bash's command, Edit's old and new strings. */
const LINE = ['Bash', 'Edit'];

export const record: ClientRecord = clientRecord({
  name: 'claude-code',
  home: { variable: 'CLAUDE_CONFIG_DIR', dir: '.claude' },
  hookFiles: {
    project: ['.claude/settings.json'],
    local: ['.claude/settings.local.json'],
    user: ['$CLAUDE_CONFIG_DIR/settings.json', '$CLAUDE_CONFIG_DIR/settings.local.json'],
    system: ['/etc/claude-code/managed-settings.json'],
  },
  readOnly: READ_ONLY,
  shellSession: 'as-hook',
  runsHandoffRewrite: true,
  pidVariable: 'CLAUDE_PID',
  // its OS sandbox (bubblewrap): `sandbox.enabled`, and `sandbox.filesystem.denyWrite` adds read-only paths (src/install/agents.ts)
  sandbox: { enabled: ['sandbox', 'enabled'], denyWrite: ['sandbox', 'filesystem', 'denyWrite'] },
  probes: claudeProbe('Bash'),
  // it reads PreCompact's stdout as plain text (2.1.328): added to the compaction's instructions and shown as the hook's output
  answer: { ...CLAUDE_ANSWER, 'pre-compact': '$context' },
  wiring: {
    format: 'settings',
    settings: '.claude/settings.json',
    // no PostToolUse: PreToolUse shows its warnings to the model itself, so a tool call pays one hook process
    events: claudeEvents(READ_ONLY),
    // hooks run as `/bin/sh -c <command>`: that sh runs the sh front itself
    sh: true,
    split: {
      event: 'PreToolUse',
      line: LINE,
      get rest() {
        return allBut([...READ_ONLY, ...LINE]);
      },
    },
    notes: 'CLAUDE.md',
    skills: '.claude/skills',
  },
  front: { tools: { Bash: 'command', Write: 'write', Edit: 'file_path', MultiEdit: 'file_path' } },
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
