// What `install --agent` writes for one client (SPEC 6, docs/clients.md): each client's file in src/clients states
// its own; src/install/agents.ts writes, removes and checks them.
import { readFileSync } from 'node:fs';
import type { ClientName } from './names';

export interface Wiring {
  /** the client, as the guard's --client= argument names it */
  client: ClientName;
  /**
   * How it is written: `settings`, hook entries merged into a JSON settings file in Claude Code's format;
   * `hooks-file`, a whole hooks file of git-handoff's own (Copilot's `.github/hooks/*.json`); `files`, what `files`
   * says (a plugin module the client loads, a hook script, entries in a client's JSON hooks file).
   */
  format: 'settings' | 'hooks-file' | 'files';
  /** the file, relative to the worktree */
  settings: string;
  /** event → tool matcher (undefined: no matcher): a before-tool event's routes every tool but the client's read-only ones (ClientRecord.readOnly) */
  events: Record<string, string | undefined>;
  /** the after-tool event, whose command also says `--after`: the sh front then answers with no note pending without reading the payload */
  after?: string;
  /** the client starts every hook with `bash -c` (execve traces, its sources): bash reads the payload for the sh front (payloadCommand) */
  bash?: true;
  /** the client starts every hook with `/bin/sh -c` (execve traces): that sh runs the front itself (shPayloadCommand) */
  sh?: true;
  /**
   * (sh clients) a pre-tool event whose tools are wired as two groups (hookGroups): `line`, the tools whose payload is
   * one short line (a shell call's: a few hundred bytes; an edit's old and new strings: seldom past a few KB), read
   * with sh's `read` (no process); the event's other tools in a group of their own, read with `cat` (a `read` costs a
   * system call a byte: slower than `cat` past about 5 KB, which a whole file's Write often is), matched by name; `rest`,
   * the matcher of the event's every other routed tool, read with `cat`
   */
  split?: { event: string; line: string[]; rest: string };
  /** in the unit the client counts hook timeouts in */
  timeout: number;
  /** the client counts hook timeouts in milliseconds (else seconds) */
  timeoutMs?: true;
  /** events the client bounds below `timeout`, with the most it accepts (install writes that; doctor leaves it be) */
  eventTimeouts?: Record<string, number>;
  /** each hook entry carries `name: git-handoff` */
  named: boolean;
  /** the instructions file the startup note goes into */
  notes: string;
  /** (format `files`) what install writes in a worktree, for the guard run as `command` */
  files?: (command: string, worktree: string) => WiredFile[];
  /** (format `files`) the command line the client runs for its before-tool hook (doctor's probe), from the guard's */
  runs?: (command: string, worktree: string) => string;
  /** where the client reads a project's Agent Skills; null: none is installed */
  skills: string | null;
  /** where an earlier install put the skill and the client still reads it: install and uninstall take that copy away */
  formerSkills?: string;
}

/** One file a `files` wiring writes, relative to the worktree: git-handoff's own (`text`), or entries in a JSON file (`json`). */
export interface WiredFile {
  file: string;
  /** the whole file, git-handoff's own (left alone where another file of that name is there) */
  text?: string;
  /** an own file's mode (an executable hook script) */
  mode?: number;
  /** entries merged into a JSON file the person may keep other entries in */
  json?: JsonHooks;
}

/** Where a JSON hooks file keeps its events, and the entries git-handoff adds there. */
export interface JsonHooks {
  /** the keys from the file's root to the object of events ([]: the root itself) */
  at: string[];
  /** the fields a file install creates starts with (Cursor's `version: 1`) */
  base?: Record<string, unknown>;
  /** per event, the entries added (each holds the guard's command in a string of its own) */
  entries: Record<string, unknown[]>;
}

/** A wiring of files install writes (format `files`): the guard's timeout in seconds, no name, the note in AGENTS.md and no skill, unless `w` says. */
export const filesWiring = (w: Pick<Wiring, 'client' | 'settings' | 'events' | 'files'> & Partial<Wiring>): Wiring => ({
  format: 'files',
  timeout: HOOK_TIMEOUT_S,
  named: false,
  notes: 'AGENTS.md',
  skills: null,
  ...w,
});

/** A hook group of Claude Code's shape: `command` for the tools `matcher` routes (none: every tool). */
export const claudeGroup = (matcher: string | undefined, command: string, timeout = HOOK_TIMEOUT_S) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, timeout }] });

