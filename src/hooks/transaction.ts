// reference-transaction in `prepared`: handoff refs held to the ownership invariant whoever moves them,
// and, when the acting session is known, no branch update that drops another session's commits.
import { lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packingPrunes } from '../git/refs-read';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, NOTES_REF } from '../handoff/store/names';
import { foreignCommits, onlyInArgs } from '../handoff/store/ownership';
import { REPLACE_PREFIX } from '../handoff/store/ref-updates';
import { checkReceive, parseUpdates, type Refusal as ReceiveRefusal } from '../handoff/store/ref-updates';
import { withoutRedactions } from '../handoff/secrets/redact-check';
import type { HookContext } from './handler';
import { branchRename, hookGitArgv } from './renamed-branch';
import { cappedList, droppedWork, refusedResetFile, shortOid, type Refusal } from './refusal';

/** A refusal of handoff or archive ref updates (checkReceive's findings: the same check a server runs on a push). */
export function handoffRefusal(found: ReceiveRefusal[], where: string, fetchHint: string | null): Refusal {
  const steps = [...new Set(found.map((f) => f.hint))];
  if (fetchHint) steps.unshift(fetchHint);
  return {
    kind: 'integrity',
    what: `${found.length === 1 ? 'an update' : `${found.length} updates`} of handoff refs ${where} would break the ownership invariant (a handoff only moves forward, each version keeps its owner or names it in a takeover, and only \`git handoff archive\` removes one)`,
    found: found.map((f) => `${f.ref}: ${f.message}`),
    steps,
    data: { violations: found.map((f) => ({ ref: f.ref, rule: f.rule, message: f.message })) },
  };
}

/** The branch HEAD names (openRepo read it from HEAD's file), null when detached. */
const headRef = (repo: Repo) => (repo.branch === null ? null : `refs/heads/${repo.branch}`);

/** What a reset already did to the index and files before the ref (git has no pre-reset hook), and how to undo it. */
function filesAlreadyMoved(repo: Repo, ref: string, old: string, next: string): { found: string[]; step: string } | null {
  if (headRef(repo) !== ref) return null;
  // back to an ancestor: a reset (an amend or a rebase also leaves the index at the new tree, and did not reset it)
  if (!repo.isAncestor(next, old)) return null;
  // each path with its change from old to next (D: next lacks it)
  const changes = repo.diffPaths({ revs: [old, next] }) ?? [];
  const paths = changes.map((c) => c.path);
  if (paths.length === 0 || repo.diffPaths({ cached: true, revs: [next] })?.length !== 0) return null;
  const list = cappedList(paths);
  // the working tree reads as `next` when its files match the index (git diff) and none that `next` lacks is still on
  // disk: a mixed reset leaves a file the reset commit added there, untracked, which git diff does not see
  const onDisk = (p: string) => !!repo.worktree && lstatSync(path.join(repo.worktree, p), { throwIfNoEntry: false }) !== undefined;
  if (!changes.some((c) => c.status === 'D' && onDisk(c.path)) && repo.diffPaths({ paths })?.length === 0) {
    return {
      found: [`git had already reset the index and the working tree to ${shortOid(next)} before this hook ran: ${list} now read as in ${shortOid(next)}, on disk and staged`],
      step: `put the files back as HEAD (still ${shortOid(old)}) has them: git reset --hard HEAD — do this before any commit, or the next commit reverts their work`,
    };
  }
  return {
    found: [`git had already reset the index to ${shortOid(next)} before this hook ran (the files on disk are unchanged): ${list} are staged as in ${shortOid(next)}`],
    step: `put the index back as HEAD (still ${shortOid(old)}) has it: git reset -q HEAD — before any commit, or the next commit reverts their work`,
  };
}

/** The refs held to the invariant whoever moves them, each a prefix or one ref; the stub's `checked` is generated from it. */
export const CHECKED_REFS: readonly string[] = [HANDOFF_PREFIX, ARCHIVE_PREFIX, NOTES_REF, REPLACE_PREFIX];
const isChecked = (ref: string) => CHECKED_REFS.some((p) => (p.endsWith('/') ? ref.startsWith(p) : ref === p));

/** The branch the git command running this hook renames, and the name it renames it to (refs), or null. */
function renaming(repo: Repo): { from: string; to: string } | null {
  const argv = hookGitArgv();
  const names = argv ? branchRename(argv) : null;
  const from = names && (names.from === null ? headRef(repo) : `refs/heads/${names.from}`);
  return names && from ? { from, to: `refs/heads/${names.to}` } : null;
}

