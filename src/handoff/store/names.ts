// Every name rule of SPEC 2 in one place: topic grammar, the refs a handoff lives at, and the branch encoding
// (encodeBranch, kept in ../state/paths.ts, whose local file names use it too).
import { HandoffError } from '../../errors';
import { encodeBranch } from '../state/paths';
export { encodeBranch };

export const HANDOFF_PREFIX = 'refs/handoffs/';
export const ARCHIVE_PREFIX = 'refs/handoff-archive/';
export const LEASE_PREFIX = 'refs/handoff-leases/';
/** Where `drop` keeps a dropped handoff's versions: refs/handoff-dropped/<branch>/<topic>/<seconds>-<tip> (`restore` undoes it). */
export const DROPPED_PREFIX = 'refs/handoff-dropped/';
/** Where the drops of the live handoff `ref` are kept: refs/handoff-dropped/<B>/<T>/. */
export const droppedPrefixOf = (ref: string) => `${DROPPED_PREFIX}${ref.slice(HANDOFF_PREFIX.length)}/`;
/** The read receipts' notes ref (src/handoff/store/receipts.ts). */
export const NOTES_REF = 'refs/notes/handoff-reads';

/** Where a clone keeps what it last fetched from each remote (SPEC 7): refs/handoff-remotes/<R>/ and the name on R. */
export const REMOTES_ROOT = 'refs/handoff-remotes/';
/** The tracking copy of `ref` (a name on the remote, refs/… ) from `remote`; `ref` may be a prefix. */
export const trackingOf = (remote: string, ref: string) => `${REMOTES_ROOT}${remote}/${ref.slice('refs/'.length)}`;

export const STOPWORDS = new Set(['fix', 'feat', 'chore', 'docs', 'refactor', 'test', 'main', 'master', 'the', 'and', 'for', 'a']);
const TOPIC_RE = /^[a-z0-9]+(-[a-z0-9]+)+$/;
export const TOPIC_MAX = 64;
const TOPIC_HELP = 'a topic is two or more lowercase words joined by "-", at most 64 characters, not only stopwords (e.g. auth-refactor, login-redirect-loop)';

/** Why a topic is refused, or null when it is valid. */
export function topicProblem(topic: string): string | null {
  if (topic.length > TOPIC_MAX) return `topic "${topic.slice(0, 80)}…" is longer than ${TOPIC_MAX} characters`;
  if (!TOPIC_RE.test(topic)) return `topic "${topic}" does not match ^[a-z0-9]+(-[a-z0-9]+)+$`;
  if (topic.split('-').every((t) => STOPWORDS.has(t))) return `topic "${topic}" is made of stopwords only (${[...STOPWORDS].join(' ')})`;
  return null;
}

const validTopics = new Map<string, boolean>();

export function isValidTopic(topic: string): boolean {
  // a listing checks the same few hundred topics across thousands of refs
  let ok = validTopics.get(topic);
  if (ok === undefined) {
    ok = topicProblem(topic) === null;
    if (validTopics.size < 4096) validTopics.set(topic, ok);
  }
  return ok;
}

export function assertTopic(topic: unknown): string {
  const problem = typeof topic === 'string' ? topicProblem(topic) : 'a topic is required';
  if (problem) throw new HandoffError('usage', 'invalid-topic', `${problem}: ${TOPIC_HELP}`, { topic });
  return topic as string;
}

/** The first two non-stopword tokens of `-`-joined words, and the stopwords dropped on the way to them. */
export function overlapTokens(words: string): { key: string[]; dropped: string[] } {
  const key: string[] = [];
  const dropped: string[] = [];
  for (const t of words.split('-')) {
    if (key.length === 2) break;
    if (STOPWORDS.has(t)) dropped.push(t);
    else if (t) key.push(t);
  }
  return { key, dropped };
}

/** `shared`: the two tokens both names start with, stopwords dropped; `dropped`: the stopwords dropped from either name before them. */
export type Overlap = NonNullable<ReturnType<typeof overlapOf>>;

/** Two names overlap when their first two non-stopword tokens are the same two. */
export function overlapOf(a: string, b: string) {
  const x = overlapTokens(a);
  const y = overlapTokens(b);
  if (x.key.length < 2 || y.key.length < 2 || x.key[0] !== y.key[0] || x.key[1] !== y.key[1]) return null;
  return { shared: [x.key[0], x.key[1]] as const, dropped: [...new Set([...x.dropped, ...y.dropped])] };
}

