// The session-start view (SPEC 4 `boot`): this branch's handoffs, the session's own first, verified now.
import type { Repo } from '../git/repo';
import { listHandoffs, viewOf, type HandoffView } from './store';

export interface BootView {
  branch: string | null;
  session: string | null;
  handoffs: HandoffView[];
}

export interface BootOptions {
  session?: string | null;
  branch?: string | null;
  all?: boolean;
}

export function bootView(repo: Repo, o: BootOptions = {}): BootView {
  const branch = o.branch ?? repo.branch;
  const rows = o.all || !branch ? listHandoffs(repo, { all: true }) : listHandoffs(repo, { branch });
  const own = (s: string | null) => (o.session && s === o.session ? 0 : 1);
  rows.sort((a, b) => own(a.session) - own(b.session) || b.updatedAt.localeCompare(a.updatedAt));
  return { branch, session: o.session ?? null, handoffs: rows.map((r) => viewOf(repo, r.ref, r.oid, r.branch, r.topic)) };
}
