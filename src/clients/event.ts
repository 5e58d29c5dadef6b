// The one event type every client payload is parsed into, and the one decision type rendered back (SPEC 6).

import type { ClientName } from '../client-names';

export type GuardClient = ClientName;

export type EventKind = 'pre-tool' | 'post-tool' | 'session-start' | 'session-end' | 'stop' | 'pre-compact' | 'other';

/** What a tool call does, as far as handoffs are concerned. */
export type ToolAction =
  | { type: 'shell'; command: string; cwd: string | null }
  /** a whole new content for a file */
  | { type: 'write'; path: string; content: string }
  /** replacements inside an existing file */
  | { type: 'edit'; path: string; edits: Array<{ oldText: string; newText: string }> }
  /** a Codex apply_patch envelope */
  | { type: 'patch'; patch: string; cwd: string | null }
  /**
   * a tool that may write, its arguments in a shape the guard does not know: every path-like string it was given, and
   * every command line it was given under a command-like key (judged as shell lines)
   */
  | { type: 'paths'; paths: string[]; commands?: string[]; over?: string }
  | { type: 'other' };

export interface GuardEvent {
  client: GuardClient;
  kind: EventKind;
  /** the client's own event name, e.g. PreToolUse, BeforeTool, beforeShellExecution */
  name: string;
  session: string | null;
  /** a subagent acting under `session` */
  agentId: string | null;
  cwd: string;
  tool: string | null;
  action: ToolAction;
  toolInput: Record<string, unknown>;
  /** SessionStart: startup, resume, clear, compact; SessionEnd: its reason (clear, logout, prompt_input_exit, exit, other) */
  source: string | null;
  /** Stop: the client is already continuing because of a stop hook */
  stopHookActive: boolean;
}

/** What the guard answers; an empty decision allows and prints nothing. */
export interface Decision {
  /** block the tool call with this reason (shown to the agent) */
  deny?: string;
  /** run the tool with this input instead (allowed) */
  updatedInput?: Record<string, unknown>;
  /** text added to the agent's context (allowed) */
  context?: string;
  /** a warning said to the person too, not only to the model (each client's own field for it) */
  notice?: string;
  /** Stop: ask the agent to go on with this instruction (once) */
  followUp?: string;
}

export interface ClientAdapter {
  client: GuardClient;
  parse(payload: Record<string, unknown>): GuardEvent;
  /** stdout for the client, or null to print nothing */
  render(event: GuardEvent, decision: Decision): string | null;
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** A table lookup by a payload's string: only the table's own entries (never `constructor`, `__proto__`, …). */
export const own = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Text as one single-quoted POSIX shell word, whatever it holds. */
export const shellQuote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** One argv element as a POSIX shell word (an argv-style command is read back by the shell tokenizer). */
export const shellWord = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : shellQuote(a));

/** Claude Code and Codex share tool names and input shapes; this maps one tool call to its action. */
export function commonToolAction(tool: string | null, input: Record<string, unknown>, cwd: string): ToolAction {
  switch (tool) {
    case 'Bash':
    case 'PowerShell':
    case 'shell':
    case 'exec_command':
    case 'run_shell_command': {
      const command = str(input.command) ?? (Array.isArray(input.command) ? input.command.map((a) => shellWord(typeof a === 'string' ? a : (JSON.stringify(a) ?? ''))).join(' ') : null);
      return command === null ? { type: 'other' } : { type: 'shell', command, cwd: str(input.dir_path) ?? str(input.workdir) ?? cwd };
    }
    case 'Write':
    case 'write_file': {
      const path = str(input.file_path);
      return path === null ? unknownShape(tool, input) : { type: 'write', path, content: str(input.content) ?? '' };
    }
    case 'Edit':
    case 'replace': {
      const path = str(input.file_path);
      return path === null ? unknownShape(tool, input) : { type: 'edit', path, edits: [{ oldText: str(input.old_string) ?? '', newText: str(input.new_string) ?? '' }] };
    }
    case 'MultiEdit': {
      const path = str(input.file_path);
      const edits = Array.isArray(input.edits) ? input.edits.map(obj).map((e) => ({ oldText: str(e.old_string) ?? '', newText: str(e.new_string) ?? '' })) : [];
      return path === null ? unknownShape(tool, input) : { type: 'edit', path, edits };
    }
    case 'NotebookEdit': {
      const path = str(input.notebook_path);
      return path === null ? unknownShape(tool, input) : { type: 'edit', path, edits: [{ oldText: '', newText: str(input.new_source) ?? '' }] };
    }
    case 'apply_patch': {
      const patch = str(input.command) ?? str(input.patch) ?? str(input.input);
      return patch === null ? { type: 'other' } : { type: 'patch', patch, cwd };
    }
    default:
      return unknownShape(tool, input);
  }
}