/** What a forced rename of `from` (at `oid`) over `to` drops: the commits only `to` holds. */
function overwritten(repo: Repo, from: string, oid: string, to: string): string[] {
  const at = repo.listRefs([to])[0]?.oid;
  if (!at || at === oid) return [];
  // onlyInArgs([to, from]) with `from` moved to the side of what stays (it is still there: git deletes it after this hook)
  const args = onlyInArgs([to, from]).filter((a) => a !== from);
  return repo.commits({ from: [...args, oid] });
}

export async function referenceTransaction(c: HookContext): Promise<Refusal | null> {
  if (c.args[0] !== 'prepared') return null;
  // Only the checked refs, and branches and tags when a session acts, concern this hook.
  const checked = (ref: string) => isChecked(ref) || (!!c.session && (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/')));
  const lines = parseUpdates(c.input).filter((u) => checked(u.ref));
  // git passes zeros as the old value whenever the updater gave none: read the refs' real values (still the old ones in `prepared`), in one process.
  const unknown = lines.filter((u) => !u.oldOid).map((u) => u.ref);
  const current = new Map(unknown.length ? c.repo.listRefs(unknown).map((r) => [r.ref, r.oid] as const) : []);
  const filled = lines.map((u) => ({ ...u, oldOid: u.oldOid ?? current.get(u.ref) ?? null }));
  // git pack-refs and gc remove loose files whose value packed-refs now holds: packing, not deleting
  const packing = packingPrunes(c.repo.commonDir, filled);
  // …and write each ref into packed-refs at the value it has (git passes no old value): no move, nothing to check
  const updates = filled.filter((u) => !packing.has(u.ref) && !(u.newOid && u.newOid === u.oldOid));
  // checkReceive: checkAdvances for moves, a deletion only beside its archive entry, archive entries kept.
  // `git handoff redact` is the one rewrite let through, checked against its originals (SPEC 2.6)
  const bad = await withoutRedactions(c.repo, checkReceive(c.repo, updates), updates);
  if (bad.length) return handoffRefusal(bad, 'in this repository', null);
  if (!c.session) return null;
  // the branches deleted here. `git branch -m` deletes the old name, then (-M) the branch it overwrites, each in a
  // transaction of its own, before it writes the new name with none: the rename is judged whole at its first
  // deletion, by what the overwritten branch alone held (src/hooks/renamed-branch.ts)
  const deleted = updates.filter((u) => u.ref.startsWith('refs/heads/') && u.oldOid && !u.newOid).map((u) => u.ref);
  const rename = deleted.length > 0 ? renaming(c.repo) : null;
  for (const { ref, oldOid: old, newOid: next } of updates) {
    const tag = ref.startsWith('refs/tags/');
    if (!(tag || ref.startsWith('refs/heads/')) || !old || old === next || (!next && ref === rename?.to)) continue;
    if (next && c.repo.isAncestor(old, next)) continue;
    // a tag deleted or moved back takes its name off the commit it was on; a deleted branch drops what no other
    // branch, tag or remote-tracking ref holds
    const foreign = foreignCommits(
      c.repo,
      tag
        ? [c.repo.resolve(`${old}^{commit}`)].filter((o): o is string => o !== null)
        : next
          ? c.repo.commits({ from: [old], not: [next] })
          : ref === rename?.from
            ? overwritten(c.repo, ref, old, rename.to)
            : c.repo.commits({ from: onlyInArgs(deleted) }),
      c.session,
    );
    if (foreign.length === 0) continue;
    const work = droppedWork(foreign, c.session);
    const moved = next ? filesAlreadyMoved(c.repo, ref, old, next) : null;
    // pre-commit reads this: the next commit must not take back the commits whose files git already reset
    if (moved) writeFileSync(refusedResetFile(c.repo), JSON.stringify({ head: old, commits: foreign.map((f) => f.oid) }));
    return {
      kind: 'owned',
      what: `${next ? `moving ${ref} from ${shortOid(old)} to ${shortOid(next)}` : ref === rename?.from ? `renaming ${ref} over ${rename.to}` : `deleting ${ref} (at ${shortOid(old)})`} would drop ${work.what} (${tag ? 'the tag is on their commit' : next ? 'an amend, rebase or reset over their work' : ref === rename?.from ? `only ${rename.to} holds them` : 'no other branch, tag or remote-tracking branch holds them'})`,
      found: [
        ...work.found,
        `${work.acting} (from ${c.sessionSource}); ${ref} is unchanged`,
        ...(moved?.found ?? []),
      ],
      steps: [
        ...(moved ? [moved.step] : []),
        'leave their commits in place and build on top instead: a new commit rather than --amend, git revert rather than reset',
        'if a rebase stopped here, git rebase --abort returns the branch and HEAD to where they were',
        `if the rewrite is agreed with session ${work.owners}, let a person run it (with no session id in the environment)`,
      ],
      data: { ref, old, new: next, dropped: foreign },
    };
  }
  return null;
}
