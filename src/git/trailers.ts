// The one trailer parser of the product (SPEC 2, "One trailer reading"): every reader of a commit's trailers — the
// handoff format, leases, the secret scan's record, the archive's migration mark, the session a code commit claims —
// takes git's own trailer block apart here. test/design/one-trailer-parser.test.ts fails on a line parsed elsewhere.

/** Splits git's raw `%(trailers)` output into its lines (git cuts a message at NUL, so none can hold one). */
export const trailerBlockLines = (block: string): string[] => (block ? (block.endsWith('\n') ? block.slice(0, -1) : block).split('\n') : []);

/** The trailer lines of a whole message as this tool writes it: its last paragraph, when there is more than one. */
export function messageTrailerLines(message: string): string[] {
  const paragraphs = message.replace(/\s+$/, '').split(/\n[ \t]*\n/);
  return paragraphs.length > 1 ? paragraphs[paragraphs.length - 1].split('\n') : [];
}

/**
 * Every value of `key` any reader could take from trailer lines (the key in any case, spaces around the colon, the
 * value up to its first space), distinct: the lenient reading, for what protects (the sessions a message claims).
 */
export function looseTrailerValues(lines: readonly string[], key: string): string[] {
  const k = key.toLowerCase();
  const out = new Set<string>();
  for (const l of lines) {
    const m = /^\s*([A-Za-z0-9-]+)\s*:\s*([^\s\u0000-\u001f]+)/.exec(l);
    if (m && m[1].toLowerCase() === k) out.add(m[2]);
  }
  return [...out];
}

// The one strict shape of a trailer line: a token, ": ", a value with no control, line or paragraph separator.
const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*): ?([^\u0000-\u001f\u007f-\u009f\u2028\u2029]*)$/;
const VALUE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// VALUE_CONTROL but a line feed: the test of a whole block at once
const CONTROL_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
/** A block of this tool's trailers is a few short lines; anything far larger is not one. */
export const TRAILER_BLOCK_MAX = 16 * 1024;

/** What a strict reader makes of a block: each named single key's value (or null), each list key's values in order. */
type TrailerReading<One extends string, List extends string> = { [K in One]: string | null } & { [K in List]: string[] } & {
  /** set when the block is ambiguous (then every field is null and every list empty) */
  problem: string | null;
};

/**
 * A strict reader for the keys named in `one` (at most once each) and `list` (repeatable, read in order), keys
 * matched in any case. Every line must be a plain `Key: value`: a continuation or key-like free-text line, a
 * control byte (CR, 0x1F, ESC…), a second value of a single key or a block over TRAILER_BLOCK_MAX makes the block
 * ambiguous — `problem` says why and nothing is read from it. Free text that no reader could take for a key
 * ("(cherry picked from …)") and keys not named are passed over.
 */
export function trailerReader<One extends string, List extends string = never>(
  one: Record<One, string>,
  list: Record<List, string> = {} as Record<List, string>,
  /** keep a control character (a tab) in a value of a key in its exact spelling: for blocks only this tool writes, of local data */
  o: { controlsInValues?: boolean } = {},
) {
  // its tables are made at its first reading: modules make their readers as they load, and most runs read no trailer
  let made: ReturnType<typeof makeReader<One, List>> | undefined;
  const reader = () => (made ??= makeReader(one, list, o));
  const read = (lines: readonly string[]): TrailerReading<One, List> => reader().read(lines);
  return Object.assign(read, {
    /** read(trailerBlockLines(block)), without cutting the block into lines: a listing reads 10,000 blocks */
    block: (text: string): TrailerReading<One, List> => reader().block(text),
    /** an ambiguous reading, for a rule of the caller's own on top of the parse (two owners) */
    refuse: (why: string): TrailerReading<One, List> => reader().refuse(why),
  });
}

