// One record per client: wiring, perimeter, doctor and the sh front's constants are read from it (STYLE.md).
import { agentName, sessionVarOf, type Agent, type ClientName } from './names';
import type { ClientAdapter, EventKind, GuardEvent } from './event';
import { CLAUDE_ANSWER, CLAUDE_KEYS, KINDS, readShaped, render, type Answer, type PayloadShape } from './common';
import { wiringOf, type Wiring, type WiringInput } from './wiring';

/** How the front reads a tool's input: a shell line, the file written (under which key, with its content), a patch. */
export type FrontShape = 'command' | 'file_path' | 'write' | 'path' | 'create' | 'patch';

export interface FrontFacts {
  /** the payload's keys (event null: none named, a tool call is pre-tool unless `result` is there) */
  keys: { session: string; tool: string; event: string | null; result?: string; input: string };
  events: Readonly<Record<string, EventKind>> | null;
  /** tool name → the shape the front reads; a tool not named here is node's */
  tools: Readonly<Record<string, FrontShape>>;
}

/** A user file a client's own installer rewrites, relative to its user folder, with the key paths of git-handoff's entries. */
export interface RewrittenFile {
  file: string;
  ours: string[][];
  /** why a changed one is left: what the client's uninstall does to it */
  changedBy?: string;
}

/** Its wiring as a user-wide package (`install --agent <agent> --<word>`): src/install/plugin-folders.ts, plugin.ts. */
export interface PluginFacts {
  word: 'plugin' | 'extension';
  title: string;
  folder: string;
  /** the folder under git-handoff's data folder the client installs it from (it records or reads that folder) */
  source: string;
  /** how its hooks name the package's folder */
  root: string;
  /** the files the package holds beside the runtime and hooks/hooks.json, by path (an object is written as JSON) */
  files: (meta: { name: string; version: string; description: string; license: string }) => Record<string, unknown>;
  /** hooks/hooks.json's fields beside `hooks` */
  hooksHeader?: Record<string, unknown>;
  /** the folders under its user folder its installer may add entries to, and what it adds beside that folder in HOME */
  folders: readonly string[];
  homeFiles?: readonly string[];
  /** the user files its installer rewrites (`source`: the folder it installs from) */
  rewrites: (id: string, source: string) => RewrittenFile[];
}

/** The session doctor's probes name: nobody's. */
export const PROBE_SESSION = 'git-handoff-doctor';
/** The shell call doctor's probes send, which the guard must refuse (a handoff ref moved directly). */
export const PROBE_COMMAND = 'git update-ref -d refs/handoffs/doctor/probe-wiring';

export type FileScope = 'project' | 'local' | 'user' | 'system';

/** A file or folder a client reads: relative to a worktree (project, local), to the home (user; `$VAR/…`), or absolute. */
export interface ClientPath {
  scope: FileScope;
  file: string;
  /** (a plugin folder) every file in it runs, whatever its extension (Cline's hook folders), not only modules */
  every?: true;
}

