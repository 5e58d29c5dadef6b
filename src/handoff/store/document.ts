// The handoff commit format (SPEC 2): body and state in the tree, subject and ordered trailers in the message.
import { HandoffError } from '../../errors';
import type { Client } from '../state/session';
import { jsonObjectOf } from '../state/paths';
import { looseTrailerValues, messageTrailerLines, trailerBlockLines, trailerReader } from '../../git/trailers';

export const BODY_MAX = 1024 * 1024;
/** A handoff commit object is a header, a subject and a few trailers: far less than this. */
export const COMMIT_MAX = 64 * 1024;

export const TRAILER = {
  session: 'Claude-Session-Id',
  branch: 'Handoff-Branch',
  topic: 'Handoff-Topic',
  head: 'Handoff-Head',
  client: 'Handoff-Client',
  takeoverFrom: 'Handoff-Takeover-From',
  reason: 'Handoff-Reason',
  /** `Name <email>`: a person wrote it (then the owner is `person:<email>`) */
  person: 'Handoff-Person',
  importedFrom: 'Handoff-Imported-From',
  /** a version that restores its owner's history over a refused one names that parent here (SPEC 7) */
  refused: 'Handoff-Refused',
} as const;

/** Trailers that may appear several times (issue 18: addressing), read into lists in order. */
export const LIST_TRAILER = { to: 'Handoff-To', tags: 'Handoff-Tag', refs: 'Handoff-Ref' } as const;

/** state.json: the branch and its head when written, the worktree, its uncommitted paths, the files the body names. */
export type HandoffState = NonNullable<ReturnType<typeof parseState>>;

/** A version's trailers as git reads them: an ambiguous block (`problem`) names no owner; `claimed` then holds every
 * Claude-Session-Id value any reader could take from it. */
export type Trailers = ReturnType<typeof readHandoffTrailers> & { claimed?: string[] };

export interface MessageInput {
  topic: string;
  body: string;
  session: string;
  branch: string;
  head: string | null;
  client: Client;
  takeoverFrom?: string | null;
  reason?: string | null;
  /** written by a person: `Handoff-Person: Name <email>` instead of Claude-Session-Id */
  person?: { name: string; email: string } | null;
  to?: string[];
  tags?: string[];
  refs?: string[];
  importedFrom?: string | null;
  /** the refused parent of a version that restores its owner's history */
  refused?: string | null;
  /** trailer lines after the standard ones (SPEC 2.6: the scan record) */
  extra?: string[];
}

/** Refuses what cannot be stored: not text, NUL bytes, empty, over 1 MiB. */
export function validateBody(body: string | Buffer): string {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (buf.length > BODY_MAX) throw new HandoffError('usage', 'body-too-large', `the body is ${buf.length} bytes; at most ${BODY_MAX} (1 MiB) are stored`);
  if (buf.includes(0)) throw new HandoffError('usage', 'body-binary', 'the body contains NUL bytes; a handoff is UTF-8 text');
  let text: string;
  try {
    // ignoreBOM keeps a leading byte-order mark: the body is stored byte for byte as given
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf);
  } catch {
    throw new HandoffError('usage', 'body-not-utf8', 'the body is not valid UTF-8 text');
  }
  if (text.trim() === '') throw new HandoffError('usage', 'body-empty', 'the body is empty: give it with -m <text>, -F <file> or -F - (stdin)');
  return text;
}

/** One line, no control characters: a value that can never open a second trailer or paragraph. */
export const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ').trim();

/** The first non-empty line of the body, cut to 60 characters. */
export function summaryLine(body: string): string {
  const first = body.split('\n').find((l) => l.trim() !== '') ?? '';
  return [...oneLine(first)].slice(0, 60).join('');
}

export function buildMessage(m: MessageInput): string {
  const lines = [
    m.person ? `${TRAILER.person}: ${oneLine(m.person.name)} <${m.person.email}>` : `${TRAILER.session}: ${m.session}`,
    `${TRAILER.branch}: ${oneLine(m.branch)}`,
    `${TRAILER.topic}: ${m.topic}`,
    `${TRAILER.head}: ${m.head ?? 'none'}`,
    `${TRAILER.client}: ${m.client}`,
    ...(['to', 'tags', 'refs'] as const).flatMap((k) => (m[k] ?? []).map((v) => `${LIST_TRAILER[k]}: ${oneLine(v)}`)),
  ];
  if (m.importedFrom) lines.push(`${TRAILER.importedFrom}: ${oneLine(m.importedFrom)}`);
  if (m.refused) lines.push(`${TRAILER.refused}: ${m.refused}`);
  if (m.takeoverFrom) lines.push(`${TRAILER.takeoverFrom}: ${m.takeoverFrom}`, `${TRAILER.reason}: ${oneLine(m.reason ?? '') || 'takeover'}`);
  for (const l of m.extra ?? []) lines.push(oneLine(l));
  return `handoff(${m.topic}): ${summaryLine(m.body)}\n\n${lines.join('\n')}\n`;
}

