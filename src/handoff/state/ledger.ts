// The guard's ledger: which session wrote which paths in which worktree, one append-only JSONL file per session
// (a one-line append is atomic). An intent (the paths a call names, appended before it runs) counts as a write only
// once the file shows the call changed it.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { namesIn } from './paths';
import { localRecord } from './state-file';

interface LedgerEntry {
  /** unix milliseconds */
  t: number;
  session: string;
  worktree: string;
  paths?: string[];
  /** a subagent acting under `session` */
  agent?: string;
  released?: boolean;
  /** released entries: `session-end:<reason>` for the client's end event; absent for `git handoff release` */
  how?: string;
  intent?: boolean;
  /** intent: paths that did not exist before the call */
  gone?: string[];
}

const LEDGER = localRecord('ledger', '.jsonl');
export const ledgerDir = (commonDir: string) => LEDGER.at(commonDir);

/** The sh front prints this format too, from intentTemplate. */
export const ledgerLine = (e: LedgerEntry): string => JSON.stringify(e) + '\n';

export const appendLedger = (commonDir: string, e: LedgerEntry) => LEDGER.append(commonDir, e, e.session);

/** Whether a session ran in this clone (it has a ledger here, live or ended). */
export function ranHere(commonDir: string): (session: string) => boolean {
  let files: Set<string> | undefined;
  return (session) => {
    if (!session) return false;
    files ??= new Set(namesIn(ledgerDir(commonDir)));
    return files.has(path.basename(LEDGER.at(commonDir, session)));
  };
}

export function recordWrites(commonDir: string, session: string, worktree: string, paths: string[], agent?: string): void {
  if (paths.length === 0) return;
  appendLedger(commonDir, { t: Date.now(), session, worktree, paths, ...(agent ? { agent } : {}) });
}

/** Whether nothing is at `abs` (an intent's `gone`): a name no file can have is absent, one that cannot be looked at present. */
export function absent(abs: string): boolean {
  try {
    return !lstatSync(abs, { throwIfNoEntry: false });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENAMETOOLONG' || code === 'ENOTDIR' || code === 'ENOENT';
  }
}

export function recordIntents(commonDir: string, session: string, worktree: string, paths: string[], gone: string[], t = Date.now(), agent?: string): void {
  if (paths.length === 0) return;
  appendLedger(commonDir, intentEntry(t, session, worktree, paths, gone, agent));
}

export const intentEntry = (t: number, session: string, worktree: string, paths: string[], gone: string[], agent?: string): LedgerEntry =>
  ({ t, session, worktree, paths, intent: true, ...(gone.length ? { gone } : {}), ...(agent ? { agent } : {}) });

/**
 * The intent line as a printf format for the sh front, made by serializing an intent with stand-ins. The front writes
 * only plain values (no quote, backslash or control: anything else goes to node), so its `"%s"` is the JSON string.
 */
export function intentTemplate(withGone: boolean): string {
  const T = 1234567890123;
  const line = ledgerLine(intentEntry(T, '\u0001S', '\u0001W', ['\u0001P'], withGone ? ['\u0001G'] : []));
  const fmt = line
    .replace(String(T), '%s')
    .replace(JSON.stringify('\u0001S'), '"%s"')
    .replace(JSON.stringify('\u0001W'), '"%s"')
    .replace(JSON.stringify(['\u0001P']), '[%s]')
    .replace(JSON.stringify(['\u0001G']), '[%s]')
    .replace(/\n$/, '\\n');
  if (/\\u0001|'/.test(fmt) || (fmt.match(/%s/g) ?? []).length !== (withGone ? 5 : 4)) throw new Error(`the intent line does not make a template: ${fmt}`);
  return fmt;
}

/** The coarse file-system clock may stamp a write up to a tick before the fine clock read just before it. */
const CLOCK_SLACK_MS = 20;

function changedSince(worktree: string, p: string, t: number, gone: boolean): boolean {
  let st;
  try {
    st = lstatSync(path.join(worktree, p), { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (!st) return !gone;
  return gone || st.mtimeMs >= t - CLOCK_SLACK_MS || st.ctimeMs >= t - CLOCK_SLACK_MS;
}

/** An intent as the writes it turned out to be. */
function settled(e: LedgerEntry): LedgerEntry {
  if (!e.intent) return e;
  const gone = new Set(e.gone ?? []);
  return { t: e.t, session: e.session, worktree: e.worktree, paths: (e.paths ?? []).filter((p) => typeof p === 'string' && changedSince(e.worktree, p, e.t, gone.has(p))), ...(e.agent ? { agent: e.agent } : {}) };
}

export function recordRelease(commonDir: string, session: string, worktree: string, how?: string): void {
  appendLedger(commonDir, { t: Date.now(), session, worktree, released: true, ...(how ? { how } : {}) });
}

export function readLedger(commonDir: string): LedgerEntry[] {
  return LEDGER.all(commonDir)
    .filter((e) => typeof e.session === 'string' && typeof e.t === 'number' && typeof e.worktree === 'string')
    .map(settled)
    .sort((a, b) => a.t - b.t);
}

export interface SessionActivity {
  session: string;
  /** unix ms */
  lastSeen: number;
  released: boolean;
  how?: string;
  /** paths whose latest writer in this worktree is this session */
  paths: string[];
}

/**
 * Per session in one worktree (under each of its spellings, nearly always one): its latest activity and the paths it
 * was the last to write (released claims dropped).
 */
export function worktreeActivity(commonDir: string, worktree: string | ReadonlySet<string>): Map<string, SessionActivity> {
  const here = typeof worktree === 'string' ? new Set([worktree]) : worktree;
  const lastWriter = new Map<string, string>();
  const acts = new Map<string, SessionActivity>();
  for (const e of readLedger(commonDir)) {
    if (!here.has(e.worktree)) continue;
    const a = acts.get(e.session) ?? { session: e.session, lastSeen: 0, released: false, paths: [] };
    a.lastSeen = Math.max(a.lastSeen, e.t);
    if (e.released) {
      a.released = true;
      a.how = e.how;
      for (const [p, s] of lastWriter) if (s === e.session) lastWriter.delete(p);
    } else {
      a.released = false;
      delete a.how;
      for (const p of e.paths ?? []) lastWriter.set(p, e.session);
    }
    acts.set(e.session, a);
  }
  for (const [p, s] of lastWriter) acts.get(s)!.paths.push(p);
  return acts;
}
