// How the CLI prints: JSON or text, aligned tables, relative times, terminal-safe bodies, errors.
import { EXIT, HandoffError, toHandoffError } from '../errors';
import { COLOR_OFF_VAR } from '../environment';
import { git } from '../git/run';
import { escapeJsonControls, stripTerminalControls } from '../terminal-text';
import { splitAtDashes } from './argv';

export { relativeTime } from '../handoff/store/time';

/** `value` as one line of JSON, every control character escaped (SPEC 4: `--json` escapes controls). */
export const jsonLine = (value: unknown): string => escapeJsonControls(JSON.stringify(value));

export function printJson(value: unknown): void {
  process.stdout.write(escapeJsonControls(JSON.stringify(value, null, 2)) + '\n');
}

/** A warning on stderr (the command goes on). */
export const warn = (text: string) => process.stderr.write(`git-handoff: warning: ${text}\n`);

/** A command's answer: its data with --json, else its text (lines: one each). */
export function answer(json: boolean | undefined, data: unknown, text: string | string[]): void {
  if (json) printJson(data);
  else process.stdout.write(typeof text === 'string' ? text : text.map((l) => `${l}\n`).join(''));
}

/** Why a command that printed its answer does not end 0: the exit code and what stderr says (EXIT.ok: a warning only). */
export type Problem = { code: number; why: string } | undefined | false;
// the gravest first: a version refused (6) over another writer's change (4) over the host or the network (7)
const GRAVITY: number[] = [EXIT.integrity, EXIT.concurrent, EXIT.environment];

/** The answer stands; each problem goes to stderr (with --json, the data says it) and the gravest sets the exit code, as `git push` fails on a rejected ref. */
export function endWith(json: boolean | undefined, problems: Problem[]): void {
  const found = problems.filter((p) => !!p);
  if (!json) for (const p of found) process.stderr.write(`git-handoff: ${p.why}\n`);
  const gravest = GRAVITY.find((code) => found.some((p) => p.code === code));
  if (gravest !== undefined) process.exitCode = gravest;
}

// The colours this CLI paints (colors() below): the only escape sequences a terminal is ever sent.
const OWN_SGR = /\x1b\[(?:0|1|2|31|32|33|36)m/g;
/** Strips terminal control sequences when writing to a TTY (all but this CLI's own colours), so data cannot drive the terminal. */
export function terminalSafe(text: string, isTTY = !!process.stdout.isTTY): string {
  if (!isTTY) return text;
  // with colour off, no escape sequence at all reaches the terminal (a body's own "reset" included)
  if (!colorEnabled) return stripTerminalControls(text);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(OWN_SGR)) {
    out += stripTerminalControls(text.slice(last, m.index)) + m[0];
    last = m.index! + m[0].length;
  }
  return out + stripTerminalControls(text.slice(last));
}

/**
 * The one output layer: every write the CLI makes to a terminal (stdout or stderr: tables, refusals, fetch
 * lines, errors) passes through terminalSafe, so no print path of data can be missed. Pipes get the bytes as
 * they are (show --raw stays exact; --json escapes every control character).
 */
export function guardTerminalStreams(): void {
  for (const stream of [process.stdout, process.stderr]) if (stream.isTTY) stream.write = terminalWriter(stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean);
}

/** `write` with every chunk made terminal-safe first: a terminal's stream, or the pager that shows stdout on it. */
export function terminalWriter(write: (chunk: unknown, ...rest: unknown[]) => boolean): typeof process.stdout.write {
  return ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? terminalSafe(chunk, true) : chunk instanceof Uint8Array ? terminalSafe(Buffer.from(chunk).toString('utf8'), true) : chunk, ...rest)) as typeof process.stdout.write;
}

