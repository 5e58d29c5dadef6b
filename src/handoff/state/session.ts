// Session ids (SPEC 3): validation and where a command finds its own.
import { agentSessionOf, CLIENT_NAMES, clientName, PLUGIN_SESSION_VARS, SESSION_VARS } from '../../clients/names';
import { CLIENT_VAR } from '../../environment';
import { HandoffError } from '../../errors';

export const SESSION_RE = /^[A-Za-z0-9._:-]{1,128}$/;
export const CLIENTS = [...CLIENT_NAMES, 'cli'] as const;
export type Client = (typeof CLIENTS)[number];

export interface SessionRef {
  id: string;
  client: Client;
  /** where it came from: flag, env var name, or payload */
  source: string;
  /** `write --person`: a person writes, and `id` is `person:<email>` */
  person?: { name: string; email: string };
}

export function assertSession(id: unknown, source = '--session'): string {
  if (typeof id !== 'string' || !SESSION_RE.test(id)) {
    throw new HandoffError('usage', 'invalid-session', `invalid session id from ${source}: ${JSON.stringify(String(id).slice(0, 140))} (it must match ^[A-Za-z0-9._:-]{1,128}$)`, {
      source,
    });
  }
  return id;
}

const ENV_SOURCES: ReadonlyArray<readonly [string, Client | null]> = [['GIT_HANDOFF_SESSION', null], ...SESSION_VARS];

/** GIT_HANDOFF_CLIENT may use an alias. */
function ambientClient(env: NodeJS.ProcessEnv): Client {
  return clientName(env[CLIENT_VAR]) ?? agentSessionOf(env)?.client ?? 'cli';
}

/** Resolution order of SPEC 3: --session, GIT_HANDOFF_SESSION, then each client's own variable. */
export function resolveSession(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): SessionRef | null {
  if (flag !== undefined && flag !== '') return { id: assertSession(flag, '--session'), client: ambientClient(env), source: '--session' };
  for (const [name, client] of ENV_SOURCES) {
    const v = env[name];
    if (v) return { id: assertSession(v, name), client: client ?? ambientClient(env), source: name };
  }
  return null;
}

export const NO_SESSION_HELP =
  'no session id: pass --session <id>, or set GIT_HANDOFF_SESSION=<id>, or (a person at a terminal) --person to act as the person in git config ' +
  `(each client's shell exports its own: ${SESSION_VARS.map(([v, c]) => `${v} (${c}${PLUGIN_SESSION_VARS.has(v) ? ', set by the git-handoff plugin' : ''})`).join(', ')})`;

export function requireSession(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): SessionRef {
  const s = resolveSession(flag, env);
  if (!s) throw new HandoffError('noSession', 'no-session', NO_SESSION_HELP);
  return s;
}

const HEXISH = /^[0-9a-f][0-9a-f-]*$/i;

/** `among`'s ids, distinct and sorted, read once per list (a listing shows every row's id beside the same list). */
const SORTED = new WeakMap<object, string[]>();

/** How many leading characters `a` and `b` share. */
function sharedLength(a: string, b: string | undefined): number {
  let i = 0;
  while (b !== undefined && i < a.length && a[i] === b[i]) i++;
  return i;
}

/**
 * `id` as shown beside `among`, like git's abbreviated names: the shortest prefix of 8 or more that tells it apart, only
 * for a hex-ish id (a prefix of `session-a` says nothing, so such an id is shown whole); '(none)' for no id.
 */
export function short(id: string | null | undefined, among: Iterable<string | null | undefined> & object = []): string {
  if (!id) return '(none)';
  let sorted = SORTED.get(among);
  if (!sorted) SORTED.set(among, (sorted = [...new Set([...among].filter((o): o is string => !!o))].sort()));
  // the other id sharing the longest prefix with `id` is one of its neighbours in sorted order
  let lo = 0;
  for (let hi = sorted.length; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  const after = sorted[lo] === id ? sorted[lo + 1] : sorted[lo];
  let n = Math.max(8, sharedLength(id, sorted[lo - 1]) + 1, sharedLength(id, after) + 1);
  while (n < id.length && id[n - 1] === '-') n++;
  return n >= id.length || !HEXISH.test(id.slice(0, n)) ? id : id.slice(0, n);
}
