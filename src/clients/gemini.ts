// Gemini CLI: BeforeTool/AfterTool/SessionStart/AfterAgent/PreCompress; answers with top-level decision/reason,
// a rewritten input in hookSpecificOutput.tool_input, context in hookSpecificOutput.additionalContext.
import type { EventKind } from './event';
import { claudeProbe, clientRecord, type ClientRecord, routedEvents } from './record';
import type { WiringInput } from './wiring';

/** The tools Gemini CLI (0.61.0) ships that cannot write or run anything. */
const READ_ONLY = [
  'read_file', 'read_many_files', 'list_directory', 'glob', 'grep_search', 'search_file_content', 'google_web_search', 'web_fetch', 'write_todos', 'ask_user',
  'get_internal_docs', 'read_mcp_resource', 'list_mcp_resources', 'tracker_get_task', 'tracker_list_tasks',
] as const;

/** Its shell tool: a warning for the model rides in the command's output (render), so AfterTool is not wired for it. */
const SHELL = 'run_shell_command';

const wiring = {
  format: 'settings',
  settings: '.gemini/settings.json',
  // AfterTool only carries a warning BeforeTool could not show the model; the sh front answers it alone otherwise.
  events: routedEvents(READ_ONLY, ['BeforeTool', 'AfterTool'], ['SessionStart', 'AfterAgent', 'PreCompress', 'SessionEnd'], { AfterTool: [SHELL] }),
  // hooks run as `bash -c <command>`
  bash: true,
  after: 'AfterTool',
  timeoutMs: true,
  named: true,
  notes: 'GEMINI.md',
  // it reads .agents/skills ahead of .gemini/skills (0.61.0 warns of a conflict where both hold the skill): one copy there
  skills: '.agents/skills',
  formerSkills: '.gemini/skills',
} satisfies WiringInput;

const CONTEXT = { hookSpecificOutput: { hookEventName: '$name', additionalContext: '$context' }, systemMessage: '$notice?' };

const KINDS: Record<string, EventKind> = {
  BeforeTool: 'pre-tool',
  AfterTool: 'post-tool',
  SessionStart: 'session-start',
  AfterAgent: 'stop',
  PreCompress: 'pre-compact',
  SessionEnd: 'session-end',
};

/** The extension's context file: short, it points to the skill. */
const EXTENSION_CONTEXT = [
  '# Handoff notes (git-handoff)',
  '',
  'Handoff notes between sessions live in git under `refs/handoffs/`, owned by the session that wrote them.',
  'Use the `handoff` skill (or `/handoff write|boot|status`) to write one before you stop or when context is',
  'compacted, and to read what earlier sessions left (`git handoff boot`). A refused command names the owner:',
  'write your own topic, or take over with `--take-over --reason`. Never move `refs/handoffs/*` by hand.',
  '',
].join('\n');

const HANDOFF_COMMAND = [
  'description = "Write, read or check git-handoff notes: /handoff write | boot | status | <topic>"',
  'prompt = """',
  'Follow the `handoff` skill (activate it) with the argument: {{args}}',
  'With no argument: if this session changed files, write or update its handoff; otherwise run `git handoff boot`.',
  '"""',
  '',
].join('\n');

export const record: ClientRecord = clientRecord({
  name: 'gemini-cli',
  home: { dir: '.gemini' },
  hookFiles: { project: ['.gemini/settings.json'], user: ['.gemini/settings.json'], system: ['/etc/gemini-cli/settings.json'] },
  // a project's own hooks run only in a trusted folder (folder trust is on unless settings.json turns it off)
  trustFiles: { user: ['.gemini/trustedFolders.json'] },
  readOnly: READ_ONLY,
  mcpNames: 'mcp_<server>_<tool>',
  // 0.61.0, trusted folder or not (test/clients/gemini-cli.clients.test.ts)
  shellHooksOff: true,
  runsAnyRewrite: true,
  contextInShellOutput: true,
  shape: { kinds: KINDS, source: ['source', 'trigger', 'reason'] },
  answer: {
    deny: { decision: 'deny', reason: '$deny' },
    // BeforeTool has no model-visible context: a warning goes to the person (and to the model in a shell call's output)
    allow: { hookSpecificOutput: { hookEventName: '$name', tool_input: '$input' }, systemMessage: '$warning?' },
    'post-tool': CONTEXT,
    'session-start': CONTEXT,
    stop: { decision: 'deny', reason: '$followUp' },
    'pre-compact': { systemMessage: '$context' },
  },
  contextBeforeTool: false,
  // observed with 0.61.0
  escapesContext: true,
  // node running its gemini bundle; it relaunches itself, and the nearest one is the CLI proper
  isProcess: (argv) => argv.slice(0, 3).some((a) => /(^|\/)gemini(\.js)?$/.test(a)),
  probes: claudeProbe('run_shell_command', () => ({ hook_event_name: 'BeforeTool', timestamp: new Date().toISOString() })),
  wiring,
  front: { tools: { [SHELL]: 'command', write_file: 'write', replace: 'file_path' } },
  plugin: {
    word: 'extension',
    title: 'Gemini CLI',
    folder: 'gemini-extension',
    source: 'gemini-extension',
    root: '${extensionPath}',
    files: (m) => ({
      'gemini-extension.json': { name: m.name, version: m.version, description: m.description, contextFileName: wiring.notes },
      [wiring.notes]: EXTENSION_CONTEXT,
      'commands/handoff.toml': HANDOFF_COMMAND,
    }),
    folders: ['extensions', 'history', 'tmp'],
    rewrites: (name, source) => [
      // it trusts the folder it installs from
      { file: 'trustedFolders.json', ours: [[source]] },
      // its top-level signature covers the store: restored with the bytes, ignored in the comparison
      { file: 'extension_integrity.json', ours: [['store', name], ['signature']] },
      { file: 'extensions/extension-enablement.json', ours: [[name]] },
      { file: 'projects.json', ours: [['projects', source]] },
    ],
  },
});
