// Gemini CLI: BeforeTool/AfterTool/SessionStart/AfterAgent/PreCompress; answers with top-level decision/reason,
// a rewritten input in hookSpecificOutput.tool_input, context in hookSpecificOutput.additionalContext.
import { shellQuote, str, type ClientAdapter, type Decision, type EventKind, type GuardEvent } from './event';
import { readShaped } from './common';
import { claudeProbe, clientRecord, type ClientRecord, type FrontFacts, routedEvents } from './record';
import { sessionVarOf } from './names';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

/**
 * The tools Gemini CLI (0.61.0) ships that cannot write or run anything: reading, searching, the web, its todo list,
 * its questions, its docs and MCP resources. Every other tool (run_shell_command, write_file, replace, save_memory,
 * every MCP server's `mcp_<server>_<tool>`) goes to the guard. Its matchers are JavaScript regexes, unanchored.
 */
const READ_ONLY = [
  'read_file', 'read_many_files', 'list_directory', 'glob', 'grep_search', 'search_file_content', 'google_web_search', 'web_fetch', 'write_todos', 'ask_user',
  'get_internal_docs', 'read_mcp_resource', 'list_mcp_resources', 'tracker_get_task', 'tracker_list_tasks',
] as const;

/** Its shell tool: a warning for the model rides in the command's output (render), so AfterTool is not wired for it. */
const SHELL = 'run_shell_command';

export const wiring: Wiring = {
  client: 'gemini-cli',
  format: 'settings',
  settings: '.gemini/settings.json',
  // AfterTool only carries a warning BeforeTool could not show the model; the sh front answers it alone otherwise.
  events: routedEvents(READ_ONLY, ['BeforeTool', 'AfterTool'], ['SessionStart', 'AfterAgent', 'PreCompress', 'SessionEnd'], { AfterTool: [SHELL] }),
  // hooks run as `bash -c <command>` (its hookRunner's getShellConfiguration on Linux and macOS)
  bash: true,
  after: 'AfterTool',
  // Gemini CLI counts hook timeouts in milliseconds.
  timeout: HOOK_TIMEOUT_S * 1000,
  timeoutMs: true,
  named: true,
  notes: 'GEMINI.md',
  // it reads .agents/skills ahead of .gemini/skills (0.61.0 warns of a conflict where both hold the skill): one copy there
  skills: '.agents/skills',
  formerSkills: '.gemini/skills',
};

const KINDS: Record<string, EventKind> = {
  BeforeTool: 'pre-tool',
  AfterTool: 'post-tool',
  SessionStart: 'session-start',
  AfterAgent: 'stop',
  PreCompress: 'pre-compact',
  SessionEnd: 'session-end',
};

/** What the sh front reads of Gemini CLI's calls (src/clients/front.ts). */
export const front: FrontFacts = {
  keys: { session: 'session_id', tool: 'tool_name', event: 'hook_event_name', input: 'tool_input' },
  events: KINDS,
  tools: { [SHELL]: 'command', write_file: 'write', replace: 'file_path' },
  plugin: 'extension',
};

export const gemini: ClientAdapter = {
  client: 'gemini-cli',
  parse: (p) => readShaped('gemini-cli', { kinds: KINDS, source: ['source', 'trigger', 'reason'] }, p),
  render(e, d) {
    const out: Record<string, unknown> = {};
    if (e.kind === 'pre-tool') {
      const input = d.deny === undefined ? withContextPrinted(e, d) : undefined;
      if (d.deny !== undefined) Object.assign(out, { decision: 'deny', reason: d.deny });
      else if (input) out.hookSpecificOutput = { hookEventName: e.name, tool_input: input };
      // BeforeTool has no model-visible context: a warning goes to the person (and to the model in a shell call's output).
      if ((d.notice ?? d.context) && d.deny === undefined) out.systemMessage = d.notice ?? d.context;
    } else if (e.kind === 'stop') {
      if (d.followUp) Object.assign(out, { decision: 'deny', reason: d.followUp });
    } else if (e.kind === 'pre-compact') {
      if (d.context) out.systemMessage = d.context;
    } else if (d.context && (e.kind === 'post-tool' || e.kind === 'session-start')) {
      out.hookSpecificOutput = { hookEventName: e.name, additionalContext: d.context };
      if (d.notice) out.systemMessage = d.notice;
    }
    return Object.keys(out).length ? JSON.stringify(out) : null;
  },
};

/**
 * The input an allowed call runs with: for a shell call with context, its command (rewritten or not) first prints the
 * context to stderr, which Gemini CLI gives its model with the command's output, before the tool's own output.
 */
function withContextPrinted(e: GuardEvent, d: Decision): Record<string, unknown> | undefined {
  const input = d.updatedInput ?? e.toolInput;
  const command = str(input.command);
  if (!d.context || e.action.type !== 'shell' || command === null) return d.updatedInput;
  return { ...input, command: `printf '%s\\n' ${shellQuote(d.context)} >&2\n${command}` };
}

export const record: ClientRecord = clientRecord({
  name: 'gemini-cli',
  agent: 'gemini',
  home: { dir: '.gemini' },
  hookFiles: [
    { scope: 'project', file: '.gemini/settings.json' },
    { scope: 'user', file: '.gemini/settings.json' },
    { scope: 'system', file: '/etc/gemini-cli/settings.json' },
  ],
  // a project's own hooks run only in a trusted folder (folder trust is on unless settings.json turns it off)
  trustFiles: [{ scope: 'user', file: '.gemini/trustedFolders.json' }],
  readOnly: READ_ONLY,
  routing: 'matcher',
  mcpNames: 'mcp_<server>_<tool>',
  sessionVar: sessionVarOf('gemini-cli'),
  // 0.61.0, trusted folder or not (test/clients/gemini-cli.clients.test.ts)
  shellHooksOff: true,
  runsAnyRewrite: true,
  contextInShellOutput: true,
  payload: 'events BeforeTool AfterTool SessionStart AfterAgent PreCompress, an ISO timestamp',
  block: '{"decision":"deny","reason":…}',
  contextBeforeTool: false,
  // observed with 0.61.0
  escapesContext: true,
  // node running its gemini bundle; it relaunches itself, and the nearest one is the CLI proper (0.61.0)
  isProcess: (argv) => argv.slice(0, 3).some((a) => /(^|\/)gemini(\.js)?$/.test(a)),
  probes: claudeProbe('run_shell_command', () => ({ hook_event_name: 'BeforeTool', timestamp: new Date().toISOString() })),
  adapter: gemini,
  wiring,
  front,
});
