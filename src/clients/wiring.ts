// What `install --agent` writes for one client (SPEC 6, docs/clients.md); src/install/agents.ts writes and checks it.
import type { ClientName } from './names';
import { readTextOr } from '../read-file';

export interface Wiring {
  client: ClientName;
  /** entries merged into a settings file of Claude Code's format, or what `files` says */
  format: 'settings' | 'files';
  /** the file, relative to the worktree */
  settings: string;
  /** event → tool matcher (undefined: no matcher): a before-tool event's routes every tool but the client's read-only ones (ClientRecord.readOnly) */
  events: Record<string, string | undefined>;
  /** the after-tool event, whose command also says `--after` (afterCommand) */
  after?: string;
  /** the client starts every hook with `bash -c`: bash reads the payload for the sh front (payloadCommand) */
  bash?: true;
  /** the client starts every hook with `/bin/sh -c`: that sh runs the front itself (shPayloadCommand) */
  sh?: true;
  /** (sh clients) a pre-tool event wired as two groups (hookGroups): `line` tools read by sh's `read`, the `rest` by `cat` */
  split?: { event: string; line: string[]; rest: string };
  /** in the client's unit: milliseconds where `timeoutMs`, else seconds */
  timeout: number;
  timeoutMs?: true;
  /** events the client bounds below `timeout`, with the most it accepts */
  eventTimeouts?: Record<string, number>;
  /** each hook entry carries `name: git-handoff` */
  named: boolean;
  /** the instructions file the startup note goes into */
  notes: string;
  /** (format `files`) what install writes in a worktree, for the guard run as `command` */
  files?: (command: string, worktree: string) => WiredFile[];
  /** (format `files`) the command line the client runs for its before-tool hook, from the guard's */
  runs?: (command: string, worktree: string) => string;
  /** where the client reads a project's Agent Skills; null: none is installed */
  skills: string | null;
  /** where an earlier install put the skill: install and uninstall take that copy away */
  formerSkills?: string;
}

/** One file a `files` wiring writes, relative to the worktree: git-handoff's own (`text`, `mode`), or entries in a JSON file. */
export interface WiredFile {
  file: string;
  text?: string;
  mode?: number;
  json?: JsonHooks;
}

/** Where a JSON hooks file keeps its events, and the entries git-handoff adds there. */
export interface JsonHooks {
  /** the keys from the file's root to the object of events */
  at: string[];
  /** the fields a file install creates starts with */
  base?: Record<string, unknown>;
  entries: Record<string, unknown[]>;
}

/** A wiring as its record states it: a `files` one, the guard's timeout in its unit, no name, the note in AGENTS.md and no skill, unless it says. */
export type WiringInput = Omit<Wiring, 'client' | 'format' | 'timeout' | 'named' | 'notes' | 'skills'> & Partial<Wiring>;
export const wiringOf = (client: ClientName, w: WiringInput): Wiring => ({
  format: 'files',
  timeout: w.timeoutMs ? HOOK_TIMEOUT_S * 1000 : HOOK_TIMEOUT_S,
  named: false,
  notes: 'AGENTS.md',
  skills: null,
  ...w,
  client,
});

/** A JSON hooks file's entries: one per event, `entry` made of the event and its matcher. */
export const eachEvent = (events: Wiring['events'], entry: (event: string, matcher: string | undefined) => unknown): Record<string, unknown[]> =>
  Object.fromEntries(Object.entries(events).map(([e, m]) => [e, [entry(e, m)]]));

/** A hook group of Claude Code's shape: `command` for the tools `matcher` routes (none: every tool). */
export const claudeGroup = (matcher: string | undefined, command: string, timeout = HOOK_TIMEOUT_S) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, timeout }] });

/** The guard's command in a hook file's text (any launcher, the front, a script named after it). */
export const GUARD_TEXT = /git[- ]handoff(-guard|(\.cmd|\.exe)?["']?\s+guard)/;

/** Whether `file` wires git-handoff's guard (with `also` in it, where given: the wiring's own `--client=`). */
export function wiredWithGuard(file: string, also = ''): boolean {
  const text = readTextOr(file);
  return text !== null && GUARD_TEXT.test(text) && text.includes(also);
}

/** Every wired hook's timeout, in seconds: above the guard's own watchdog (15 s), half the clients' own default. */
export const HOOK_TIMEOUT_S = 30;
/** Below this a client could give up on the guard, and run the call, before the guard's watchdog answers. */
export const HOOK_TIMEOUT_MIN_S = 20;

/** A timeout as the wiring writes it, in the client's unit (Wiring.timeoutMs), in seconds. */
export const timeoutSeconds = (w: Wiring, value: number): number => (w.timeoutMs ? value / 1000 : value);

/** What is wrong with a wired hook's timeout (in the client's unit), or null. */
export function hookTimeoutProblem(w: Wiring, value: unknown): { status: 'broken' | 'info'; detail: string } | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return { status: 'info', detail: `no hook timeout: the client's own default holds a person up a minute or more when a hook hangs (install again sets ${HOOK_TIMEOUT_S} s)` };
  }
  const s = timeoutSeconds(w, value);
  if (s < HOOK_TIMEOUT_MIN_S) {
    return { status: 'broken', detail: `a hook timeout of ${s} s: the client may give up on the guard and run the call before the guard's own answer (15 s at most); install again sets ${HOOK_TIMEOUT_S} s` };
  }
  return null;
}

/** The after-tool hook's command: with no warning pending for the session (`guard/<session>.note`) it starts nothing. */
export const afterCommand = (command: string): string =>
  `case \${GEMINI_SESSION_ID-} in '' | *[!a-z0-9_-]*) set -- .git/handoff/guard/*.note ;; *) set -- .git/handoff/guard/\${GEMINI_SESSION_ID}.note ;; esac; ` +
  `[ -d .git ] && ! [ -e "$1" ] && ! [ -L "$1" ] || exec ${command} --after`;

