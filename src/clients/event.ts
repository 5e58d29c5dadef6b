// The one event type every client payload is parsed into, and the one decision type rendered back (SPEC 6).

import type { ClientName } from './names';
import { shellQuote, shellWord } from '../terminal-text';

export type GuardClient = ClientName;

export type EventKind = 'pre-tool' | 'post-tool' | 'session-start' | 'session-end' | 'stop' | 'pre-compact' | 'other';

/** What a tool call does, as far as handoffs are concerned. */
export type ToolAction =
  /** `stdinUnseen`: the command's stdin may stay open for later input no hook sees (Codex's exec_command, then write_stdin; an unknown tool) */
  | { type: 'shell'; command: string; cwd: string | null; stdinUnseen?: true }
  /** a whole new content for a file */
  | { type: 'write'; path: string; content: string }
  /** replacements inside an existing file */
  | { type: 'edit'; path: string; edits: Array<{ oldText: string; newText: string }> }
  /** a Codex apply_patch envelope */
  | { type: 'patch'; patch: string; cwd: string | null }
  /** a tool that may write, in a shape the guard does not know: every path-like string and command line it was given */
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

const SHELL_TOOLS = new Set(['Bash', 'PowerShell', 'shell', 'exec_command', 'run_shell_command']);
/** One replacement, its texts read as strings (anything else: empty). */
export const textEdit = (oldText: unknown, newText: unknown) => ({ oldText: str(oldText) ?? '', newText: str(newText) ?? '' });
/** A tool call that replaces `oldText` by `newText` in the file at `path`. */
export const editOn = (path: string, oldText: unknown, newText: unknown): ToolAction => ({ type: 'edit', path, edits: [textEdit(oldText, newText)] });
type FileTool = [pathKey: string, act: (input: Record<string, unknown>, path: string) => ToolAction];
const WRITE: FileTool = ['file_path', (i, path) => ({ type: 'write', path, content: str(i.content) ?? '' })];
const REPLACE: FileTool = ['file_path', (i, path) => editOn(path, i.old_string, i.new_string)];
/** The file tools by name: the key of the path each writes, and what it does there (without that path: an unknown shape). */
const FILE_TOOLS: Record<string, FileTool> = {
  Write: WRITE,
  write_file: WRITE,
  Edit: REPLACE,
  replace: REPLACE,
  MultiEdit: ['file_path', (i, path) => ({
    type: 'edit',
    path,
    edits: (Array.isArray(i.edits) ? i.edits : []).map(obj).map((e) => textEdit(e.old_string, e.new_string)),
  })],
  NotebookEdit: ['notebook_path', (i, path) => editOn(path, '', i.new_source)],
};

/** Claude Code and Codex share tool names and input shapes; this maps one tool call to its action. */
export function commonToolAction(tool: string | null, input: Record<string, unknown>, cwd: string): ToolAction {
  if (tool !== null && SHELL_TOOLS.has(tool)) {
    const command = str(input.command) ?? (Array.isArray(input.command) ? input.command.map((a) => shellWord(typeof a === 'string' ? a : (JSON.stringify(a) ?? ''))).join(' ') : null);
    return command === null ? { type: 'other' } : { type: 'shell', command, cwd: str(input.dir_path) ?? str(input.workdir) ?? str(input.directory) ?? cwd };
  }
  if (tool === 'apply_patch') {
    const patch = str(input.command) ?? str(input.patch) ?? str(input.input);
    return patch === null ? { type: 'other' } : { type: 'patch', patch, cwd };
  }
  const file = tool === null ? undefined : own(FILE_TOOLS, tool);
  const path = file ? str(input[file[0]]) : null;
  return file && path !== null ? file[1](input, path) : unknownShape(tool, input);
}

const MAX_PATHS = 1024;
const MAX_NESTING = 32;

/** Keys under which a tool's arguments carry a command line it runs (an MCP shell, another client's terminal tool). */
const COMMAND_KEY = /^(command|cmd|command_?line|shell_?command|script|shell_?script|program|executable|shell|bash|sh|exec|execute|run)$/i;
/** Keys under which a tool carries several command lines, each run on its own (Cline's run_commands `{commands}`). */
const COMMANDS_KEY = /^(commands|cmds|command_?lines|scripts)$/i;
/** Keys under which a command's arguments follow it (argv after the program). */
const ARGS_KEY = /^(args|argv|arguments)$/i;
/** Keys under which a tool carries code it runs. */
const CODE_KEY = /^(code|code_?snippet|snippet|source_?code)$/i;
/** Keys under which a terminal tool carries what it types into a shell (VS Code's sendSequence `{text}`, a send-text tool). */
const TYPED_KEY = /^(text|sequence|input|keys|data|chars|line)$/i;
/** A tool whose name says it types into a terminal or a shell's input (`terminal_send_sequence`, `sendSequence`, `send_to_terminal`). */
const typesIntoShell = (tool: string) => nameWords(tool).some((w) => w === 'terminal' || w === 'sequence' || w === 'stdin' || w === 'pty' || w === 'tty');

