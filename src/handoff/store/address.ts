// Addressing (issue 18): who a handoff is for (Handoff-To), its tags and references, and who reads now.
import { CLIENT_NAMES, clientName } from '../../clients/names';
import { HandoffError } from '../../errors';
import type { Storage } from '../../git/storage';
import { oneLine } from './document';
import { EMAIL_RE, PERSON_PREFIX } from './person';
import { readReceipts, type Receipt } from './receipts';
import { SESSION_RE } from '../state/session';
import { existingPaths, worktreeOf } from './verify';

export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SLUG_MAX = 64;
const REF_MAX = 1000;

const isSlug = (s: string) => s.length <= SLUG_MAX && SLUG_RE.test(s);

/** Whether `value` is one addressee: session:<id>, client:<name>, person:<email> or role:<slug>. */
export function isAddressee(value: string): boolean {
  const i = value.indexOf(':');
  if (i <= 0) return false;
  const kind = value.slice(0, i);
  const rest = value.slice(i + 1);
  if (kind === 'session') return SESSION_RE.test(rest);
  if (kind === 'client') return (CLIENT_NAMES as readonly string[]).includes(rest);
  if (kind === 'person') return EMAIL_RE.test(rest);
  if (kind === 'role') return isSlug(rest);
  return false;
}

/** An addressee with a client's alias (or a bare client name) made `client:<its name>`. */
export function normalAddressee(value: string): string {
  const client = value.startsWith('client:') ? clientName(value.slice(7)) : value.includes(':') ? null : clientName(value);
  return client ? `client:${client}` : value;
}

/** The refusal (exit 2) of a value given at `source` (a flag, a frontmatter key) that is not of its kind. */
const invalid = (code: string, source: string, value: unknown, rule: string) =>
  new HandoffError('usage', code, `${source} ${JSON.stringify(String(value).slice(0, 140))}: ${rule}`, { source });

/** One addressee, or exit 2 naming the four kinds (no trailer injection: each kind's value has no spaces). */
export function assertAddressee(value: unknown, source = '--to'): string {
  if (typeof value === 'string' && isAddressee(normalAddressee(value))) return normalAddressee(value);
  throw invalid('invalid-addressee', source, value, `an addressee is session:<id>, client:<${CLIENT_NAMES.join('|')}>, person:<email> or role:<slug> (e.g. role:reviewer)`);
}

/** A tag or a role: lowercase words joined by "-", at most 64 characters. */
export function assertSlug(value: unknown, source: string): string {
  if (typeof value === 'string' && isSlug(value)) return value;
  throw invalid('invalid-slug', source, value, `use lowercase words joined by "-" (e.g. needs-review), at most ${SLUG_MAX} characters`);
}

/** A reference (path, commit or URL): one line, no control characters, at most 1000 characters. */
export function assertRefTarget(value: unknown, source = '--ref'): string {
  if (typeof value === 'string' && value.trim() !== '' && value.length <= REF_MAX && oneLine(value) === value) return value;
  throw invalid('invalid-ref', source, value, `a reference is one line (a path, a commit or a URL), at most ${REF_MAX} characters`);
}

export type RefKind = 'url' | 'commit' | 'path';
export function refKind(value: string): RefKind {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return 'url';
  if (/^[0-9a-f]{7,64}$/.test(value)) return 'commit';
  return 'path';
}

/** The references not there now: paths missing from the branch and commits this repository lacks (URLs unchecked). */
export function missingRefs(repo: Storage, branch: string, refs: string[]): string[] {
  const checkable = refs.filter((r) => refKind(r) !== 'url');
  if (checkable.length === 0) return [];
  const paths = checkable.filter((r) => refKind(r) === 'path').map((p) => p.replace(/^\.\//, ''));
  const commits = checkable.filter((r) => refKind(r) === 'commit');
  const existing = paths.length ? existingPaths(repo, branch, paths, worktreeOf(repo, branch)) : new Set<string>();
  const found = commits.length ? repo.objectInfo(commits.map((c) => `${c}^{commit}`)) : [];
  return [...(existing ? paths.filter((p) => !existing.has(p)) : []), ...commits.filter((_, i) => found[i]?.type !== 'commit')];
}

/** Who is reading now: an owner id (a session id or person:<email>) and every addressee that names it. */
export type Reader = NonNullable<ReturnType<typeof readerOf>>;

export interface ReaderInput {
  session?: string | null;
  client?: string | null;
  role?: string | null;
  /** person:<email> when reading as a person */
  person?: string | null;
}

/** The reader of a command or a session start; null when nothing says who reads (then no receipts). */
export function readerOf(i: ReaderInput) {
  const id = i.session ?? i.person ?? null;
  if (!id) return null;
  const addressees: string[] = [];
  if (i.session) addressees.push(`session:${i.session}`);
  if (i.person) addressees.push(i.person.startsWith(PERSON_PREFIX) ? i.person : `${PERSON_PREFIX}${i.person}`);
  const client = clientName(i.client);
  if (client) addressees.push(`client:${client}`);
  if (i.role) addressees.push(`role:${assertSlug(i.role, i.role === process.env.GIT_HANDOFF_ROLE ? 'GIT_HANDOFF_ROLE' : '--role')}`);
  return { id, addressees };
}

/** A role from the environment where a bad one must not cost the session its boot view: null unless a slug. */
export const validRole = (v: string | undefined): string | null => (v && isSlug(v) ? v : null);

/** Addressed to this reader by name (session, client, person or role); a handoff to no one is not. */
export const addressedTo = (to: readonly string[], reader: Reader | null): boolean => !!reader && to.some((a) => reader.addressees.includes(a));

/** For this reader: addressed to it, or to anyone (no Handoff-To). */
export const forReader = (to: readonly string[], reader: Reader | null): boolean => to.length === 0 || addressedTo(to, reader);

/** A row as list reads it: enough to filter by addressee, tag and receipt. */
interface FilterableRow {
  oid: string;
  session: string | null;
  to: string[];
  tags: string[];
}

export interface RowFilter {
  /** addressed to exactly this addressee */
  to?: string;
  tag?: string;
  /** addressed to this reader by name */
  forMe?: Reader;
  /** for this reader (or anyone), not its own, and its tip has no `read` receipt of it */
  unread?: Reader;
}

/** list's filters; the notes are read (one ls-tree, one cat-file) only for `unread`. */
export function filterRows<T extends FilterableRow>(repo: Storage, rows: T[], f: RowFilter): T[] {
  let out = rows;
  if (f.to !== undefined) out = out.filter((r) => r.to.includes(f.to!));
  if (f.tag !== undefined) out = out.filter((r) => r.tags.includes(f.tag!));
  if (f.forMe) out = out.filter((r) => addressedTo(r.to, f.forMe!));
  if (f.unread) {
    const reader = f.unread;
    out = out.filter((r) => r.session !== reader.id && forReader(r.to, reader));
    const receipts = readReceipts(repo, out.map((r) => r.oid));
    out = out.filter((r) => !isRead(receipts.get(r.oid), reader));
  }
  return out;
}

/** Whether this reader has a `read` receipt among a version's receipts. */
export const isRead = (receipts: Receipt[] | undefined, reader: Reader): boolean => !!receipts?.some((x) => x.reader === reader.id && x.how === 'read');
