// handoff.autoSync: the pre-push hook pushes changed handoff refs beside the user's push.
import type { Repo } from '../git/repo';
import { HandoffError } from '../errors';
import { planScanPush } from './push';
import { remoteNames } from '../git/config';

/**
 * Pushes changed handoff refs to `remote` (a remote name; a bare URL has no tracking refs and is skipped).
 * It pushes with --no-verify, so the hook does not run again; it never throws, and never fails the user's push.
 * Returns a line for the user, or null when there was nothing to say.
 */
export async function autoSyncPush(repo: Repo, remote: string): Promise<string | null> {
  try {
    if (!remoteNames(repo).includes(remote)) return `git-handoff: autoSync skipped: ${remote} is not a named remote (run \`git handoff push <remote>\`)`;
    const r = await planScanPush(repo, remote, { refetch: false });
    const pushed = r.updates.filter((u) => u.status === 'pushed').length;
    const notes: string[] = [];
    if (pushed) notes.push(`pushed ${pushed} handoff ref${pushed === 1 ? '' : 's'} to ${remote}`);
    if (r.rejected.length) notes.push(`${r.rejected.length} rejected (${r.rejected.map((u) => u.ref).join(', ')}): run \`git handoff sync ${remote}\``);
    const diverged = r.skipped.filter((s) => s.state === 'diverged').length;
    if (diverged) notes.push(`${diverged} diverged: run \`git handoff sync ${remote}\` and resolve`);
    return notes.length ? `git-handoff: autoSync: ${notes.join('; ')}` : null;
  } catch (e) {
    // a finding keeps the handoffs here; the user's push goes on
    if (e instanceof HandoffError && e.code === 'secret-found') return `git-handoff: autoSync skipped: ${e.message.split('\n')[0]} (run \`git handoff push ${remote}\` for the details)`;
    return `git-handoff: autoSync could not push handoffs (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); your push goes on`;
  }
}