/** Keys that name where a command runs, not what it touches. */
const CWD_KEY = /^(cwd|workdir|dir_path|directory|working_?directory)$/i;
/** Keys whose text is prose or a file's content, never a path a tool writes. */
const PROSE_KEY = /^(description|prompt|query|message|text|title|summary|reason|explanation|instructions?|question|label|content|new_?content|body|comment|thought|goal|objective|old_?str(ing)?|new_?str(ing)?|file_?text)$/i;

const INTERPRETERS: ReadonlyArray<[RegExp, string]> = [
  [/javascript|typescript|\bjs\b|\bts\b|node|\bexec\b/, 'node -e'],
  [/ruby/, 'ruby -e'],
  [/perl/, 'perl -e'],
  [/php/, 'php -r'],
  [/\b(bash|shell|sh)\b/, 'sh -c'],
];
/** The interpreter, as a command line's start, that runs code given to `tool` (its language argument, else its name's words). */
function interpreterOf(tool: string, input: Record<string, unknown>): string {
  const said = [input.language, input.lang, input.interpreter, tool].filter((x): x is string => typeof x === 'string').join(' ').toLowerCase();
  return INTERPRETERS.find(([language]) => language.test(said))?.[1] ?? 'python3 -c';
}

/**
 * A tool with arguments in a shape the guard does not know, judged on every argument: each string but prose a path it
 * may write, a command line under a command-like key (with its `args`) one, code under a code-like key as its interpreter runs it.
 */
export function unknownShape(tool: string | null, input: Record<string, unknown>): ToolAction {
  if (tool === null) return { type: 'other' };
  const paths: string[] = [];
  const commands: string[] = [];
  // bounds refuse, never cut: past them the call is refused when it names what the guard protects (rules/pre-tool.ts)
  let over: string | undefined;
  const count = () => {
    if (paths.length + commands.length < MAX_PATHS) return true;
    over = `the tool's arguments hold more than ${MAX_PATHS} paths`;
    return false;
  };
  const typing = typesIntoShell(tool);
  const dirs = Object.entries(input).flatMap(([k, v]) => (CWD_KEY.test(k) && typeof v === 'string' && v ? [v] : []));
  const visit = (v: unknown, key: string, depth: number): void => {
    if (over || !count()) return;
    if (depth > MAX_NESTING) {
      over = `the tool's arguments are nested more than ${MAX_NESTING} deep`;
      return;
    }
    if (typeof v === 'string') {
      // a command line is judged as one (never as a path: its words are read by the shell rules), code as its interpreter would run it
      if (COMMAND_KEY.test(key) || COMMANDS_KEY.test(key)) commands.push(v);
      // typed into a terminal, a carriage return ends a line as a newline does
      else if (typing && TYPED_KEY.test(key)) commands.push(v.replace(/\r\n?/g, '\n'));
      else if (CODE_KEY.test(key)) commands.push(`${interpreterOf(tool, input)} ${shellQuote(v)}`);
      else if (v && !/\n\s*\S/.test(v) && !PROSE_KEY.test(key)) {
        // a path with a line end after it, a path of any length (`./././…`); a relative one also where the tool is told to work
        paths.push(v);
        if (!CWD_KEY.test(key) && !v.startsWith('/') && !v.startsWith('~') && !v.includes(':')) for (const dir of dirs) paths.push(`${dir.replace(/\/+$/, '')}/${v}`);
      }
    } else if (Array.isArray(v) && COMMANDS_KEY.test(key) && v.every((x) => typeof x === 'string')) commands.push(...v);
    else if (Array.isArray(v) && (COMMAND_KEY.test(key) || ARGS_KEY.test(key)) && v.length && v.every((x) => typeof x === 'string')) {
      commands.push(v.map(shellWord).join(' '));
      // `{argv: [...]}` alone: a program and its arguments, or the arguments of one the tool names; each is a path too
      if (!COMMAND_KEY.test(key)) for (const x of v) visit(x, key, depth + 1);
    } else if (Array.isArray(v)) for (const x of v) visit(x, key, depth + 1);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      // a command and its arguments: one command line (`{command: "sh", args: ["-c", "echo … > f"]}`)
      const cmdKey = Object.keys(o).find((k) => COMMAND_KEY.test(k) && typeof o[k] === 'string');
      const argsKey = Object.keys(o).find((k) => ARGS_KEY.test(k) && Array.isArray(o[k]) && (o[k] as unknown[]).every((x) => typeof x === 'string' || typeof x === 'number'));
      if (cmdKey && argsKey) commands.push([o[cmdKey] as string, ...(o[argsKey] as unknown[]).map((a) => shellWord(String(a)))].join(' '));
      for (const [k, x] of Object.entries(o)) if (!(cmdKey && argsKey && (k === cmdKey || k === argsKey))) visit(x, k, depth + 1);
    }
  };
  visit(input, '', 0);
  if (over) return { type: 'paths', paths, commands, over };
  // one command line at the top, nothing else it names but where it runs: a shell call like any other
  const top = str(input.command) ?? str(input.cmd);
  if (commands.length === 1 && top === commands[0] && paths.every((p) => Object.entries(input).some(([k, v]) => CWD_KEY.test(k) && v === p))) {
    const cwd = Object.entries(input).find(([k, v]) => CWD_KEY.test(k) && typeof v === 'string')?.[1] as string | undefined;
    // a tool the guard does not know may keep the command's input open for what a later call types (no hook sees it)
    return { type: 'shell', command: top, cwd: cwd ?? null, stdinUnseen: true };
  }
  if (commands.length) return { type: 'paths', paths, commands };
  return paths.length ? { type: 'paths', paths } : { type: 'other' };
}

