// Who acts: the writer (a session, or with --person the person in git config) and the reader of receipts.
import { ROLE_VAR } from '../environment';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import { readerOf, type Reader } from '../handoff/store/address';
import { personRef } from '../handoff/store/person';
import { requireSession, resolveSession, type SessionRef } from '../handoff/state/session';

interface IdentityArgs {
  session?: string;
  person?: boolean;
  role?: string;
}

/** The writer: --person, else the session (exit 5 without one, as ever: a person never writes by accident). */
export function writerOf(repo: Repo, a: IdentityArgs): SessionRef {
  if (!a.person) return requireSession(a.session);
  if (a.session !== undefined) throw new HandoffError('usage', 'person-and-session', 'give --person or --session, not both');
  return personRef(repo);
}

/** The reader: --person, else the session of the environment; null when neither says who reads. */
export function readerFor(repo: Repo, a: IdentityArgs): Reader | null {
  const role = a.role ?? process.env[ROLE_VAR] ?? null;
  if (a.person) return readerOf({ person: personRef(repo).id, role });
  const s = resolveSession(a.session);
  return readerOf({ session: s?.id ?? null, client: s?.client ?? null, role });
}