function makeReader<One extends string, List extends string>(one: Record<One, string>, list: Record<List, string>, o: { controlsInValues?: boolean }) {
  // each key, in its exact spelling and in lower case: its field, and whether it repeats
  const keys = new Map<string, { field: string; many: boolean }>();
  for (const [table, many] of [[one, false], [list, true]] as const) {
    for (const [field, key] of Object.entries<string>(table)) for (const k of [key, key.toLowerCase()]) keys.set(k, { field, many });
  }
  // shared by every reading without list values: list reads 10,000 rows and most carry none
  const NONE = Object.freeze([]) as unknown as string[];
  const blank = { problem: null } as Record<string, unknown>;
  for (const { field, many } of keys.values()) blank[field] = many ? NONE : null;
  const ambiguous = (t: Record<string, unknown>, why: string) => Object.assign(t, blank, { problem: `ambiguous trailer block (${why})` }) as TrailerReading<One, List>;
  // the keys the fast path takes, by length: no string cut to look one up
  const byLength: Array<Array<{ key: string; field: string; many: boolean }>> = [];
  for (const [key, f] of keys) (byLength[key.length] ??= []).push({ key, ...f });
  // One line, text[from, to) (not empty), into t: undefined to go on, or the ambiguous reading to return.
  const take = (t: Record<string, unknown>, text: string, from: number, to: number, plain: boolean): TrailerReading<One, List> | undefined => {
    // fast path, what this tool writes: a key in its exact spelling, ": ", a value without controls
    const colon = text.indexOf(': ', from);
    let hit: { field: string; many: boolean } | undefined =
      colon > from && colon < to ? byLength[colon - from]?.find((k) => text.startsWith(k.key, from)) : undefined;
    let value: string;
    if (hit && (plain || !VALUE_CONTROL.test(text.slice(from, to)))) value = text.slice(colon + 2, to);
    else {
      const line = text.slice(from, to);
      const m = TRAILER_LINE.exec(line);
      if (!m) {
        // free text in git's block names nothing; a line another reader could take for a key does
        if (!/^\s/.test(line) && !VALUE_CONTROL.test(line) && !/^[^:]*[A-Za-z0-9-]\s*:/.test(line)) return undefined;
        return ambiguous(t, /^\s/.test(line) ? 'a continuation line' : VALUE_CONTROL.test(line) ? 'a control character' : 'a line that is not `Key: value`');
      }
      hit = keys.get(m[1]) ?? keys.get(m[1].toLowerCase());
      if (!hit) return undefined;
      value = m[2];
    }
    if (hit.many) {
      const v = t[hit.field] as string[];
      (v === NONE ? (t[hit.field] = [] as string[]) : v).push(value.trim());
      return undefined;
    }
    if (t[hit.field] !== null) return ambiguous(t, `two ${one[hit.field as One]} trailers`);
    t[hit.field] = value.trim();
    return undefined;
  };
  const block = (text: string): TrailerReading<One, List> => {
    const t: Record<string, unknown> = { ...blank };
    let size = 0;
    // one test of the whole block instead of one per line (a listing reads 10,000 blocks): most hold no control at all
    const plain = o.controlsInValues || !CONTROL_BUT_LF.test(text);
    // (an empty line, the last line feed's included, is passed over as read does)
    for (let at = 0; at < text.length; ) {
      let nl = text.indexOf('\n', at);
      if (nl < 0) nl = text.length;
      if (nl > at) {
        size += nl - at + 1;
        const done = take(t, text, at, nl, plain);
        if (done) return done;
      }
      at = nl + 1;
    }
    if (size > TRAILER_BLOCK_MAX) return ambiguous(t, `a trailer block of ${size} bytes`);
    return t as TrailerReading<One, List>;
  };
  const refuse = (why: string): TrailerReading<One, List> => ambiguous({ ...blank }, why);
  // lines split from a block hold no line feed: joined again, they read as that block
  return { read: (lines: readonly string[]) => block(lines.join('\n')), block, refuse };
}