/** Words that say a tool only reads (`read_text_file`, `list_directory`, `ReadMcpResourceTool`, `get_file_info`). */
const READING_WORDS = new Set(['read', 'list', 'get', 'search', 'find', 'view', 'show', 'describe', 'stat', 'info', 'lookup', 'inspect', 'tree', 'glob', 'grep', 'count', 'ls', 'cat', 'head', 'tail']);
/** Words that say a tool may write or run something: any of them and the name does not say it only reads. */
const ACTING_WORDS = new Set([
  'write', 'edit', 'create', 'delete', 'del', 'remove', 'rm', 'move', 'mv', 'rename', 'copy', 'cp', 'update', 'set', 'put', 'post', 'patch', 'apply', 'replace',
  'insert', 'append', 'save', 'upload', 'download', 'push', 'commit', 'merge', 'reset', 'checkout', 'restore', 'revert', 'run', 'exec', 'execute', 'eval',
  'spawn', 'start', 'stop', 'kill', 'install', 'uninstall', 'mkdir', 'touch', 'chmod', 'chown', 'link', 'unlink', 'truncate', 'drop', 'clear', 'clean',
  'purge', 'wipe', 'modify', 'change', 'add', 'send', 'submit', 'make', 'new', 'import', 'export', 'generate', 'build', 'deploy', 'open', 'shell', 'bash',
  'sh', 'command', 'cmd', 'script', 'code', 'sql', 'query', 'terminal', 'stdin', 'input', 'press', 'click', 'fill', 'navigate',
]);

/** The words of a tool's name (`mcp__fs__read_text_file`, `fs-read_text_file`, `ReadMcpResourceTool`), lower case. */
const nameWords = (tool: string): string[] =>
  tool
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Whether a tool's name says it only reads: a reading word and no word that writes or runs anything. */
export function namesOnlyReading(tool: string): boolean {
  const words = nameWords(tool);
  return words.some((w) => READING_WORDS.has(w)) && !words.some((w) => ACTING_WORDS.has(w));
}

/** The names a payload may give a tool's name and its arguments under, in a shape the guard does not know. */
const TOOL_NAME_KEY = /^(tool_?name|tool|name)$/i;
const TOOL_INPUT_KEY = /^(tool_?input|tool_?args|tool_?arguments|arguments|args|input|params|parameters)$/i;
/** Keys of a payload's object that may hold a tool call in another nesting (`preToolUse`, `tool_call`, `toolUse`, `call`). */
const CALL_KEY = /tool|call/i;
/** How deep a tool call is looked for in another nesting (`{preToolUse: {toolName, parameters}}` is one level). */
const CALL_NESTING = 2;

/**
 * A tool call read from a payload whose names the guard does not know (SPEC 6): every tool-input-like field, at the top
 * or one nesting down, read as its tool where the guard knows it, else as an unknown tool's; null when none names anything.
 */
export function unknownPayloadAction(p: Record<string, unknown>, cwd: string, named?: string, depth = 0): { tool: string; input: Record<string, unknown>; action: ToolAction } | null {
  const tool = (Object.entries(p).find(([k, v]) => TOOL_NAME_KEY.test(k) && typeof v === 'string')?.[1] as string | undefined) || named;
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
    const action = commonToolAction(name, input as Record<string, unknown>, cwd);
    if (action.type !== 'other') return { tool: name, input: input as Record<string, unknown>, action };
  }
  return nested(p, depth, (call) => unknownPayloadAction(call, cwd, tool, depth + 1));
}

/** The tool a payload names, at the top or in another nesting (unknownPayloadAction's), or null when it names none. */
export function payloadTool(p: Record<string, unknown>, depth = 0): string | null {
  const tool = Object.entries(p).find(([k, v]) => TOOL_NAME_KEY.test(k) && k !== 'name' && typeof v === 'string')?.[1];
  if (typeof tool === 'string') return tool;
  if (depth > 0 && typeof p.name === 'string') return p.name;
  return nested(p, depth, (call) => payloadTool(call, depth + 1));
}

/** What `read` finds first in an object of `p` under a call-like key, while `depth` is under CALL_NESTING. */
function nested<T>(p: Record<string, unknown>, depth: number, read: (call: Record<string, unknown>) => T | null): T | null {
  if (depth >= CALL_NESTING) return null;
  for (const [k, v] of Object.entries(p)) {
    const found = CALL_KEY.test(k) && v && typeof v === 'object' && !Array.isArray(v) ? read(v as Record<string, unknown>) : null;
    if (found) return found;
  }
  return null;
}
