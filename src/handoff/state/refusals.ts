// What was refused, kept for the person who looks later (`status`, `web`): one JSON line per refusal in
// <git-common-dir>/handoff/refusals.jsonl, appended by the guard and the git hooks as they refuse, and by a command
// refused as another session's (exit 3). A record to
// look at, never an input to a decision: a line that cannot be written costs nothing but the line.
import path from 'node:path';
import { handoffDir, jsonLines } from './paths';
import { readTextOr } from '../../read-file';
import { appendState } from './state-file';

export const refusalsFile = (commonDir: string) => path.join(handoffDir(commonDir), 'refusals.jsonl');
/** Rotated to refusals.jsonl.1 past this size: the view reads a day back. */
const MAX = 256 * 1024;
/** The longest text kept of what was refused. */
const TEXT_MAX = 400;
/** The longest reason kept: a whole refusal (holder, note, expiry, ways on), which a person acts on. */
const WHY_MAX = 4000;

export interface Refusal {
  /** ISO 8601 */
  t: string;
  /** `guard` (an agent's tool call), `githook:<name>`, or `git handoff <command>` (refused as another session's: exit 3) */
  by: string;
  session: string | null;
  client: string | null;
  /** what was refused: the command line, the path, or the git operation */
  what: string;
  /** the whole refusal */
  why: string;
}

const cut = (s: string, max = TEXT_MAX) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** Appends one refusal; never throws (a refusal is answered whether or not its line is kept). */
export function noteRefusal(commonDir: string, r: Omit<Refusal, 't'>): void {
  try {
    const line: Refusal = { t: new Date().toISOString(), by: r.by, session: r.session, client: r.client, what: cut(r.what), why: cut(r.why, WHY_MAX) };
    appendState(refusalsFile(commonDir), JSON.stringify(line) + '\n', handoffDir(commonDir), MAX);
  } catch {
    // optional state (SPEC 4)
  }
}

/** The refusals since `sinceMs` (unix ms), oldest first; a missing file or a line of another shape reads as none. */
export function readRefusals(commonDir: string, sinceMs: number): Refusal[] {
  return [`${refusalsFile(commonDir)}.1`, refusalsFile(commonDir)]
    .flatMap((file) => jsonLines(readTextOr(file) ?? ''))
    .filter((r) => typeof r.t === 'string' && typeof r.what === 'string' && Date.parse(r.t) >= sinceMs)
    .map((r) => ({ t: r.t, by: String(r.by ?? ''), session: typeof r.session === 'string' ? r.session : null, client: typeof r.client === 'string' ? r.client : null, what: r.what, why: String(r.why ?? '') }));
}
