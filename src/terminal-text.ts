// What may reach a terminal from data: the one pattern every printer strips, so no print path keeps its own idea of a
// control character.

// Escape sequences (CSI, OSC/DCS/APC/PM/SOS strings, two-byte escapes), C0 and C1 controls but tab and newline
// (U+009B is CSI to some terminals, CR overwrites what was shown), and the bidi controls that reorder what is seen.
const TERMINAL_CONTROLS = /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[\s\S]?|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// The controls JSON.stringify leaves as they are (it escapes C0 alone): DEL, C1, the bidi controls, and the line and
// paragraph separators. Outside strings JSON text is ASCII, so each is inside a string, where \uXXXX means the same.
const JSON_RAW_CONTROLS = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text with every control character escaped (`--json`, SPEC 4): the same value, no byte a terminal acts on. */
export const escapeJsonControls = (json: string): string => json.replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Text with every terminal control removed (tabs and newlines kept). */
export const stripTerminalControls = (text: string): string => text.replace(TERMINAL_CONTROLS, '');

/** At most `max` characters, cut at a word boundary with an ellipsis, never inside a word. */
export const wordCut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max + 1).replace(/\s+\S*$/, '')}…`);

/**
 * Text that came from a file, a marker, a remote or another session, made safe to show inside a refusal, on a
 * terminal or to the model: controls removed, and anything but plain printable text (a tag, a quote, a backtick, a
 * line break) shown as a JSON string with < and > escaped, so it can neither end a wrapper nor read as instructions
 * outside its quotes. Long text is cut (and says so).
 */
export function neutral(text: string, max = 200): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  if (/^[\p{L}\p{N} _./@+,:=~%#()-]*\u2026?$/u.test(cut)) return cut;
  return JSON.stringify(stripTerminalControls(cut)).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/`/g, '\\u0060');
}

/** `text` broken at spaces into lines of at most `width` characters, each after the first indented by two (a longer word stays whole). */
export function wrapWords(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `  ${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** Text as one single-quoted POSIX shell word, whatever it holds. */
export const shellQuote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** One word as the shell reads it back: as it is when it holds only plain characters, else single-quoted. */
export const shellWord = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : shellQuote(a));
