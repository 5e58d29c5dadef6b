// reference-transaction in `prepared`: handoff refs held to the ownership invariant whoever moves them,
// and, when the acting session is known, no branch update that drops another session's commits.
import { listRefs } from '../git/refs';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX } from '../handoff/names';
import { checkAdvance, readTrailersOf, type Violation } from '../handoff/ownership';
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

/** The archive refs a deletion of `ref` at `tip` may be paired with: refs/handoff-archive/<B>/<T>/<secs>-<12 hex>. */
function archivePattern(ref: string, tip: string): RegExp | null {
  const rest = ref.slice(HANDOFF_PREFIX.length);
  if (!ref.startsWith(HANDOFF_PREFIX) || rest.split('/').length !== 2) return null;
  const esc = (ARCHIVE_PREFIX + rest).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${esc}/\\d+-${tip.slice(0, 12)}$`);
}

export interface HandoffViolation {
  update: RefUpdate;
  violation: Violation;
}

/**
 * Checks handoff ref updates against the invariant (checkAdvance). A deletion passes only when the same
 * update set creates the matching archive ref at the deleted tip, or such an archive ref already exists.
 */
export function handoffViolations(repo: Repo, updates: RefUpdate[], existingArchives: (prefix: string) => Array<{ ref: string; oid: string }>): HandoffViolation[] {
  const out: HandoffViolation[] = [];
  for (const u of updates) {
    if (!u.ref.startsWith(HANDOFF_PREFIX)) continue;
    const v = checkAdvance(repo, u.old, u.new);
    if (!v) continue;
    if (v.rule === 'delete' && u.old) {
      const pat = archivePattern(u.ref, u.old);
      const paired = (r: { ref: string; oid: string }) => !!pat && pat.test(r.ref) && r.oid === u.old;
      if (updates.some((a) => a.new && paired({ ref: a.ref, oid: a.new }))) continue;
      if (pat && existingArchives(ARCHIVE_PREFIX + u.ref.slice(HANDOFF_PREFIX.length) + '/').some(paired)) continue;
    }
    out.push({ update: u, violation: v });
  }
  return out;
}

export function handoffRefusal(found: HandoffViolation[], where: string, fetchHint: string | null): Refusal {
  const steps = [
    'write a new version with `git handoff write <topic> …` (it builds on the current tip), or take the handoff over on the record: `git handoff write <topic> --take-over --reason "<why>" …`',
    'to retire a handoff, use `git handoff archive <topic>`: it keeps the whole history under refs/handoff-archive/',
  ];
  if (fetchHint) steps.unshift(fetchHint);
  return {
    kind: 'integrity',
    what: `${found.length === 1 ? 'an update' : `${found.length} updates`} of handoff refs ${where} would break the ownership invariant (a handoff only moves forward, each version keeps its owner or names it in a takeover)`,
    found: found.map((f) => `${f.update.ref}: ${f.violation.message}`),
    steps,
    data: { violations: found.map((f) => ({ ref: f.update.ref, old: f.update.old, new: f.update.new, rule: f.violation.rule, commit: f.violation.commit })) },
  };
}

/** Commits reachable from `old` but not from `new` that carry another session's id. */
function droppedForeign(repo: Repo, old: string, newOid: string, session: string): Array<{ oid: string; session: string }> {
  const dropped = repo.out(['rev-list', old, `^${newOid}`]).split('\n').filter(Boolean);
  const out: Array<{ oid: string; session: string }> = [];
  for (const [oid, t] of readTrailersOf(repo, dropped)) if (t.session && t.session !== session) out.push({ oid, session: t.session });
  return out;
}

/** pre-receive on a server: the same handoff check, before any ref moves, with output the pusher sees. */
export function preReceive(c: HookContext): Refusal | null {
  const bad = handoffViolations(c.repo, parseUpdateLines(c.input), (prefix) => listRefs(c.repo, [prefix]));
  return bad.length ? handoffRefusal(bad, 'pushed here', 'fetch the current handoffs (git handoff fetch), write on top of them, and push again') : null;
}

export function referenceTransaction(c: HookContext): Refusal | null {
  if (c.args[0] !== 'prepared') return null;
  // Only handoff refs (with the archive refs that pair their deletions), and branches when a session acts, concern this hook.
  const checked = (ref: string) => ref.startsWith(HANDOFF_PREFIX) || (!!c.session && ref.startsWith('refs/heads/'));
  const lines = parseUpdateLines(c.input).filter((u) => checked(u.ref) || u.ref.startsWith(ARCHIVE_PREFIX));
  // git passes zeros as the old value whenever the updater gave none: read the refs' real values (still the old ones in `prepared`), in one process.
  const unknown = lines.filter((u) => !u.old && checked(u.ref)).map((u) => u.ref);
  const current = new Map(unknown.length ? listRefs(c.repo, unknown).map((r) => [r.ref, r.oid] as const) : []);
  const updates: RefUpdate[] = lines.map((u) => ({ ...u, old: u.old ?? current.get(u.ref) ?? null }));
  const bad = handoffViolations(c.repo, updates, (prefix) => listRefs(c.repo, [prefix]));
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
