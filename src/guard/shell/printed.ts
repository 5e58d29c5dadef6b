// What `echo` and `printf` of literal words print, for the rules that read a producer's output (a script piped into
// a shell, the arguments xargs appends). Whatever is not worked out exactly is null: unknown to the callers.
import { escapeAt, expands, type EscapeReader } from './lex';

/** Past this many characters of output the text is not worked out (a bound: the callers treat it as unknown). */
const MAX_PRINTED = 64 * 1024;

/** `s` with its escapes read (echo -e, `%b`); `stopped` when `\c` ended the output there. */
function unescape(s: string, reader: EscapeReader): { text: string; stopped: boolean } {
  let text = '';
  for (let i = 0; i < s.length; ) {
    if (s[i] !== '\\') {
      const next = s.indexOf('\\', i);
      const end = next < 0 ? s.length : next;
      text += s.slice(i, end);
      i = end;
      continue;
    }
    const [t, j] = escapeAt(s, i, reader);
    if (t === null) return { text, stopped: true };
    text += t;
    i = j;
  }
  return { text, stopped: false };
}

const CONVERSION = /^%([-+ #0']*)(\d*)(?:\.(\d*))?([a-zA-Z%])/;

/**
 * What `printf <args>` prints (bash's and coreutils' printf alike for these): the format's escapes, `%%`, and the
 * string conversions `%s`, `%b`, `%q`, `%c` with their precision; the format reused while arguments remain. Null for
 * what is not worked out exactly: a numeric or unknown conversion, a width or precision from an argument (`*`), an
 * output past MAX_PRINTED. `printf -v <var>` prints nothing.
 */
export function printfOutput(given: string[]): string | null {
  let args = given;
  if (args[0] === '-v') return '';
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0) return null;
  const [format, ...rest] = args;
  let out = '';
  let k = 0;
  for (;;) {
    let conversions = 0;
    for (let i = 0; i < format.length; ) {
      const ch = format[i];
      if (ch === '\\') {
        const [t, j] = escapeAt(format, i, 'format');
        if (t === null) return out;
        out += t;
        i = j;
      } else if (ch !== '%') {
        out += ch;
        i++;
      } else {
        const m = CONVERSION.exec(format.slice(i));
        if (!m) return null;
        i += m[0].length;
        const [, flags, width, precision, conv] = m;
        if (conv === '%') {
          out += '%';
          continue;
        }
        conversions++;
        const arg = rest[k++] ?? '';
        let text: string;
        if (conv === 's') text = arg;
        // %q quotes for the shell: a plain word is itself; anything else is not worked out
        else if (conv === 'q' || conv === 'Q') {
          if (!/^[\w./-]+$/.test(arg)) return null;
          text = arg;
        }
        else if (conv === 'c') text = arg.slice(0, 1) || '\0';
        else if (conv === 'b') {
          const u = unescape(arg, 'b');
          if (u.stopped) return out + u.text;
          text = u.text;
        } else return null;
        if (precision !== undefined && conv !== 'c') text = text.slice(0, Number(precision || 0));
        const pad = ' '.repeat(Math.max(0, Math.min(Number(width || 0), MAX_PRINTED) - text.length));
        out += flags.includes('-') ? text + pad : pad + text;
      }
      if (out.length > MAX_PRINTED) return null;
    }
    if (conversions === 0 || k >= rest.length) return out;
  }
}

/**
 * What `echo <args>` prints, in each way a shell's echo reads it: as written (bash without -e), with bash's -e escapes,
 * and with dash's (`sh`: always, `\NNN` octal too). `-n` drops the newline; `\c` ends the output.
 */
export function echoOutputs(args: string[]): string[] | null {
  let i = 0;
  while (i < args.length && /^-[neE]+$/.test(args[i])) i++;
  const newline = args.slice(0, i).some((a) => a.includes('n')) ? '' : '\n';
  const words = args.slice(i).join(' ');
  if (words.length > MAX_PRINTED) return null;
  const read = (reader: EscapeReader) => {
    const u = unescape(words, reader);
    return u.stopped ? u.text : u.text + newline;
  };
  return [words + newline, read('echo'), read('dash')];
}

/** The texts a literal `echo`/`printf` prints (one for printf, echo's readings that differ), or null when not worked out. */
export function printedTexts(prog: string, args: string[]): string[] | null {
  if (args.some(expands)) return null;
  const out = prog === 'echo' ? echoOutputs(args) : prog === 'printf' ? [printfOutput(args)] : null;
  return out && !out.includes(null) ? [...new Set(out as string[])] : null;
}
