// What was refused (by the guard, a git hook, or a command refused as another session's), for `status` and `web`:
// a record to look at, never an input to a decision.
import { jsonLinesIn } from './paths';
import { localRecord } from './state-file';

const REFUSALS = localRecord('refusals.jsonl');
/** Rotated to refusals.jsonl.1 past this size: the view reads a day back. */
const MAX = 256 * 1024;
/** The longest reason kept: a whole refusal (holder, note, expiry, ways on), which a person acts on. */
const WHY_MAX = 4000;

export interface Refusal {
  /** ISO 8601 */
  t: string;
  /** `guard`, `githook:<name>`, or `git handoff <command>` */
  by: string;
  session: string | null;
  client: string | null;
  /** the command line, the path, or the git operation */
  what: string;
  why: string;
}

const cut = (s: string, max = 400) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** Appends one refusal; never throws (optional state, SPEC 4). */
export function noteRefusal(commonDir: string, r: Omit<Refusal, 't'>): void {
  try {
    const line: Refusal = { t: new Date().toISOString(), by: r.by, session: r.session, client: r.client, what: cut(r.what), why: cut(r.why, WHY_MAX) };
    REFUSALS.append(commonDir, line, undefined, MAX);
  } catch {}
}

/** The refusals since `sinceMs` (unix ms), oldest first. */
export function readRefusals(commonDir: string, sinceMs: number): Refusal[] {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return [`${REFUSALS.at(commonDir)}.1`, REFUSALS.at(commonDir)]
    .flatMap(jsonLinesIn)
    .filter((r) => typeof r.t === 'string' && typeof r.what === 'string' && Date.parse(r.t) >= sinceMs)
    .map((r) => ({ t: r.t, by: String(r.by ?? ''), session: str(r.session), client: str(r.client), what: r.what, why: String(r.why ?? '') }));
}