// Tools that only read (or write nothing on disk): what they are given is not judged.
const READING_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'Task', 'ExitPlanMode', 'NotebookRead', 'BashOutput', 'KillShell', 'read_file', 'read_many_files', 'list_directory', 'glob', 'search_file_content', 'google_web_search', 'web_fetch', 'view', 'ls', 'grep', 'update_plan', 'view_image']);

/**
 * A tool that may write, with arguments in a shape the guard does not know (another client's names, a new tool, an
 * MCP tool): judged on every string argument that looks like a path. Nothing but a known reading tool goes unseen.
 */
const MAX_PATHS = 1024;
const MAX_NESTING = 32;

/** Keys under which a tool's arguments carry a command line it runs (an MCP shell, another client's terminal tool). */
const COMMAND_KEY = /^(command|cmd|command_?line|shell_?command|script)$/i;
/** Keys that name where a command runs, not what it touches. */
const CWD_KEY = /^(cwd|workdir|dir_path|working_?directory)$/i;

export function unknownShape(tool: string | null, input: Record<string, unknown>): ToolAction {
  if (tool === null || READING_TOOLS.has(tool)) return { type: 'other' };
  const paths: string[] = [];
  const commands: string[] = [];
  // bounds refuse, never cut: past them the call is refused when it names what the guard protects (rules/pre-tool.ts)
  let over: string | undefined;
  const visit = (v: unknown, key: string, depth: number): void => {
    if (over) return;
    if (paths.length + commands.length >= MAX_PATHS || depth > MAX_NESTING) {
      over = depth > MAX_NESTING ? `the tool's arguments are nested more than ${MAX_NESTING} deep` : `the tool's arguments hold more than ${MAX_PATHS} paths`;
      return;
    }
    if (typeof v === 'string') {
      // a command line is judged as one (never as a path: its words are read by the shell rules)
      if (COMMAND_KEY.test(key)) commands.push(v);
      else if (v && v.length < 4096 && !v.includes('\n') && (/path|file|dir|dest|target|output|src|source/i.test(key) || /[/\\]|\.md$/i.test(v))) paths.push(v);
    } else if (Array.isArray(v) && COMMAND_KEY.test(key) && v.length && v.every((x) => typeof x === 'string')) commands.push(v.map(shellWord).join(' '));
    else if (Array.isArray(v)) for (const x of v) visit(x, key, depth + 1);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k, depth + 1);
  };
  visit(input, '', 0);
  if (over) return { type: 'paths', paths, commands, over };
  // one command line at the top, nothing else it names but where it runs: a shell call like any other
  const top = str(input.command) ?? str(input.cmd);
  if (commands.length === 1 && top === commands[0] && paths.every((p) => Object.entries(input).some(([k, v]) => CWD_KEY.test(k) && v === p))) {
    const cwd = Object.entries(input).find(([k, v]) => CWD_KEY.test(k) && typeof v === 'string')?.[1] as string | undefined;
    return { type: 'shell', command: top, cwd: cwd ?? null };
  }
  if (commands.length) return { type: 'paths', paths, commands };
  return paths.length ? { type: 'paths', paths } : { type: 'other' };
}

/** The names a payload may give a tool's name and its arguments under, in a shape the guard does not know. */
const TOOL_NAME_KEY = /^(tool_?name|tool|name)$/i;
const TOOL_INPUT_KEY = /^(tool_?input|tool_?args|tool_?arguments|arguments|args|input|params|parameters)$/i;

/**
 * A tool call read from a payload whose event or field names the guard does not know (SPEC 6: no unknown shape is
 * allowed silently): every tool-input-like field (`tool_input`, `toolArgs`, `arguments`, …, an object or a JSON
 * string of one) read as an unknown tool's arguments. `other` when the payload carries none that names a command or
 * a path.
 */
export function unknownPayloadAction(p: Record<string, unknown>): { tool: string; input: Record<string, unknown>; action: ToolAction } | null {
  const tool = Object.entries(p).find(([k, v]) => TOOL_NAME_KEY.test(k) && typeof v === 'string')?.[1] as string | undefined;
  for (const [k, v] of Object.entries(p)) {
    if (!TOOL_INPUT_KEY.test(k)) continue;
    let input: unknown = v;
    if (typeof v === 'string') {
      try {
        input = JSON.parse(v);
      } catch {
        continue;
      }
    }
    if (!input || typeof input !== 'object' || Array.isArray(input)) continue;
    // a known reading tool reads; any other name (or none) may write
    const name = tool || 'unknown';
    const action = unknownShape(name, input as Record<string, unknown>);
    if (action.type !== 'other') return { tool: name, input: input as Record<string, unknown>, action };
  }
  return null;
}
