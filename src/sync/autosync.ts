// handoff.autoSync: the pre-push hook pushes changed handoff refs beside the user's push (issue 5).
import type { Repo } from '../git/repo';
import { pushHandoffs } from './push';
import { remoteNames } from './remote';

/**
 * Pushes changed handoff refs to `remote` (a remote name; a bare URL has no tracking refs and is skipped).
 * It pushes with --no-verify, so the hook does not run again; it never throws, and never fails the user's push.
 * Returns a line for the user, or null when there was nothing to say.
 */
export function autoSyncPush(repo: Repo, remote: string): string | null {
  try {
    if (!remoteNames(repo).includes(remote)) return `git-handoff: autoSync skipped: ${remote} is not a named remote (run \`git handoff push <remote>\`)`;
    const r = pushHandoffs(repo, remote, { refetch: false });
    const pushed = r.updates.filter((u) => u.status === 'pushed').length;
    const notes: string[] = [];
    if (pushed) notes.push(`pushed ${pushed} handoff ref${pushed === 1 ? '' : 's'} to ${remote}`);
    if (r.rejected.length) notes.push(`${r.rejected.length} rejected (${r.rejected.map((u) => u.ref).join(', ')}): run \`git handoff sync ${remote}\``);
    const diverged = r.skipped.filter((s) => s.state === 'diverged').length;
    if (diverged) notes.push(`${diverged} diverged: run \`git handoff sync ${remote}\` and resolve`);
    return notes.length ? `git-handoff: autoSync: ${notes.join('; ')}` : null;
  } catch (e) {
    return `git-handoff: autoSync could not push handoffs (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); your push goes on`;
  }
}
