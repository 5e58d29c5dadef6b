// A command line read as sh and bash read it: words with their quotes removed, operators, here-documents with their
// bodies. Expansions stay in a word as their text, so the rules see it is not literal; every command and process
// substitution's script is read as commands of its own, after the line's. `g''it`, `$'\x67it'` and `git` are one word.

/** Whether `s` holds a `$` or a backtick (an expansion the guard cannot see may be there), without compiling an expression. */
export const expands = (s: string): boolean => s.includes('$') || s.includes('`');

/** A word (a glob's quoted glob characters escaped), an operator, or a here-document's or here-string's text (`expands`: $(…) in it runs). */
export type Token = string | { op: string } | { op: '<<'; body: string; expands: boolean };

/** A bound of the lexer was reached (nesting, size): the caller refuses what names protected things. */
export class LexBound extends Error {}

const MAX_NESTING = 8;
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const GLOB = new Set(['*', '?', '[']);

interface State {
  src: string;
  i: number;
  /** bodies of command and process substitutions met at this level */
  subs: string[];
}

/** The tokens of a script; `home` expands an unquoted leading `~`. */
export function lex(src: string, home: string | null = null, depth = 0): Token[] {
  if (depth > MAX_NESTING) throw new LexBound('substitutions nested too deeply');
  const s: State = { src, i: 0, subs: [] };
  const out: Token[] = [];
  const pendingDocs: Array<{ t: { op: '<<'; body: string; expands: boolean }; delim: string; strip: boolean }> = [];
  let atWordStart = true;
  while (s.i < src.length) {
    const c = src[s.i];
    if (c === ' ' || c === '\t') {
      s.i++;
      continue;
    }
    if (c === '\\' && src[s.i + 1] === '\n') {
      s.i += 2;
      continue;
    }
    if (c === '#' && atWordStart) {
      while (s.i < src.length && src[s.i] !== '\n') s.i++;
      continue;
    }
    if (c === '\n') {
      s.i++;
      for (const d of pendingDocs.splice(0)) d.t.body = readHereDoc(s, d.delim, d.strip);
      out.push({ op: ';' });
      continue;
    }
    const op = operator(src, s.i);
    if (op) {
      s.i += op.length;
      if (op === '<(' || op === '>(') {
        const end = closeParen(src, s.i);
        s.subs.push(src.slice(s.i, end));
        s.i = Math.min(end + 1, src.length);
        out.push('/dev/fd/63');
        continue;
      }
      if (op === '<<' || op === '<<-') {
        while (src[s.i] === ' ' || src[s.i] === '\t') s.i++;
        const w = readWord(s, null);
        const t = { op: '<<' as const, body: '', expands: !w.quoted };
        pendingDocs.push({ t, delim: w.text, strip: op === '<<-' });
        out.push(t);
        continue;
      }
      if (op === '<<<') {
        while (src[s.i] === ' ' || src[s.i] === '\t') s.i++;
        const w = readWord(s, home);
        out.push({ op: '<<', body: w.text + '\n', expands: false });
        continue;
      }
      out.push({ op: op === ';;' || op === ';&' || op === ';;&' ? ';' : op });
      continue;
    }
    // an fd number or {name} right before a redirection belongs to it (tested only from a digit or `{`: the expression is costly)
    const c0 = src.charCodeAt(s.i);
    const fd = (c0 >= 48 && c0 <= 57) || c0 === 123 ? /^(\d+|\{[A-Za-z_]\w*\})(?=[<>])/.exec(src.slice(s.i, s.i + 40)) : null;
    if (fd) {
      s.i += fd[0].length;
      continue;
    }
    const w = readWord(s, home);
    out.push(w.glob ? w.pattern : w.text);
    atWordStart = true;
  }
  for (const d of pendingDocs) d.t.body = '';
  // here-document bodies that expand run their substitutions too; a quoted one's may still run later (as literals do)
  for (const t of out) if (typeof t === 'object' && t.op === '<<' && 'body' in t && (t.expands || /\$\(|`/.test(t.body))) collectSubs(t.body, s.subs);
  for (const body of s.subs) out.push({ op: ';' }, ...lex(body, home, depth + 1));
  return out;
}

const OPS = ['<<<', '<<-', ';;&', '&>>', '<<', '>>', '>|', '<>', '<&', '>&', '&>', '&&', '||', '|&', ';;', ';&', '<(', '>(', ';', '&', '|', '(', ')', '<', '>'];

function operator(src: string, i: number): string | null {
  if (!META.has(src[i]) || src[i] === ' ' || src[i] === '\t' || src[i] === '\n') return null;
  for (const op of OPS) if (src.startsWith(op, i)) return op;
  return null;
}

/** A here-document body: the lines up to the delimiter line (tabs stripped for <<-). */
function readHereDoc(s: State, delim: string, strip: boolean): string {
  const lines: string[] = [];
  while (s.i < s.src.length) {
    let end = s.src.indexOf('\n', s.i);
    if (end < 0) end = s.src.length;
    const line = strip ? s.src.slice(s.i, end).replace(/^\t+/, '') : s.src.slice(s.i, end);
    s.i = end + 1;
    if (line === delim) break;
    lines.push(line);
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

interface Word {
  /** the word with quotes removed, expansions kept as text */
  text: string;
  /** as text, with quoted glob characters escaped (when glob) */
  pattern: string;
  glob: boolean;
  quoted: boolean;
}

const escGlob = (ch: string) => (GLOB.has(ch) || ch === '\\' ? '\\' + ch : ch);

function readWord(s: State, home: string | null): Word {
  const { src } = s;
  let text = '';
  let pattern = '';
  let glob = false;
  let quoted = false;
  const start = s.i;
  const lit = (ch: string) => {
    text += ch;
    pattern += escGlob(ch);
  };
  const raw = (t: string) => {
    text += t;
    pattern += t;
  };
  const literal = (body: string) => {
    for (const ch of body) lit(ch);
    // literal text holding a command substitution may still run it (`${x@P}`, arithmetic, eval): read as if it does
    if (/\$\(|`/.test(body)) collectSubs(body, s.subs);
  };
  if (home !== null && src[s.i] === '~' && (s.i + 1 >= src.length || src[s.i + 1] === '/' || META.has(src[s.i + 1]))) {
    lit(home);
    s.i++;
  } else if (src[s.i] === '~') {
    // `~+` (the directory it runs in), `~-` (the one before), `~user`, `~+2`: a directory the guard does not know,
    // kept as an expansion so that a word built on it is never taken for a literal path
    const m = /^~([+-]\d*|[A-Za-z_][\w.-]*)(?=$|[/ \t\n;&|()<>])/.exec(src.slice(s.i, s.i + 300));
    if (m) {
      raw(m[1] === '+' ? '$PWD' : m[1] === '-' ? '$OLDPWD' : `\${~${m[1]}}`);
      s.i += m[0].length;
    }
  }
  while (s.i < src.length) {
    const c = src[s.i];
    if (META.has(c)) {
      // an extglob group: ?( *( +( @( !(
      if (c === '(' && s.i > start && '?*+@!'.includes(src[s.i - 1]) && !quoted) {
        const end = closeParen(src, s.i + 1);
        raw(src.slice(s.i, end + 1));
        s.i = end + 1;
        glob = true;
        continue;
      }
      break;
    }
    if (c === '\\') {
      if (src[s.i + 1] === '\n') s.i += 2;
      else {
        if (s.i + 1 < src.length) lit(src[s.i + 1]);
        s.i += 2;
        quoted = true;
      }
      continue;
    }
    if (c === "'") {
      const end = src.indexOf("'", s.i + 1);
      const stop = end < 0 ? src.length : end;
      literal(src.slice(s.i + 1, stop));
      s.i = stop + 1;
      quoted = true;
      continue;
    }
    // "…", and $"…" (a translated string: read as one)
    if (c === '"' || (c === '$' && src[s.i + 1] === '"')) {
      s.i += c === '"' ? 1 : 2;
      readDouble(s, lit, raw);
      quoted = true;
      continue;
    }
    if (c === '$' && src[s.i + 1] === "'") {
      s.i += 2;
      literal(ansiC(s));
      quoted = true;
      continue;
    }
    if (c === '$' || c === '`') {
      raw(dollar(s));
      continue;
    }
    if (GLOB.has(c)) glob = true;
    raw(c);
    s.i++;
  }
  return { text, pattern, glob, quoted };
}

/** Inside "…": backslash escapes only $ ` " \ and newline; expansions are kept as text. Stops after the quote. */
function readDouble(s: State, lit: (c: string) => void, raw: (t: string) => void): void {
  const { src } = s;
  while (s.i < src.length) {
    const c = src[s.i];
    if (c === '"') {
      s.i++;
      return;
    }
    if (c === '\\' && s.i + 1 < src.length && '$`"\\\n'.includes(src[s.i + 1])) {
      if (src[s.i + 1] !== '\n') lit(src[s.i + 1]);
      s.i += 2;
      continue;
    }
    if (c === '$' || c === '`') {
      const t = dollar(s);
      // a lone `$` (before a space or the quote) is literal
      if (t === '$') lit('$');
      else raw(t);
      continue;
    }
    lit(c);
    s.i++;
  }
}

/** A $…, ${…}, $(…), $((…)) or `…` expansion at s.i, as its text; command substitution bodies go to s.subs. */
function dollar(s: State): string {
  const { src } = s;
  const from = s.i;
  if (src[s.i] === '`') {
    let body = '';
    let j = s.i + 1;
    for (; j < src.length && src[j] !== '`'; j++) {
      if (src[j] === '\\' && j + 1 < src.length && '$`\\'.includes(src[j + 1])) body += src[++j];
      else body += src[j];
    }
    s.i = Math.min(j + 1, src.length);
    s.subs.push(body);
    return src.slice(from, s.i);
  }
  const n = src[s.i + 1];
  if (n === '(' && src[s.i + 2] === '(') {
    const end = closeParen(src, s.i + 3);
    const inner = src.slice(s.i + 3, end);
    s.i = Math.min(end + 2, src.length);
    collectSubs(inner, s.subs);
    return src.slice(from, s.i);
  }
  if (n === '(') {
    const end = closeParen(src, s.i + 2);
    s.subs.push(src.slice(s.i + 2, end));
    s.i = Math.min(end + 1, src.length);
    return src.slice(from, s.i);
  }
  if (n === '{') {
    let depth = 0;
    let j = s.i + 1;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === '\\') j++;
      else if (c === "'") j = skipSingle(src, j);
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
      else if ((c === '$' && src[j + 1] === '(') || c === '`') {
        const sub: State = { src, i: j, subs: s.subs };
        dollar(sub);
        j = sub.i - 1;
      }
    }
    s.i = Math.min(j + 1, src.length);
    return src.slice(from, s.i);
  }
  const m = /^\$([A-Za-z_]\w*|\d|[@*#?$!-])/.exec(src.slice(s.i, s.i + 256));
  s.i += m ? m[0].length : 1;
  return m ? m[0] : '$';
}

const skipSingle = (src: string, j: number) => {
  const e = src.indexOf("'", j + 1);
  return e < 0 ? src.length : e;
};

/** The command substitutions in text that undergoes expansion (an unquoted here-document, arithmetic). */
function collectSubs(text: string, subs: string[]): void {
  const s: State = { src: text, i: 0, subs };
  while (s.i < text.length) {
    const c = text[s.i];
    if (c === '\\') s.i += 2;
    else if (c === '`' || (c === '$' && (text[s.i + 1] === '(' || text[s.i + 1] === '{'))) dollar(s);
    else s.i++;
  }
}

/** The index of the `)` that closes a group opened just before `from` (quotes, escapes and nesting respected). */
function closeParen(src: string, from: number): number {
  let depth = 1;
  for (let j = from; j < src.length; j++) {
    const c = src[j];
    if (c === '\\') j++;
    else if (c === "'") j = skipSingle(src, j);
    else if (c === '"') {
      for (j++; j < src.length && src[j] !== '"'; j++) {
        if (src[j] === '\\') j++;
        else if (src[j] === '$' && src[j + 1] === '(') j = closeParen(src, j + 2);
        else if (src[j] === '`') j = closeTick(src, j);
      }
    } else if (c === '`') j = closeTick(src, j);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return src.length;
}

function closeTick(src: string, j: number): number {
  for (j++; j < src.length && src[j] !== '`'; j++) if (src[j] === '\\') j++;
  return j;
}

/** A $'…' string decoded as bash does; s.i is after the opening quote and ends after the closing one. */
function ansiC(s: State): string {
  const { src } = s;
  let out = '';
  while (s.i < src.length && src[s.i] !== "'") {
    const [t, j] = src[s.i] === '\\' ? escapeAt(src, s.i, 'ansi') : [src[s.i], s.i + 1];
    out += t ?? '';
    s.i = j;
  }
  s.i++;
  return out;
}

const SIMPLE: Record<string, string> = { '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * Who reads the escapes, as each was run and compared (test/guard/printed.test.ts): printf's format (`\NNN` octal,
 * `\"`, no `\c`); `%b` (`\0NNN` or `\NNN`); bash's `echo -e` (`\0NNN` only); dash's echo (`\0NNN` or `\NNN`, none of
 * `\x`, `\u`, `\E`); bash's $'…' (`\NNN`, `\'`, `\?`, `\cX` a control character). An escape a reader does not know
 * prints its backslash, and what follows is read as usual.
 */
export type EscapeReader = 'format' | 'b' | 'echo' | 'dash' | 'ansi';

/** One backslash escape at `s[i]`: its text and the index after it; null text for `\c` (nothing more is printed). */
export function escapeAt(s: string, i: number, reader: EscapeReader): [string | null, number] {
  const c = s[i + 1];
  if (c === undefined) return ['\\', i + 1];
  if (c in SIMPLE) return [SIMPLE[c], i + 2];
  if (c === 'E' && reader !== 'dash') return ['\x1b', i + 2];
  if (reader === 'ansi' && (c === "'" || c === '?')) return [c, i + 2];
  if (reader === 'ansi' && c === 'c' && i + 2 < s.length && s[i + 2] !== '\n') return [String.fromCharCode(s[i + 2].toUpperCase().charCodeAt(0) & 0x1f), i + 3];
  if (c === 'c' && reader !== 'format' && reader !== 'ansi') return [null, i + 2];
  if (c === '"' && (reader === 'format' || reader === 'ansi')) return ['"', i + 2];
  const digits = (from: number, max: number, re: RegExp) => {
    let j = from;
    while (j < s.length && j - from < max && re.test(s[j])) j++;
    return j;
  };
  if (/[0-7]/.test(c) && (reader !== 'echo' || c === '0')) {
    const from = reader !== 'format' && reader !== 'ansi' && c === '0' ? i + 2 : i + 1;
    const j = digits(from, 3, /[0-7]/);
    return [String.fromCharCode(j > from ? parseInt(s.slice(from, j), 8) & 255 : 0), j];
  }
  if ((c === 'x' || c === 'u' || c === 'U') && reader !== 'dash') {
    const j = digits(i + 2, c === 'x' ? 2 : c === 'u' ? 4 : 8, /[0-9a-fA-F]/);
    const n = parseInt(s.slice(i + 2, j), 16);
    if (j > i + 2 && n <= 0x10ffff) return [String.fromCodePoint(n), j];
    // bash drops a code point past Unicode's
    if (j > i + 2 && reader === 'ansi') return ['', j];
  }
  return ['\\', i + 1];
}

/** Words of a string split as `env -S` splits it (quotes and backslashes honoured, no expansion but ${VAR}). */
export function splitWords(text: string): string[] {
  return lex(text.replace(/\\_/g, ' ')).filter((t) => typeof t === 'string');
}
