// The last try of each remote and what came of it, for `status` and `web`: a record to look at, never an input to a decision.
import { localRecord } from './state-file';

interface Contact {
  /** ISO 8601: the last try */
  at: string;
  ok: boolean;
  why: string | null;
  /** ISO 8601: the last try that reached it */
  lastOk: string | null;
}

const CONTACT = localRecord('contact.json');

export function readContacts(commonDir: string): Record<string, Contact> {
  const v = CONTACT.read(commonDir);
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

/** Records a try of `remote`; never throws (optional state, SPEC 4). */
export function noteContact(commonDir: string, remote: string, ok: boolean, why: string | null = null): void {
  const all = readContacts(commonDir);
  const at = new Date().toISOString();
  all[remote] = { at, ok, why: ok ? null : (why ?? 'not reached').split('\n')[0].slice(0, 300), lastOk: ok ? at : (all[remote]?.lastOk ?? null) };
  CONTACT.cache(commonDir, all);
}