/** How an overlap is said: the two shared tokens, and the stopwords that were dropped to find them. */
export const describeOverlap = (o: Overlap): string =>
  `both start with "${o.shared[0]}" and "${o.shared[1]}"${o.dropped.length ? ` once the stopwords ${o.dropped.map((d) => `"${d}"`).join(', ')} are dropped` : ''}`;

const decoded = new Map<string, string | null>();

/** The inverse of encodeBranch; null for a cut (hashed) component, whose name lives in the Handoff-Branch trailer. */
export function decodeBranch(component: string): string | null {
  // a listing decodes the same hundred branch components thousands of times
  let name = decoded.get(component);
  if (name === undefined) {
    name = decodeComponent(component);
    if (decoded.size < 4096) decoded.set(component, name);
  }
  return name;
}

function decodeComponent(component: string): string | null {
  if (component.includes('+')) return null;
  const bytes: number[] = [];
  for (let i = 0; i < component.length; i++) {
    if (component[i] === '%') {
      const hex = component.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(component.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export const handoffRef = (branch: string, topic: string) => `${HANDOFF_PREFIX}${encodeBranch(branch)}/${topic}`;
export const branchPrefix = (branch: string) => `${HANDOFF_PREFIX}${encodeBranch(branch)}/`;

/** `<prefix><unix-seconds>-<12 hex of the tip>`: a kept version's name (archive entry, drop, recover's kept and rogue tips). */
export const stampedRef = (prefix: string, seconds: number, tip: string) => `${prefix}${seconds}-${tip.slice(0, 12)}`;

/** refs/handoff-archive/<B>/<T>/<seconds>-<tip> (a drop's: under refs/handoff-dropped/) */
export const archiveRef = (branch: string, topic: string, seconds: number, tip: string, root = ARCHIVE_PREFIX) =>
  stampedRef(`${root}${encodeBranch(branch)}/${topic}/`, seconds, tip);

/** The seconds a stampedRef name holds; null for any other name. */
export function stampOf(ref: string): number | null {
  const m = /\/(\d+)(-[^/]*)?$/.exec(ref);
  return m ? Number(m[1]) : null;
}

/**
 * Parses refs/handoffs/<B>/<T> and refs/handoff-archive/<B>/<T>/<stamp>; null for anything else (isHandoffName).
 * `branch` is null when the component was cut and hashed; `stamp`, an archive ref's last component.
 */
export function parseRef(ref: string) {
  // by index, not split or regex: a listing parses 10,000 names
  const kind = ref.startsWith(HANDOFF_PREFIX) ? ('handoff' as const) : ref.startsWith(ARCHIVE_PREFIX) ? ('archive' as const) : null;
  if (!kind) return null;
  const at = kind === 'handoff' ? HANDOFF_PREFIX.length : ARCHIVE_PREFIX.length;
  const first = ref.indexOf('/', at);
  if (first < 0) return null;
  const second = ref.indexOf('/', first + 1);
  if (kind === 'handoff' ? second >= 0 : second < 0 || ref.indexOf('/', second + 1) >= 0) return null;
  const topic = second < 0 ? ref.slice(first + 1) : ref.slice(first + 1, second);
  if (!isValidTopic(topic)) return null;
  const encodedBranch = ref.slice(at, first);
  return { kind, encodedBranch, branch: decodeBranch(encodedBranch), topic, stamp: second < 0 ? undefined : ref.slice(second + 1) };
}

/** A ref as typed: full, without `refs/` (`handoff-archive/…`, `handoff-dropped/…`), else a name under `under`. */
export const typedRef = (arg: string, under: string) =>
  arg.startsWith('refs/') ? arg : /^(handoffs|handoff-archive|handoff-dropped|notes)\//.test(arg) ? `refs/${arg}` : under + arg;

/** Whether ref names a live handoff or an archive entry with a valid topic. */
export const isHandoffName = (ref: string) => parseRef(ref) !== null;

/** `<encoded branch>/<topic>` of a handoff or archive ref (the ref itself for anything else). */
export const keyOf = (ref: string) => {
  const p = parseRef(ref);
  return p ? `${p.encodedBranch}/${p.topic}` : ref;
};

/** A worktree path as one ref component, by the same byte encoding as branches. */
export const leaseRef = (worktreePath: string) => `${LEASE_PREFIX}${encodeBranch(worktreePath)}`;