// git's trailer block found in this process (trailer.c and commit.c of git 2.39: trailer_info_get, ignore_non_trailer,
// find_trailer_start), for git's default trailer configuration (no trailer.* key: the separator
// `:`, no configured token) and comment character `#`; test/git/trailer-block.test.ts compares it with git on
// generated messages. A message is bytes read as latin1, one character a byte.

/** git's isspace (its own ctype table: space, tab, line feed, carriage return) */
const gitSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const gitAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const LF = 0x0a;
const COMMENT = 0x23;
/** git's scissors line after its comment character (wt-status.c cut_line) */
const SCISSORS = `\n# ------------------------ >8 ------------------------\n`;
const GIT_GENERATED = ['Signed-off-by: ', '(cherry picked from commit '];

const nextLine = (s: string, at: number) => {
  const nl = s.indexOf('\n', at);
  return nl < 0 ? s.length : nl + 1;
};
/** the start of the last line of s[0, len); -1 for an empty range (trailer.c last_line) */
function lastLine(s: string, len: number): number {
  if (len === 0) return -1;
  if (len === 1) return 0;
  const nl = s.lastIndexOf('\n', len - 2);
  return nl < 0 ? 0 : nl + 1;
}
function blankLine(s: string, at: number): boolean {
  let i = at;
  while (i < s.length && s.charCodeAt(i) !== LF && gitSpace(s.charCodeAt(i))) i++;
  return i >= s.length || s.charCodeAt(i) === LF;
}
/** where the `:` of a `token: value` line starting at `at` is, from `at`; -1 for a line that is none (find_separator) */
function separatorOf(s: string, at: number): number {
  let space = false;
  for (let i = at; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) return i - at;
    if (!space && (gitAlnum(c) || c === 0x2d)) continue;
    if (i !== at && (c === 0x20 || c === 0x09)) {
      space = true;
      continue;
    }
    break;
  }
  return -1;
}

/** commit.c ignore_non_trailer: how many bytes at the end of s[0, len) are comments, blank lines or an old Conflicts: block */
function ignoredAtEnd(s: string, len: number): number {
  let cutoff = len;
  if (s.startsWith(SCISSORS.slice(1))) cutoff = 0;
  else {
    const p = s.indexOf(SCISSORS);
    if (p >= 0) cutoff = p + 1;
  }
  let boc = 0;
  let conflicts = false;
  for (let bol = 0; bol < cutoff; ) {
    const nl = s.indexOf('\n', bol);
    const next = nl < 0 || nl >= len ? len : nl + 1;
    const c = s.charCodeAt(bol);
    if (c === COMMENT || c === LF) {
      if (!boc) boc = bol;
    } else if (s.startsWith('Conflicts:\n', bol)) {
      conflicts = true;
      if (!boc) boc = bol;
    } else if (conflicts && c === 0x09) {
      /* a path of the conflicts block */
    } else if (boc) {
      boc = 0;
      conflicts = false;
    }
    bol = next;
  }
  return boc ? len - boc : len - cutoff;
}

/** trailer.c find_trailer_start: where the block of s[0, len) starts; len when there is none */
function blockStart(s: string, len: number): number {
  let title = 0;
  for (; title < len; title = nextLine(s, title)) {
    if (s.charCodeAt(title) === COMMENT) continue;
    if (blankLine(s, title)) break;
  }
  let onlySpaces = true;
  let recognized = false;
  let trailers = 0;
  let others = 0;
  let continuations = 0;
  for (let l = lastLine(s, len); l >= title; l = lastLine(s, l)) {
    if (s.charCodeAt(l) === COMMENT) {
      others += continuations;
      continuations = 0;
      continue;
    }
    if (blankLine(s, l)) {
      if (onlySpaces) continue;
      others += continuations;
      if ((recognized && trailers * 3 >= others) || (trailers && !others)) return nextLine(s, l);
      return len;
    }
    onlySpaces = false;
    if (GIT_GENERATED.some((p) => s.startsWith(p, l))) {
      trailers++;
      continuations = 0;
      recognized = true;
      continue;
    }
    if (separatorOf(s, l) >= 1 && !gitSpace(s.charCodeAt(l))) {
      trailers++;
      continuations = 0;
    } else if (gitSpace(s.charCodeAt(l))) continuations++;
    else {
      others += 1 + continuations;
      continuations = 0;
    }
  }
  return len;
}