/** The guard's command in a hook file's text (any launcher, the front, a script named after it). */
export const GUARD_TEXT = /git[- ]handoff(-guard|(\.cmd|\.exe)?["']?\s+guard)/;

/** Whether `file` wires git-handoff's guard (with `also` in it, where given: the wiring's own `--client=`). */
export function wiredWithGuard(file: string, also = ''): boolean {
  try {
    const text = readFileSync(file, 'utf8');
    return GUARD_TEXT.test(text) && text.includes(also);
  } catch {
    return false;
  }
}

/**
 * Every wired hook's timeout, in seconds: above the guard's own watchdog (WATCHDOG_MS, 15 s: past it the guard
 * answers itself, closed where it matters; its decision budget inside is 4 s) with room for a slow node start, so no
 * client runs a call because the guard was slow; and half the clients' own default (60 s) that holds a person up.
 */
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

/**
 * The after-tool hook's command (clients run hooks with `bash -c`): bash's own tests first, so with `.git` here and no
 * warning pending for this session (`guard/<session>.note`; Gemini CLI gives hooks GEMINI_SESSION_ID, written with
 * braces so that it does not paste the id into the command; without it any `guard/*.note`) nothing is started; else
 * the sh front, told `--after`, looks itself.
 */
export const afterCommand = (command: string): string =>
  `case \${GEMINI_SESSION_ID-} in '' | *[!a-z0-9_-]*) set -- .git/handoff/guard/*.note ;; *) set -- .git/handoff/guard/\${GEMINI_SESSION_ID}.note ;; esac; ` +
  `[ -d .git ] && ! [ -e "$1" ] && ! [ -L "$1" ] || exec ${command} --after`;

/** The sh front's flag: the payload is in PAYLOAD_VAR, not on stdin (bin/git-handoff-guard reads it, then unsets it). */
export const PAYLOAD_FLAG = '--payload=env';
export const PAYLOAD_VAR = 'GIT_HANDOFF_PAYLOAD';
/** Characters bash hands over in PAYLOAD_VAR: at most 4 bytes each, under Linux's 128 KiB for one variable; a longer payload is piped on. */
export const PAYLOAD_MAX_CHARS = 30_000;
const FRONT_COMMAND = /^(git-handoff-guard|"[^"]*\/git-handoff-guard")( --client=[\w-]+(?: --plugin)?)$/;

/** What bash runs for the front `front` (a shell word) with arguments `args` (each after a space): see payloadCommand. */
const readPayload = (front: string, args: string): string =>
  `[ "\${BASH_VERSINFO-0}" -ge 5 ] 2>/dev/null || exec ${front}${args}; read -rN ${PAYLOAD_MAX_CHARS} p; [ $? != 1 ] || ${PAYLOAD_VAR}=$p exec ${front} ${PAYLOAD_FLAG}${args}; ` +
  `{ printf %s "$p"; exec cat; } | exec ${front}${args}`;

/**
 * A hook command for a client that starts hooks with bash (`bash: true`): bash 5 reads the payload itself (`read -N`:
 * a few 4 KiB reads, no process) and gives it to the sh front in PAYLOAD_VAR, so the front starts no `cat`. Only a
 * read that met the end (status 1) is handed so; under another shell or an older bash, for a payload of
 * PAYLOAD_MAX_CHARS or more, or any other status, the front reads its stdin as before (what was read piped first).
 * Only the sh front's command is wrapped (`git handoff guard` and other launchers read stdin).
 */
export function payloadCommand(command: string): string {
  const m = FRONT_COMMAND.exec(command);
  return m ? readPayload(m[1], m[2]) : command;
}

/** The sh front's flag, then its own word: it runs inside the client's sh (`. <front>`), not as a process of its own. */
export const SOURCED_FLAG = '--sourced';
/**
 * The name the wiring reads the front in by when the front is found on PATH (package.json's bin): a repository's
 * settings are shared by clones with other versions, and a front older than this wiring, read in, would hand over
 * with the client's sh as its `$0`, find no node (127), and the client would run the call. An installation without
 * this name fails the `.` and execs the front as a program instead.
 */
const SOURCED_NAME = 'git-handoff-front';

/**
 * The flags of the two groups of a split event (Wiring.split), in place of SOURCED_FLAG: `line`, read the payload with
 * sh's `read` and leave the other group's tools to it; `rest`, leave the line group's to it. Positional, so that nothing
 * inherited (a variable in the client's environment) can make a front leave a call alone; read in through SPLIT_NAME.
 */
export const SPLIT_FLAGS = { line: '--sourced-line', rest: '--sourced-rest' } as const;
type SplitGroup = keyof typeof SPLIT_FLAGS;
/** The name a split group reads the front in by from PATH: only fronts that know SPLIT_FLAGS have it (bin/git-handoff-front-split). */
export const SPLIT_NAME = 'git-handoff-front-split';

/**
 * A hook command for a client that starts hooks with POSIX sh (`sh: true`, Claude Code: `/bin/sh -c`, dash on Debian):
 * that sh runs the front itself (`.`, sh builtins only: no second shell started), the front's arguments after
 * SOURCED_FLAG (or a split group's flag, SPLIT_FLAGS) and its own word, and reads the payload as the plain front does
 * (`cat`: bounded, where sh's `read` costs a system call per byte; a split event's line group: `read`). What the front
 * hands to node that sh hands over itself (`exec node`, the front's directory from its word: bin/git-handoff-guard's
 * sourced full()); where no node is found there, through the front run as itself (its word), the payload on stdin. A
 * front that cannot be read (`command .` fails without ending sh) leaves
 * the plain `exec <front>`, the front run as a program, which every front understands (with none on PATH it fails
 * as it did: 127). A bash out of POSIX mode (a client running this wiring with `bash -c`) would look for a front
 * missing from PATH in the current directory, the agent's: `set -o posix` first (an error that `command` keeps from
 * ending dash). The front's word stays as the client wrote it: a client that pastes a path into the command (Claude
 * Code's `${CLAUDE_PLUGIN_ROOT}`) may paste one holding a quote.
 */
export function shPayloadCommand(command: string, group?: SplitGroup): string {
  const m = FRONT_COMMAND.exec(command);
  if (!m) return command;
  // on PATH, read in through a name only fronts that know this wiring have (bin/git-handoff-front, -split); a path is
  // the front's own copy (the plugin's), as new as this wiring
  const read = m[1] === 'git-handoff-guard' ? (group ? SPLIT_NAME : SOURCED_NAME) : m[1];
  return `command set -o posix 2>/dev/null; set -- ${group ? SPLIT_FLAGS[group] : SOURCED_FLAG} ${m[1]}${m[2]}; command . ${read}; exec ${command}`;
}

/** A hook command for `w` running `command` (the after-tool hook has its own: afterCommand); `group`: a split event's (hookGroups). */
export const hookCommand = (w: Wiring, command: string, group?: SplitGroup): string => (w.bash ? payloadCommand(command) : w.sh ? shPayloadCommand(command, group) : command);

/**
 * The hook groups for `event` with `matcher`, each [matcher, command]: one group, or for a split event (Wiring.split)
 * its line group (its tools by name) first, then the rest (every other routed tool: Wiring.split.rest). `command(group)`
 * gives a group's command. A client that ignores matchers (VS Code's agent) runs both groups for every call: each front
 * then leaves the other group's calls to it (the line group every tool not its own; the rest group the line's), so a
 * call is decided once, and a call whose tool name cannot be read plainly by both.
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

/**
 * The front's sh function `name` that sets `payload` to its stdin as `$(cat)` would (trailing newlines dropped): a line
 * group's front (split=line) reads the first line with sh's `read` (a client's JSON on one line: all of it) and a second
 * `read` meets the end; where a second line comes, the two are put back in front of the rest, read with `cat`.
 */
export const takeSh = (name: string): string =>
  `${name}() { [ "$split" = line ] || { payload=$(cat); return; }; IFS= read -r payload || return 0; IFS= read -r rest || [ -n "$rest" ] || return 0; ` +
  `payload=$(printf '%s\\n%s\\n' "$payload" "$rest"; cat); } # the payload, as $(cat) reads it: src/clients/wiring.ts`;

/**
 * The front's sh function `name`: does tool $1 belong to the other group of a split event (Wiring.split)? For the line
 * group, every tool but its own, by exact name; for the rest group, the line group's tools. A client that reads the
 * line group's matcher as an unanchored regex (older Claude Code) and so runs both groups for `MultiEdit` has it
 * decided by the rest; a client that ignores matchers runs both for every tool.
 */
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
