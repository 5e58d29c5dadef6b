// Devin CLI (read from docs.devin.ai/cli/extensibility/hooks; not run here: it needs a Devin account): hooks in
// Claude Code's groups at the top level of `.devin/hooks.v1.json` (and under `hooks` of `.devin/config.json` and
// `~/.config/devin/config.json`), matchers regexes on the tool name, timeouts in seconds. It also runs Claude Code's
// `.claude/settings.json` hooks "automatically", sending them its own payload: `hook_event_name`, `session_id`,
// `prompt_id`, `tool_name` in its own lower-case names (`exec {command}`, `read`, `write {file_path, content}`, `edit`,
// `notebook_edit`, `webfetch`, MCP `mcp__<server>__<tool>`), `tool_input`, and no `cwd` (hooks get
// DEVIN_PROJECT_DIR). A non-zero exit refuses (the examples exit 2); a Stop is kept going by `decision: block`. In a
// workspace in Restricted Mode no hook loads.
import path from 'node:path';
import type { GuardEvent } from './event';
import { editOf, exitRefusal, KINDS, renderClaudeLike, shapedAdapter, writeOf, type ToClaude } from './common';
import { claudeProbe, clientRecord, type ClientRecord, routedEvents } from './record';
import { filesWiring, HOOK_TIMEOUT_S, wiredWithGuard, type Wiring } from './wiring';

/** The tools Devin CLI names that cannot write or run anything: reading and the web. exec, write, edit, notebook_edit and every MCP tool go to the guard. */
const READ_ONLY = ['read', 'webfetch'] as const;

const DEVIN_HOOKS_FILE = '.devin/hooks.v1.json';
/** What Devin CLI gives its hooks in place of a payload `cwd`. */
const PROJECT_VAR = 'DEVIN_PROJECT_DIR';

const EVENTS = routedEvents(READ_ONLY, ['PreToolUse'], ['SessionStart', 'Stop', 'SessionEnd']);

export const wiring: Wiring = filesWiring({
  client: 'devin-cli',
  settings: DEVIN_HOOKS_FILE,
  events: EVENTS,
  files: (command) => [
    {
      file: DEVIN_HOOKS_FILE,
      json: { at: [], entries: Object.fromEntries(Object.entries(EVENTS).map(([e, m]) => [e, [{ ...(m ? { matcher: m } : {}), hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] }]])) },
    },
  ],
});

const TOOLS: Record<string, ToClaude> = {
  exec: (a) => ({ tool: 'Bash', input: a }),
  write: (a) => writeOf(a.file_path ?? a.path, a.content),
  edit: (a) => editOf(a),
  notebook_edit: (a) => ({ tool: 'NotebookEdit', input: a }),
};

/**
 * A payload Devin CLI sent, through its own wiring or Claude Code's: Claude Code's event names with no `cwd` (Claude
 * Code, Qwen Code, droid and Copilot CLI always send one), told by DEVIN_PROJECT_DIR in the hook's environment or the
 * `prompt_id` Devin sends.
 */
export const isDevinPayload = (p: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): boolean =>
  p.cwd === undefined && typeof p.hook_event_name === 'string' && /^[A-Z]/.test(p.hook_event_name) && typeof p.session_id === 'string' && (env[PROJECT_VAR] !== undefined || p.prompt_id !== undefined);

// a refusal by exit 2 with the reason on stderr; context and a Stop's block in Claude Code's shape, which it reads
export const devin = shapedAdapter('devin-cli', { kinds: KINDS, tools: TOOLS, cwdVar: PROJECT_VAR }, exitRefusal(renderClaudeLike));

/**
 * Devin CLI runs Claude Code's wiring and its own: where git-handoff's own Devin wiring is in the project, that one
 * answers Devin's calls and the Claude Code wiring stands aside (one answer a call).
 */
export const devinAnswersNatively = (e: GuardEvent, env: NodeJS.ProcessEnv = process.env): boolean =>
  e.client === 'devin-cli' && wiredWithGuard(path.join(env[PROJECT_VAR] || e.cwd, DEVIN_HOOKS_FILE));

export const record: ClientRecord = clientRecord({
  name: 'devin-cli',
  agent: 'devin',
  home: { dir: '.config/devin' },
  hookFiles: [
    { scope: 'project', file: DEVIN_HOOKS_FILE },
    { scope: 'project', file: '.devin/config.json' },
    { scope: 'user', file: '.config/devin/config.json' },
  ],
  // Restricted Mode is chosen per workspace in Devin itself (where it keeps that is not documented)
  trustFiles: [],
  readOnly: READ_ONLY,
  routing: 'matcher',
  mcpNames: 'mcp__<server>__<tool>',
  payload: "Claude Code's event names, session_id, prompt_id, lower-case tools (exec, write, edit, read), no cwd",
  block: 'exit 2, the reason on stderr',
  contextBeforeTool: true,
  readsClaude: 'always ("existing hooks in .claude/ are picked up automatically")',
  probes: claudeProbe('exec', () => ({ prompt_id: 'doctor' })),
  adapter: devin,
  wiring,
});