/** The sh front's flag: the payload is in PAYLOAD_VAR, not on stdin. */
export const PAYLOAD_FLAG = '--payload=env';
export const PAYLOAD_VAR = 'GIT_HANDOFF_PAYLOAD';
/** Characters bash hands over in PAYLOAD_VAR (4 bytes each at most, under Linux's 128 KiB a variable); more is piped. */
export const PAYLOAD_MAX_CHARS = 30_000;
const FRONT_COMMAND = /^(git-handoff-guard|"[^"]*\/git-handoff-guard")( --client=[\w-]+(?: --plugin)?)$/;

/** What bash runs for the front `front` (a shell word) with arguments `args` (each after a space): see payloadCommand. */
const readPayload = (front: string, args: string): string =>
  `[ "\${BASH_VERSINFO-0}" -ge 5 ] 2>/dev/null || exec ${front}${args}; read -rN ${PAYLOAD_MAX_CHARS} p; [ $? != 1 ] || ${PAYLOAD_VAR}=$p exec ${front} ${PAYLOAD_FLAG}${args}; ` +
  `{ printf %s "$p"; exec cat; } | exec ${front}${args}`;

/**
 * A hook command for a client that starts hooks with bash: bash 5 reads the payload (`read -N`, no process) and hands it
 * to the sh front in PAYLOAD_VAR when the read met the end; else the front reads stdin (what was read piped first).
 */
export function payloadCommand(command: string): string {
  const m = FRONT_COMMAND.exec(command);
  return m ? readPayload(m[1], m[2]) : command;
}

/** The sh front's flag, then its own word: it runs inside the client's sh (`. <front>`), not as a process of its own. */
export const SOURCED_FLAG = '--sourced';
/** The name the wiring reads the front in by from PATH: a front older than this wiring lacks it, and is run as a program. */
const SOURCED_NAME = 'git-handoff-front';

/** The flags of a split event's two groups, in place of SOURCED_FLAG (positional: nothing inherited can set them). */
export const SPLIT_FLAGS = { line: '--sourced-line', rest: '--sourced-rest' } as const;
type SplitGroup = keyof typeof SPLIT_FLAGS;
/** The name a split group reads the front in by from PATH: only fronts that know SPLIT_FLAGS have it (bin/git-handoff-front-split). */
export const SPLIT_NAME = 'git-handoff-front-split';

/**
 * A hook command for a client that starts hooks with POSIX sh: that sh reads the front in (`.`: no second shell), its
 * arguments after SOURCED_FLAG (or a split group's flag) and its own word; a front that cannot be read leaves the plain
 * `exec <front>`. `set -o posix` first: a bash would otherwise look for a front missing from PATH in the agent's folder.
 */
export function shPayloadCommand(command: string, group?: SplitGroup): string {
  const m = FRONT_COMMAND.exec(command);
  if (!m) return command;
  // on PATH, read in through a name only fronts that know this wiring have; a path is the plugin's own copy
  const read = m[1] === 'git-handoff-guard' ? (group ? SPLIT_NAME : SOURCED_NAME) : m[1];
  return `command set -o posix 2>/dev/null; set -- ${group ? SPLIT_FLAGS[group] : SOURCED_FLAG} ${m[1]}${m[2]}; command . ${read}; exec ${command}`;
}

/** A hook command for `w` running `command` (the after-tool hook has its own: afterCommand); `group`: a split event's (hookGroups). */
export const hookCommand = (w: Pick<Wiring, 'bash' | 'sh'>, command: string, group?: SplitGroup): string => (w.bash ? payloadCommand(command) : w.sh ? shPayloadCommand(command, group) : command);

/**
 * The hook groups for `event`: one, or for a split event its line group (its tools by name), then the rest. A client
 * that ignores matchers runs both for every call: each front leaves the other group's calls to it (elsewhereSh).
 */
export function hookGroups(w: Wiring, event: string, matcher: string | undefined, command: (group?: SplitGroup) => string): Array<{ matcher?: string; command: string }> {
  const split = w.split?.event === event ? w.split : null;
  // only the sh front knows the groups' flags: any other command (a launcher's `guard`) stays one group
  if (!split || command('line') === command()) return [{ ...(matcher ? { matcher } : {}), command: command() }];
  return [
    { matcher: split.line.join('|'), command: command('line') },
    { matcher: split.rest, command: command('rest') },
  ];
}

/** The front's sh function `name` that sets `payload` to its stdin as `$(cat)` would; a line group's by sh's `read`. */
export const takeSh = (name: string): string =>
  `${name}() { [ "$split" = line ] || { payload=$(cat); return; }; IFS= read -r payload || return 0; IFS= read -r rest || [ -n "$rest" ] || return 0; ` +
  `payload=$(printf '%s\\n%s\\n' "$payload" "$rest"; cat); } # the payload, as $(cat) reads it: src/clients/wiring.ts`;

/** The front's sh function `name`: is tool $1 the other group's, of a split event (the line group's: by exact name)? */
export function elsewhereSh(name: string, wirings: Wiring[]): string {
  const arms: string[] = [];
  for (const w of wirings) {
    if (!w.split) continue;
    const c = w.client;
    const line = w.split.line;
    arms.push(`${line.map((t) => `${c}:line:${t}`).join(' | ')}) return 1 ;;`, `${c}:line:*) return 0 ;;`, `${line.map((t) => `${c}:rest:${t}`).join(' | ')}) return 0 ;;`);
  }
  return `${name}() { case $client:$split:$1 in ${arms.join(' ')} esac; return 1; } # the other group's tool, of a split event: src/clients/wiring.ts`;
}
