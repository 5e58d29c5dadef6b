// A command refused as another session's (exit 3: a handoff owned, paths claimed), kept in the refusals record
// (src/handoff/state/refusals.ts) beside the guard's and the hooks' refusals, for `status` and `web`.
import { shellWord } from '../clients/event';
import { toHandoffError } from '../errors';
import { openRepo } from '../git/repo';
import { noteRefusal } from '../handoff/state/refusals';
import { resolveSession } from '../handoff/state/session';

/** Records `e` when it refused the command for another session's sake; nothing else, and never a failure. */
export function noteCommandRefusal(e: unknown, argv: string[]): void {
  const err = toHandoffError(e);
  if (err.exitCode !== 3) return;
  try {
    const data = (err.data ?? {}) as { session?: unknown };
    let session: string | null = typeof data.session === 'string' ? data.session : null;
    try {
      session ??= resolveSession(undefined)?.id ?? null;
    } catch {
      // an invalid id in the environment: the record names none
    }
    noteRefusal(openRepo().commonDir, { by: `git handoff ${argv.find((a) => !a.startsWith('-')) ?? ''}`.trim(), session, client: null, what: `git handoff ${argv.map(shellWord).join(' ')}`, why: err.message });
  } catch {
    // not a repository: nothing to keep it in
  }
}