/** The block git finds in a message with no `---` divider: [start, end), a blank line before it; null where git must say. */
interface GitTrailerBlock {
  start: number;
  end: number;
  blankBefore: boolean;
}
export function gitTrailerBlock(message: string): GitTrailerBlock | null {
  // git reads a message as a C string: a NUL ends it there
  if (message.includes('\0')) return null;
  const end = message.length - ignoredAtEnd(message, message.length);
  const start = blockStart(message, end);
  const last = lastLine(message, start);
  return { start, end, blankBefore: last >= 0 && blankLine(message, last) };
}

/** git's raw `%(trailers)` of a commit's message (all after the headers), from its first non-empty line; null where git must say. */
export function commitTrailerBlock(message: string): string | null {
  let at = 0;
  while (message.charCodeAt(at) === LF) at++;
  const text = message.slice(at);
  const b = gitTrailerBlock(text);
  return b && text.slice(b.start, b.end);
}

/** trailer.c same_token: two tokens alike up to the shorter one, their final punctuation left out, in any case */
function sameToken(a: string, b: string): boolean {
  const bare = (t: string) => {
    let n = t.length;
    while (n > 0 && !gitAlnum(t.charCodeAt(n - 1))) n--;
    return n;
  };
  const n = Math.min(bare(a), bare(b));
  return a.slice(0, n).toLowerCase() === b.slice(0, n).toLowerCase();
}

/**
 * `git interpret-trailers --no-divider --where end --if-exists doNothing --trailer <k: v>…` of a message (bytes read as
 * latin1, ending in a line feed), in this process; null where git must write it: a configuration with any trailer.*
 * key or a comment character (the caller says), a NUL byte, or a block git would print otherwise than it reads (a
 * comment, a continuation line, a trailer not written `Key: value`). `trailers`: [key, value] each, keys of plain
 * letters, digits and `-`, values of printable ASCII without surrounding spaces.
 */
export function addTrailersInProcess(message: string, trailers: ReadonlyArray<readonly [string, string]>): string | null {
  if (!message.endsWith('\n')) return null;
  for (const [k, v] of trailers) if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(k) || !/^(?:[!-~](?:[ -~]*[!-~])?)?$/.test(v)) return null;
  const b = gitTrailerBlock(message);
  if (!b) return null;
  const tokens: string[] = [];
  // every line of the block as git prints it again: a `token: value` trailer re-printed so, another line as it is
  for (let at = b.start; at < b.end; at = nextLine(message, at)) {
    const line = message.slice(at, nextLine(message, at) - 1);
    const c = line.charCodeAt(0);
    if (line === '' || gitSpace(c) || c === COMMENT) return null;
    const sep = separatorOf(line, 0);
    if (sep < 1) continue;
    const token = line.slice(0, sep).replace(/[ \t]+$/, '');
    const value = line.slice(sep + 1).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    if (line !== `${token}: ${value}`) return null;
    tokens.push(token);
  }
  const added: string[] = [];
  for (const [k, v] of trailers) {
    if (tokens.some((t) => sameToken(t, k))) continue;
    tokens.push(k);
    added.push(`${k}: ${v}\n`);
  }
  return message.slice(0, b.start) + (b.blankBefore ? '' : '\n') + message.slice(b.start, b.end) + added.join('') + message.slice(b.end);
}
