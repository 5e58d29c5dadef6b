// The last try of each remote and what came of it, for `status` and `web`: a record to look at, never an input to a decision.
import path from 'node:path';
import { handoffDir } from './paths';
import { writeCache } from './state-file';
import { readJsonOr } from '../../read-file';

interface Contact {
  /** ISO 8601: the last try */
  at: string;
  ok: boolean;
  why: string | null;
  /** ISO 8601: the last try that reached it */
  lastOk: string | null;
}

const contactFile = (commonDir: string) => path.join(handoffDir(commonDir), 'contact.json');

export function readContacts(commonDir: string): Record<string, Contact> {
  const v = readJsonOr(contactFile(commonDir));
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

/** Records a try of `remote`; never throws (optional state, SPEC 4). */
export function noteContact(commonDir: string, remote: string, ok: boolean, why: string | null = null): void {
  const all = readContacts(commonDir);
  const at = new Date().toISOString();
  all[remote] = { at, ok, why: ok ? null : (why ?? 'not reached').split('\n')[0].slice(0, 300), lastOk: ok ? at : (all[remote]?.lastOk ?? null) };
  writeCache(contactFile(commonDir), all, handoffDir(commonDir));
}