export interface ClientRecord {
  name: ClientName;
  /** its `install --agent` name, null when install does not wire it itself */
  agent: Agent | null;
  /** the folder it keeps its user files in, under the home, and the variable that moves it (`$VAR/…` in its paths) */
  home?: { variable?: string; dir: string };
  /** where it reads hook configuration, at every scope */
  hookFiles: readonly ClientPath[];
  /** folders whose every JSON file it reads hooks from */
  hookDirs: readonly ClientPath[];
  /** folders whose every module it loads around its tools */
  pluginDirs: readonly ClientPath[];
  /** where it keeps which folders (and hooks) it trusts: a session that edits one can switch the wiring off unseen */
  trustFiles: readonly ClientPath[];
  /** the tools it ships that cannot write or run anything: the only ones its wiring does not send to the guard */
  readOnly: readonly string[];
  /** how it names an MCP server's tool, e.g. `mcp__<server>__<tool>` */
  mcpNames: string;
  /** the variable its shell tool exports with its session id (./names.ts SESSION_VARS), null: none */
  sessionVar: string | null;
  /** whether its shell knows the session untold: always, as-hook (when the hook has `sessionVar`), never (the guard adds it) */
  shellSession: 'always' | 'as-hook' | 'never';
  /** how its payload names the call (docs/clients.md) */
  shape: PayloadShape;
  /** how it is told a verdict */
  answer: Answer;
  /** whether a before-tool answer's context reaches its model (else a warning waits for its after-tool hook, if any) */
  contextBeforeTool: boolean;
  /** when it also runs Claude Code's wiring (`.claude/settings.json`), sending its own payload there */
  readsClaude?: string;
  /** the wirings of others it runs (ClientRecord.readsClaude): its payload told apart there, read by `adapter` (else its own), unanswered where `answeredElsewhere` */
  rides?: ReadonlyArray<{ wiring: ClientName; payload: (p: Record<string, unknown>) => boolean; adapter?: ClientAdapter; answeredElsewhere?: (e: GuardEvent) => boolean }>;
  /** it runs a command its before-tool hook rewrote, whatever the command, without asking (Gemini CLI's tool_input) */
  runsAnyRewrite?: true;
  /** a shell call's context reaches its model in the command's output (the rewrite prints it): no after-tool hook for it */
  contextInShellOutput?: true;
  /** its shell tool runs every command with git's hooks off (`GIT_CONFIG_KEY_<n>=core.hooksPath`, empty: Gemini CLI) */
  shellHooksOff?: true;
  /** what the guard on each tool call cannot do in it, in a few words (the table of protections: ./protections.ts) */
  guardLimit?: string;
  /** its shell tool keeps the command's stdin open for later input that reaches no hook (Codex's write_stdin) */
  stdinUnseen?: true;
  /** the programs its shell tool runs as an apply_patch (the envelope on stdin or as the argument) */
  patchPrograms?: readonly string[];
  /** it runs a rewritten input without asking, so a command made only of git handoff steps may get its session that way */
  runsHandoffRewrite?: true;
  /** it HTML-escapes a hook's context before its model reads it: the startup view is wrapped in brackets, not tags */
  escapesContext?: true;
  /** its after-tool event is where a call's writes are recorded (its before-shell event is only an intent) */
  recordsAfterTool?: true;
  /** its OS sandbox's settings keys: where it is turned on, and the paths it keeps read-only (src/install/agents.ts) */
  sandbox?: { enabled: readonly [string, string]; denyWrite: readonly [string, string, string] };
  /** the variable its hooks get with its process id (a claim: it counts only for an ancestor, src/guard/lineage.ts) */
  pidVariable?: string;
  /** whether a process (its argv and /proc comm) is the client itself, for a client that names no pid to its hooks */
  isProcess?: (argv: string[], comm: string) => boolean;
  /** doctor's probes: a shell call of `command` in each shape it sends its before-tool hook (labelled), to be refused */
  probes: (cwd: string, command: string) => Array<[string, Record<string, unknown>]>;
  /** its payload read by `shape`, answered by `answer` */
  adapter: ClientAdapter;
  wiring: Wiring | null;
  front: FrontFacts | null;
  plugin?: PluginFacts;
}

/** doctor's probe of a client whose before-tool payload is Claude Code's: its shell tool `tool`, with `fields` of its own. */
export const claudeProbe =
  (tool: string, fields: (command: string) => Record<string, unknown> = () => ({})): ClientRecord['probes'] =>
  (cwd, command) => [[tool, { session_id: PROBE_SESSION, cwd, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { command }, ...fields(command) }]];

type Defaulted = 'agent' | 'sessionVar' | 'shellSession' | 'mcpNames' | 'answer' | 'contextBeforeTool';
type PathKind = 'hookFiles' | 'hookDirs' | 'pluginDirs' | 'trustFiles';
/** A record's paths by scope; a folder whose every file runs (ClientPath.every) ends in `/*`. */
type Paths = Partial<Record<FileScope, readonly string[]>>;
export type RecordInput = Omit<ClientRecord, Defaulted | PathKind | 'adapter' | 'shape' | 'wiring' | 'front'> &
  Partial<Pick<ClientRecord, Defaulted>> &
  Partial<Record<PathKind, Paths>> & {
    shape?: Partial<PayloadShape>;
    wiring: WiringInput | null;
    front?: Pick<FrontFacts, 'tools'> & Partial<FrontFacts>;
  };

const SCOPES: readonly FileScope[] = ['project', 'local', 'user', 'system'];
const pathsOf = (paths: Paths = {}): ClientPath[] =>
  SCOPES.flatMap((scope) => (paths[scope] ?? []).map((f) => (f.endsWith('/*') ? { scope, file: f.slice(0, -2), every: true as const } : { scope, file: f })));