const ANSI = /\x1b\[[0-9;]*m/g;
// the code points a terminal draws two columns wide (CJK, Hangul, full-width forms, most emoji)
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
const columnsOf = (ch: string) => (WIDE.test(ch) ? 2 : 1);
const visibleLength = (s: string) => [...s.replace(ANSI, '')].reduce((n, ch) => n + columnsOf(ch), 0);

/** `line` cut to `cols` terminal columns, its last one an ellipsis when cut; colour sequences kept and closed. */
export function cutToWidth(line: string, cols: number): string {
  if (visibleLength(line) <= cols) return line;
  let out = '';
  let used = 0;
  for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith('\x1b[')) {
      out += part;
      continue;
    }
    for (const ch of part) {
      if (used + columnsOf(ch) > cols - 1) return `${out}…${out.includes('\x1b[') ? '\x1b[0m' : ''}`;
      out += ch;
      used += columnsOf(ch);
    }
  }
  return out;
}

/** Aligned columns; cells may carry colour, which does not count toward the width. */
export function table(rows: string[][], header: string[]): string {
  const c = colors();
  const all = [header.map((h) => c.bold(h)), ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => visibleLength(r[i] ?? ''))));
  return all
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i] - visibleLength(cell)))).join('  ').trimEnd())
    .join('\n');
}

let colorEnabled: boolean | undefined;

/**
 * argv without the colour switches (before `--`), which set the colour mode here for the whole command: both
 * parsers (hot.ts, yargs) then read a command line without them. As git and jj spell them: `--color[=always|never|auto]`
 * (alone: always), `--no-color`; the last one given wins.
 */
export function colorSwitches(argv: string[]): string[] {
  const [head, rest] = splitAtDashes(argv);
  let when: string | undefined;
  const kept = head.filter((a) => {
    const m = /^--(no-color|colou?r)(?:=(.*))?$/.exec(a);
    if (!m) return true;
    if (m[1] === 'no-color') {
      if (m[2] !== undefined) throw new HandoffError('usage', 'bad-color', `--no-color takes no value (got "${a}"); use --color=never`);
      when = 'never';
    } else when = m[2] ?? 'always';
    if (!/^(always|never|auto)$/.test(when)) {
      throw new HandoffError('usage', 'bad-color', `--color takes always, never or auto (got "${when}"), e.g. --color=never; --no-color is --color=never`);
    }
    return false;
  });
  if (when === 'always') colorEnabled = true;
  else if (when === 'never') colorEnabled = false;
  return [...kept, ...rest];
}

/** Colour only on a TTY, never with NO_COLOR, TERM=dumb or `git config color.ui false` (unless --color=always). */
function useColor(): boolean {
  colorEnabled ??=
    !!process.stdout.isTTY &&
    !(COLOR_OFF_VAR in process.env) &&
    process.env.TERM !== 'dumb' &&
    !/^(false|never|no|off|0)$/i.test(git(['config', '--get', 'color.ui'], { allowFail: true }).stdout.trim());
  return colorEnabled;
}

const paint = (code: string) => (s: string) => (useColor() ? `\x1b[${code}m${s}\x1b[0m` : s);
export const colors = () => ({ bold: paint('1'), dim: paint('2'), red: paint('31'), green: paint('32'), yellow: paint('33'), cyan: paint('36') });

export function colorSync(state: string): string {
  const c = colors();
  return state === 'synced' ? c.green(state) : state === 'diverged' || state === 'refused' ? c.red(state) : state === 'local' ? c.dim(state) : c.yellow(state);
}

/** Prints an error the way the taxonomy promises and returns its exit code. */
export function reportError(e: unknown, json: boolean): number {
  const err: HandoffError = toHandoffError(e);
  if (json) {
    process.stdout.write(jsonLine({ error: { code: err.code, message: err.message, data: err.data } }) + '\n');
  } else {
    process.stderr.write(`git-handoff: ${err.message}\n`);
    if (err.kind === 'internal' && process.env.GIT_HANDOFF_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  }
  return err.exitCode;
}
