// `git handoff archive <topic>` and `git handoff restore <topic | archived ref>`: archive entries are never deleted.
import { openRepo, type Repo } from '../../git/repo';
import { HandoffError } from '../../errors';
import { ARCHIVE_PREFIX, handoffRef } from '../../handoff/store/names';
import { archiveHandoff, archivedVersions, droppedVersions, notFound, resolveBranch, restoreHandoff } from '../../handoff/store/store';
import { shownRef, takeoverArg, command, writerOf } from '../context';
import { droppedRefOf, undropHandoff } from '../../handoff/store/drop';
import { answer } from '../output';
import { WRITER, withOptions, withTopic } from '../spec';

export const archiveCommand = command({
  command: 'archive <topic>',
  describe: 'move a handoff to refs/handoff-archive (owner only, or --take-over)',
  builder: (y) => withTopic(withOptions(y, WRITER))
      .example('$0 archive auth-refactor', 'done with it: every version stays under refs/handoff-archive')
      .example('$0 archive auth-refactor --take-over --reason "abandoned"', "another session's, on the record"),
  handler: (a) => {
    const repo = openRepo();
    const session = writerOf(repo, a);
    const r = archiveHandoff(repo, resolveBranch(repo, a.branch), a.topic, session, takeoverArg(a, 'archive'));
    answer(a.json, r, `archived ${shownRef(r.ref)} as ${r.archivedAs}; \`git handoff show ${a.topic}\` still reads it, \`git handoff restore ${a.topic}\` brings it back\n`);
  },
});

/** `restore <topic>`: its newest archive entry (the others are named); anything with a slash is an archived ref. */
function archivedRefOf(repo: Repo, arg: string, branch: string | undefined): { ref: string; note?: string; dropped?: boolean } {
  if (droppedRefOf(arg)) return { ref: droppedRefOf(arg)!, dropped: true };
  if (arg.includes('/')) return { ref: arg };
  const b = resolveBranch(repo, branch);
  const versions = archivedVersions(repo, b, arg);
  if (versions.length === 0) {
    const live = handoffRef(b, arg);
    if (repo.readRef(live)) throw new HandoffError('usage', 'not-archived', `"${arg}" on branch ${b} is live, not archived (${live}): there is nothing to restore; \`git handoff show ${arg}\` reads it`, { ref: live });
    // not archived: a dropped handoff comes back by the same command (its newest drop)
    const dropped = droppedVersions(repo, b, arg);
    if (dropped.length) return { ref: dropped[0].ref, dropped: true, note: dropped.length > 1 ? `the newest of ${dropped.length} drops; the others: ${dropped.slice(1).map((v) => v.ref).join(', ')}` : undefined };
    throw notFound(live, b, arg);
  }
  const label = (r: string) => r.slice(ARCHIVE_PREFIX.length);
  const note = versions.length > 1 ? `the newest of ${versions.length} archived versions; the others: ${versions.slice(1).map((v) => label(v.ref)).join(', ')}` : undefined;
  return { ref: versions[0].ref, note };
}

export const restoreCommand = command({
  command: 'restore <ref>',
  describe: 'bring an archived handoff back as a new version (owner only, or --take-over); the archive entry stays. A dropped one comes back as it was',
  builder: (y) => withOptions(y, WRITER)
      .positional('ref', { type: 'string', demandOption: true, describe: 'a topic (its newest archived version, else its newest drop), an archived ref as `list --archived` shows it, or a refs/handoff-dropped/… ref as `drop` named it' })
      .option('branch', { type: 'string', describe: 'with a topic: the branch (default: the checked-out one)' })
      .example('$0 restore auth-refactor', 'the newest archived version of auth-refactor on this branch')
      .example('$0 restore main/auth-refactor/1795332932-535247303cd4', 'one archived version by name')
      .example('$0 restore refs/handoff-dropped/main/scratch-notes/1795332932-535247303cd4', 'undo a drop'),
  handler: (a) => {
    const repo = openRepo();
    const session = writerOf(repo, a);
    if (a.branch !== undefined && a.ref.includes('/')) throw new HandoffError('usage', 'branch-with-ref', '--branch goes with a topic; an archived ref names its branch already');
    const { ref, note, dropped } = archivedRefOf(repo, a.ref, a.branch);
    if (dropped) {
      const u = undropHandoff(repo, ref, session, takeoverArg(a, 'restore'));
      return answer(a.json, { ...u, dropped: true }, `restored the dropped ${shownRef(u.ref)} from ${u.from} (${u.oid.slice(0, 7)}, every version as it was)${note ? `\n${note}` : ''}\n`);
    }
    const r = restoreHandoff(repo, ref, session, takeoverArg(a, 'restore'));
    answer(a.json, r, `restored ${r.from} to ${shownRef(r.ref)} (${r.oid.slice(0, 7)})${note ? `\n${note}` : ''}\n`);
  },
});