/** `person:<email>` of a `Name <email>` trailer value, or null when it names no email. */
export function personOwnerOf(value: string): string | null {
  const m = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  return m ? `person:${m[1]}` : null;
}

const readHandoffTrailers = trailerReader(TRAILER, LIST_TRAILER);

/** The trailers of git's `%(trailers)` block, one line per element: an ambiguous block names no owner (`problem` says why). */
export const parseTrailerLines = (lines: readonly string[]): Trailers => parseTrailerBlock(lines.join('\n'));

/** parseTrailerLines(trailerBlockLines(block)), reading git's `%(trailers)` block as it came */
export function parseTrailerBlock(block: string): Trailers {
  const t: Trailers = readHandoffTrailers.block(block);
  if (t.problem) return withClaims(t, trailerBlockLines(block));
  if (t.head === 'none') t.head = null;
  if (t.session !== null && t.person !== null) return withClaims(readHandoffTrailers.refuse(`two owners (${TRAILER.session} and ${TRAILER.person})`), trailerBlockLines(block));
  // a person owns what they wrote as `person:<email>`, like a session owns its id
  if (t.session === null && t.person !== null) t.session = personOwnerOf(t.person);
  return t;
}

/** Every Claude-Session-Id value any reader could take from trailer lines (key in any case, spaces around the colon). */
export const claimedSessions = (lines: readonly string[]): string[] => looseTrailerValues(lines, TRAILER.session);

const withClaims = (t: Trailers, lines: readonly string[]): Trailers => Object.assign(t, { claimed: claimedSessions(lines) });

export function serializeState(s: HandoffState): string {
  return JSON.stringify({ branch: s.branch, head: s.head, worktree: s.worktree, dirty: s.dirty, files: s.files }, null, 2) + '\n';
}

// state.json as written is a few KiB; a received one is held to that shape and size before anything reads it.
export const STATE_MAX = 256 * 1024;
const STATE_LIST_MAX = 1000;
const STATE_TEXT_MAX = 4096;
const isText = (v: unknown, max = STATE_TEXT_MAX): v is string => typeof v === 'string' && v.length <= max && !CONTROL.test(v);
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.length <= STATE_LIST_MAX && v.every((x) => isText(x));
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** state.json of a version, validated (schema, sizes, no control characters): anything else is data nobody reads, so null. */
export function parseState(text: string | null) {
  const o = text && text.length <= STATE_MAX ? jsonObjectOf(text) : null;
  if (!o) return null;
  if (!isText(o.branch) || !(o.head === null || (typeof o.head === 'string' && /^[0-9a-f]{40,64}$/.test(o.head)))) return null;
  if (!(o.worktree === null || isText(o.worktree)) || !isTextList(o.dirty) || !isTextList(o.files)) return null;
  return { branch: o.branch, head: o.head as string | null, worktree: o.worktree as string | null, dirty: o.dirty, files: o.files };
}

/** Path-like words of a body (src/app.ts, `docs/x.md`): candidates for state.files. */
export function namedPaths(body: string): string[] {
  const found = new Set<string>();
  const re = /(?:^|[\s`'"(\[<])((?:\.{0,2}\/)?[A-Za-z0-9_@][\w@.+-]*(?:\/[\w@.+-]+)*)/g;
  for (const m of body.matchAll(re)) {
    const p = m[1].replace(/[.,:;]+$/, '').replace(/^\.\//, '');
    if (!p || p.length > 300 || p.includes('..')) continue;
    if (!p.includes('/') && !/\.[A-Za-z0-9]{1,8}$/.test(p)) continue;
    if (/^https?:/.test(p)) continue;
    found.add(p);
    if (found.size >= 500) break;
  }
  return [...found];
}

/** The secret scan's trailers (src/handoff/secrets/secrets.ts writes them). */
export const SECRET_TRAILER = {
  scanned: 'Handoff-Scanned',
  allowed: 'Handoff-Allowed-Secret',
  redacted: 'Handoff-Redacted',
} as const;

/**
 * The scan record and the allowed rules among trailer lines (git's block of a commit), through the one parser: two scan
 * records, or a block no reader can be sure of, record nothing (scanned again, nothing allowed).
 */
export const secretTrailersIn = trailerReader({ scanned: SECRET_TRAILER.scanned }, { allowed: SECRET_TRAILER.allowed });

/** The same of a commit message (its last paragraph, keys case-insensitive). */
export const secretTrailersOf = (message: string) => secretTrailersIn(messageTrailerLines(message));
