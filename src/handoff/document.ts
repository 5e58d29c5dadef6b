// The handoff commit format (SPEC 2): body and state in the tree, subject and ordered trailers in the message.
import { HandoffError } from '../errors';
import type { Client } from './session';

export const BODY_MAX = 1024 * 1024;

export const TRAILER = {
  session: 'Claude-Session-Id',
  branch: 'Handoff-Branch',
  topic: 'Handoff-Topic',
  head: 'Handoff-Head',
  client: 'Handoff-Client',
  takeoverFrom: 'Handoff-Takeover-From',
  reason: 'Handoff-Reason',
} as const;

export interface HandoffState {
  branch: string;
  head: string | null;
  worktree: string | null;
  dirty: string[];
  files: string[];
}

export interface Trailers {
  session: string | null;
  branch: string | null;
  topic: string | null;
  head: string | null;
  client: string | null;
  takeoverFrom: string | null;
  reason: string | null;
}

export interface MessageInput {
  topic: string;
  body: string;
  session: string;
  branch: string;
  head: string | null;
  client: Client;
  takeoverFrom?: string | null;
  reason?: string | null;
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
    `${TRAILER.session}: ${m.session}`,
    `${TRAILER.branch}: ${oneLine(m.branch)}`,
    `${TRAILER.topic}: ${m.topic}`,
    `${TRAILER.head}: ${m.head ?? 'none'}`,
    `${TRAILER.client}: ${m.client}`,
  ];
  if (m.takeoverFrom) {
    lines.push(`${TRAILER.takeoverFrom}: ${m.takeoverFrom}`);
    lines.push(`${TRAILER.reason}: ${oneLine(m.reason ?? '') || 'takeover'}`);
  }
  return `handoff(${m.topic}): ${summaryLine(m.body)}\n\n${lines.join('\n')}\n`;
}

const KEY_TO_FIELD = new Map<string, keyof Trailers>(Object.entries(TRAILER).flatMap(([f, k]) => [[k, f as keyof Trailers], [k.toLowerCase(), f as keyof Trailers]]));

/** Parses trailer lines ("Key: value"), keeping the first of each key; key match is case-insensitive. */
export function parseTrailerLines(lines: Iterable<string>): Trailers {
  const t: Trailers = { session: null, branch: null, topic: null, head: null, client: null, takeoverFrom: null, reason: null };
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const key = line.slice(0, i);
    // the exact spelling first (what this tool writes), without allocating a lowercased copy; list reads 10,000 of these
    const field = KEY_TO_FIELD.get(key) ?? KEY_TO_FIELD.get(key.trim().toLowerCase());
    if (field && t[field] === null) t[field] = line.slice(i + 1).trim();
  }
  if (t.head === 'none') t.head = null;
  return t;
}

/** Trailers of a full commit message: the last paragraph only, as git reads them. */
export function parseMessageTrailers(message: string): Trailers {
  const paragraphs = message.replace(/\s+$/, '').split(/\n[ \t]*\n/);
  const last = paragraphs.length > 1 ? paragraphs[paragraphs.length - 1] : '';
  return parseTrailerLines(last.split('\n'));
}

export function serializeState(s: HandoffState): string {
  return JSON.stringify({ branch: s.branch, head: s.head, worktree: s.worktree, dirty: s.dirty, files: s.files }, null, 2) + '\n';
}

export function parseState(text: string | null): HandoffState | null {
  if (!text) return null;
  try {
    const j = JSON.parse(text);
    return j && typeof j === 'object' ? (j as HandoffState) : null;
  } catch {
    return null;
  }
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
