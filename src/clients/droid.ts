// Factory droid (observed with 0.225.2, test/clients/tools/droid): hooks in `.factory/hooks.json` and
// `~/.factory/hooks.json`, events at the top level (no `hooks` key), each Claude Code's groups (`matcher`, `hooks`),
// started with `sh -c`. Its payloads are Claude Code's (`session_id`, `cwd`, `hook_event_name`, `tool_name`,
// `tool_input`; no `tool_use_id`) with its own tools: `Execute {command, …}`, `Create {file_path, content}`, `Edit
// {file_path, old_str, new_str}`, MCP `<server>___<tool>`. It refuses on Claude Code's hookSpecificOutput deny (or exit
// 2) and the model reads `Error: <reason>`; SessionStart's and PostToolUse's additionalContext reach the model (a
// PreToolUse one does not); a Stop block repeats
// for as long as it is given (the guard gives it once). It does not read `.claude/settings.json`, and its hooks and
// shell get no session variable.
import { front as claudeFront } from './claude';
import { editOf, KINDS, shapedAdapter, writeOf, type ToClaude } from './common';
import { claudeProbe, clientRecord, type ClientRecord, type FrontFacts, routedEvents } from './record';
import { afterCommand, filesWiring, HOOK_TIMEOUT_S, hookCommand, type Wiring } from './wiring';

/**
 * The tools droid (0.225.2) ships that cannot write or run anything: reading, listing, searching, a task's output, tool
 * search and the web. Execute, Create, Edit, its subagents and apps (Task, ConnectorSearch), image and droid
 * generation and every MCP tool go to the guard.
 */
const READ_ONLY = ['Read', 'LS', 'Grep', 'Glob', 'TaskOutput', 'ToolSearch', 'WebSearch', 'FetchUrl'] as const;

const DROID_HOOKS_FILE = '.factory/hooks.json';

const TOOLS: Record<string, ToClaude> = {
  Execute: (a) => ({ tool: 'Bash', input: a }),
  Create: (a) => writeOf(a.file_path, a.content),
  Edit: (a) => editOf(a),
};

/**
 * PostToolUse carries a warning PreToolUse could not show the model (droid shows a before-tool context to nobody): sh
 * tests for a pending note first, so it starts nothing while none is (afterCommand).
 */
const EVENTS = routedEvents(READ_ONLY, ['PreToolUse', 'PostToolUse'], ['SessionStart', 'Stop', 'SessionEnd']);

/** A group of Claude Code's shape running `command`, for `event` (with its matcher). */
const group = (matcher: string | undefined, command: string) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] });

export const wiring: Wiring = filesWiring({
  client: 'factory-droid',
  settings: DROID_HOOKS_FILE,
  events: EVENTS,
  after: 'PostToolUse',
  // hooks run as `sh -c <command>` (seen with 0.225.2): that sh runs the sh front itself (shPayloadCommand)
  sh: true,
  files: (command) => [
    { file: DROID_HOOKS_FILE, json: { at: [], entries: Object.fromEntries(Object.entries(EVENTS).map(([e, m]) => [e, [group(m, e === 'PostToolUse' ? afterCommand(command) : hookCommand(wiring, command))]])) } },
  ],
});

/** What the sh front reads of droid's calls: Claude Code's payload with droid's tools (its Edit's path; node reads old_str). */
export const front: FrontFacts = {
  keys: claudeFront.keys,
  events: KINDS,
  tools: { Execute: 'command', Create: 'write', Edit: 'file_path' },
};

export const droid = shapedAdapter('factory-droid', { kinds: KINDS, tools: TOOLS });

export const record: ClientRecord = clientRecord({
  name: 'factory-droid',
  agent: 'droid',
  home: { dir: '.factory' },
  hookFiles: [
    { scope: 'project', file: DROID_HOOKS_FILE },
    // read for hooks where no hooks.json is in that scope
    { scope: 'project', file: '.factory/settings.json' },
    { scope: 'user', file: '.factory/hooks.json' },
    { scope: 'user', file: '.factory/settings.json' },
  ],
  // droid's plugins carry hooks of their own
  pluginDirs: [{ scope: 'user', file: '.factory/plugins' }],
  // `droid exec` ran a repository's hooks with no question
  trustFiles: [],
  readOnly: READ_ONLY,
  routing: 'matcher',
  mcpNames: '<server>___<tool>',
  payload: "Claude Code's (session_id, cwd, PascalCase hook_event_name, no tool_use_id) with droid's tools Execute {command}, Create {file_path, content}, Edit {file_path, old_str, new_str}",
  block: "Claude Code's hookSpecificOutput deny (the model reads `Error: <reason>`, the session goes on)",
  contextBeforeTool: false,
  probes: claudeProbe('Execute', (command) => ({ permission_mode: 'auto-high', tool_input: { command, riskLevel: 'low' } })),
  adapter: droid,
  wiring,
  front,
});
