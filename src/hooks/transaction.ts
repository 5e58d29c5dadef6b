// reference-transaction in `prepared`: handoff refs held to the ownership invariant whoever moves them,
// and, when the acting session is known, no branch update that drops another session's commits.
import { listRefs } from '../git/refs';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX } from '../handoff/names';
import { readTrailersOf } from '../handoff/ownership';
import { checkReceive, type Refusal as ReceiveRefusal } from '../sync/receive';
import type { HookContext } from './entry';
import { shortOid, shortSession, type Refusal } from './refusal';

export interface RefUpdate {
  ref: string;
  /** null: the ref does not exist (creation) */
  old: string | null;
  /** null: deletion */
  new: string | null;
}

const isZero = (oid: string) => /^0+$/.test(oid);

/** `<old> <new> <ref>` lines; zeros become null. */
export function parseUpdateLines(input: string): Array<{ ref: string; old: string | null; new: string | null }> {
  const out = [];
  for (const line of input.split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.+)$/.exec(line.trim());
    if (m) out.push({ ref: m[3], old: isZero(m[1]) ? null : m[1], new: isZero(m[2]) ? null : m[2] });
  }
  return out;
}

/**
 * Handoff and archive ref updates that break the invariant: the same check a server runs on a push
 * (checkReceive: checkAdvances for moves, a deletion only beside its archive entry, archive entries kept).
 */
export function handoffViolations(repo: Repo, updates: RefUpdate[]): ReceiveRefusal[] {
  return checkReceive(repo, updates.map((u) => ({ ref: u.ref, oldOid: u.old, newOid: u.new })));
}

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

/** Commits reachable from `old` but not from `new` that carry another session's id. */
function droppedForeign(repo: Repo, old: string, newOid: string, session: string): Array<{ oid: string; session: string }> {
  const dropped = repo.out(['rev-list', old, `^${newOid}`]).split('\n').filter(Boolean);
  const out: Array<{ oid: string; session: string }> = [];
  for (const [oid, t] of readTrailersOf(repo, dropped)) if (t.session && t.session !== session) out.push({ oid, session: t.session });
  return out;
}

export function referenceTransaction(c: HookContext): Refusal | null {
  if (c.args[0] !== 'prepared') return null;
  // Only handoff refs (with the archive refs that pair their deletions), and branches when a session acts, concern this hook.
  const checked = (ref: string) => ref.startsWith(HANDOFF_PREFIX) || ref.startsWith(ARCHIVE_PREFIX) || (!!c.session && ref.startsWith('refs/heads/'));
  const lines = parseUpdateLines(c.input).filter((u) => checked(u.ref));
  // git passes zeros as the old value whenever the updater gave none: read the refs' real values (still the old ones in `prepared`), in one process.
  const unknown = lines.filter((u) => !u.old && checked(u.ref)).map((u) => u.ref);
  const current = new Map(unknown.length ? listRefs(c.repo, unknown).map((r) => [r.ref, r.oid] as const) : []);
  const updates: RefUpdate[] = lines.map((u) => ({ ...u, old: u.old ?? current.get(u.ref) ?? null }));
  const bad = handoffViolations(c.repo, updates);
  if (bad.length) return handoffRefusal(bad, 'in this repository', null);
  if (!c.session) return null;
  for (const u of updates) {
    if (!u.ref.startsWith('refs/heads/') || !u.old || !u.new || u.old === u.new) continue;
    if (c.repo.git(['merge-base', '--is-ancestor', u.old, u.new], { allowFail: true }).status === 0) continue;
    const foreign = droppedForeign(c.repo, u.old, u.new, c.session);
    if (foreign.length === 0) continue;
    const owners = [...new Set(foreign.map((f) => f.session))];
    const MAX = 10;
    return {
      kind: 'owned',
      what: `moving ${u.ref} from ${shortOid(u.old)} to ${shortOid(u.new)} would drop ${foreign.length} commit${foreign.length === 1 ? '' : 's'} of ${owners.length === 1 ? 'another session' : 'other sessions'} (an amend, rebase or reset over their work)`,
      found: [
        ...foreign.slice(0, MAX).map((f) => `commit ${shortOid(f.oid)} by session ${shortSession(f.session)}`),
        ...(foreign.length > MAX ? [`… and ${foreign.length - MAX} more`] : []),
        `acting session: ${shortSession(c.session)} (from ${c.sessionSource}); ${u.ref} is unchanged`,
      ],
      steps: [
        'leave their commits in place and build on top instead: a new commit rather than --amend, git revert rather than reset',
        'if a rebase stopped here, git rebase --abort returns the branch and HEAD to where they were',
        `if the rewrite is agreed with session ${owners.map(shortSession).join(', ')}, let a person run it (with no session id in the environment)`,
      ],
      data: { ref: u.ref, old: u.old, new: u.new, dropped: foreign },
    };
  }
  return null;
}