/**
 * A record with what a Claude-shaped client leaves out: its agent and session variable from names.ts, no trust file,
 * Claude Code's payload, answer and front keys, context read before the tool; its wiring's client is its name.
 */
export const clientRecord = ({ hookFiles, hookDirs, pluginDirs, trustFiles, shape, wiring, front, ...r }: RecordInput): ClientRecord => {
  const kinds = shape?.kinds ?? KINDS;
  const record: Omit<ClientRecord, 'adapter'> = {
    agent: agentName(r.name),
    sessionVar: sessionVarOf(r.name),
    shellSession: 'never',
    mcpNames: 'mcp__<server>__<tool>',
    answer: CLAUDE_ANSWER,
    contextBeforeTool: true,
    ...r,
    hookFiles: pathsOf(hookFiles),
    trustFiles: pathsOf(trustFiles),
    hookDirs: pathsOf(hookDirs),
    pluginDirs: pathsOf(pluginDirs),
    shape: { ...shape, kinds },
    wiring: wiring && wiringOf(r.name, wiring),
    front: front ? { keys: CLAUDE_KEYS, events: kinds, ...front } : null,
  };
  return { ...record, adapter: adapterOf(record) };
};

/** The adapter of a client whose payload is `shape`, answered as `answer` says. */
type Adapted = Pick<ClientRecord, 'name' | 'shape' | 'answer' | 'contextInShellOutput'>;
export const adapterOf = ({ name, shape, answer, contextInShellOutput }: Adapted): ClientAdapter => ({
  client: name,
  parse: (p) => readShaped(name, shape, p),
  render: (e, d) => render(answer, !!contextInShellOutput, e, d),
});

/** A character as a regex literal that JavaScript and Rust's regex crate both read so (a class's `-` and `^` too). */
const escape = (c: string) => (/[\\^$.*+?()[\]{}|-]/.test(c) ? `\\${c}` : c);

interface Trie {
  kids: Map<string, Trie>;
  end: boolean;
}

/**
 * A matcher for every tool name but `names`, anchored and without look-around (Rust's regex crate has none): the
 * complement of the words' trie. Cached: the records read it through getters, built only where a wiring is written.
 */
export function allBut(names: readonly string[]): string {
  const key = names.join('\n');
  let m = matchers.get(key);
  if (m === undefined) matchers.set(key, (m = complement(names)));
  return m;
}
const matchers = new Map<string, string>();

/** A wiring's events: `routed` each matching allBut(readOnly and its `skip`), then `plain` with no matcher. */
export function routedEvents(
  readOnly: readonly string[],
  routed: readonly string[],
  plain: readonly string[],
  skip: Readonly<Record<string, readonly string[]>> = {},
): Record<string, string | undefined> {
  const events: Record<string, string | undefined> = {};
  for (const e of routed) Object.defineProperty(events, e, { get: () => allBut([...readOnly, ...(skip[e] ?? [])]), enumerable: true });
  for (const e of plain) events[e] = undefined;
  return events;
}

/** Claude Code's events as its settings wire them (Codex's and Qwen Code's too): PreToolUse routed past `readOnly`, the rest plain. */
export const claudeEvents = (readOnly: readonly string[]): Record<string, string | undefined> => routedEvents(readOnly, ['PreToolUse'], ['SessionStart', 'Stop', 'PreCompact', 'SessionEnd']);

function complement(names: readonly string[]): string {
  const root: Trie = { kids: new Map(), end: false };
  for (const w of new Set(names)) {
    let n = root;
    for (const c of w) {
      if (!n.kids.has(c)) n.kids.set(c, { kids: new Map(), end: false });
      n = n.kids.get(c)!;
    }
    n.end = true;
  }
  const rest = (n: Trie): string => {
    const alts: string[] = n.end ? [] : [''];
    const cs = [...n.kids.keys()];
    alts.push(cs.length ? `[^${cs.map(escape).join('')}].*` : '.+');
    for (const [c, k] of n.kids) alts.push(escape(c) + rest(k));
    return `(?:${alts.join('|')})`;
  };
  return `^${rest(root)}$`;
}

/**
 * Whether a hook group's matcher sends `tool` to its hook, as the clients read a matcher: none, empty or `*` every
 * tool; plain names joined by `|` by name (Claude Code 2.1.328, Qwen Code); any other text as a regular expression.
 */
export function matcherRoutes(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (/^[\w|, -]+$/.test(matcher)) return matcher.split(/[|,]/).map((m) => m.trim()).includes(tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return false;
  }
}
