// The commit hooks: the session's trailers on agent commits (prepare-commit-msg, commit-msg), one session per message
// (commit-msg), no committing another live session's files or taking back its commits (a session's `git commit`:
// prepare-commit-msg, which --no-verify does not skip), and live claims named (pre-commit, a person's).
import { appendFileSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claimedSessions, TRAILER } from '../handoff/store/document';
import { readTrailersOf } from '../handoff/store/ownership';
import { relativeTime } from '../handoff/store/time';
import type { HookContext } from './entry';
import { refusedResetFile, shortOid, shortSession, shq, type Refusal } from './refusal';
import { listSessions } from '../handoff/state/sessions';
import { listLeases } from '../handoff/state/leases';
import { ledgerDir } from '../handoff/state/ledger';
import { encodeBranch } from '../handoff/store/names';
import { setting } from '../config-keys';
import { messageFileTrailerLines } from '../git/trailers';
import { configValue } from '../git/config';

/** Every Claude-Session-Id value among trailer lines: the product's one reading (claimedSessions). */
export const sessionIdsIn = (trailerLines: string[]): string[] => claimedSessions(trailerLines);

/** A line holding the session trailer's key, in any case: without one, git reads no session id from a message. */
const KEYED = new RegExp(TRAILER.session.replace(/[^A-Za-z0-9]/g, '\\$&'), 'i');

/** The trailers of a message file as git reads them (comments and a scissors line ignored; no `---` divider). */
const trailersOfFile = (c: HookContext, file: string): string[] => messageFileTrailerLines(c.repo, file);
/** The session ids of a message file as git reads them; none, without asking git, where no line holds the key. */
const idsOfFile = (c: HookContext, file: string): string[] => (KEYED.test(readFileSync(file, 'latin1')) ? sessionIdsIn(trailersOfFile(c, file)) : []);

/** True when the message has text besides comments: a trailer must not turn an aborted (empty) commit into one. */
function hasContent(c: HookContext, file: string): boolean {
  const comment = configValue(c.config(), 'core.commentChar')?.trim() || '#';
  const text = readFileSync(file, 'utf8');
  const cut = text.search(/^. -+ >8 -+$/m);
  const body = cut === -1 ? text : text.slice(0, cut);
  return body.split('\n').some((l) => l.trim() !== '' && (comment === 'auto' ? !/^[#;@!$%^&|:]/.test(l) : !l.startsWith(comment)));
}

/** The session's trailers: its id, and the client it runs in (`Handoff-Client`, the name of SPEC 3; `cli` when none says). */
function addSessionTrailer(c: HookContext, file: string): void {
  // git merge writes its message without a final newline, and interpret-trailers would then glue the trailer to the subject.
  const text = readFileSync(file, 'utf8');
  if (text && !text.endsWith('\n')) appendFileSync(file, '\n');
  const trailers = [`${TRAILER.session}: ${c.session}`, ...(c.client ? [`${TRAILER.client}: ${c.client}`] : [])];
  c.repo.out(['interpret-trailers', '--in-place', '--no-divider', '--where', 'end', '--if-exists', 'doNothing', ...trailers.flatMap((t) => ['--trailer', t]), file]);
}

/**
 * The copy of a message prepare-commit-msg's handler produced and judged as commit-msg's handler would (allowed, left
 * as it is) for `session`, beside the message file: the stub's commit-msg compares the message it gets with it byte
 * for byte (git-hooks/stub.sh `decided`), and asks the handler for any other.
 */
export const DECIDED_PREFIX = 'handoff-decided-msg.';
export const decidedCopy = (messageFile: string, session: string) => path.join(path.dirname(messageFile), `${DECIDED_PREFIX}${session}`);

const rebaseInProgress = (c: HookContext) => ['rebase-merge', 'rebase-apply'].some((d) => existsSync(path.join(c.repo.gitDir, d)));

/**
 * prepare-commit-msg <file> [source [sha]], for a session: a `git commit`'s staged changes checked (sessionStaged), its
 * trailers added when the message has content and no session id, and commit-msg's answer on the result given ahead
 * (decidedCopy). A person's commit: nothing.
 */
export function prepareCommitMsg(c: HookContext): Refusal | null {
  const file = c.args[0];
  if (!c.session || !file) return null;
  // whatever happens next, no earlier copy stands for this message
  rmSync(decidedCopy(file, c.session), { force: true });
  // A rebase replays commits someone already made; it does not author them.
  if (rebaseInProgress(c)) return null;
  // git commit gives its hooks the author it will write (GIT_AUTHOR_DATE); merge and the sequencer (cherry-pick, revert)
  // give none and run no pre-commit
  if (c.env.GIT_AUTHOR_DATE !== undefined) {
    const refused = sessionStaged(c);
    if (refused) return refused;
  }
  let ids = idsOfFile(c, file);
  // no content: the editor will open, and commit-msg adds the trailers once there is a message
  if (ids.length === 0 && hasContent(c, file)) {
    addSessionTrailer(c, file);
    ids = [c.session];
  }
  if (idsRefusal(c, [...new Set(ids)]) === null) writeFileSync(decidedCopy(file, c.session), readFileSync(file));
  return null;
}

/** The refusal of a message whose session ids are `distinct`: two sessions, or (a session committing) another's. */
function idsRefusal(c: HookContext, distinct: string[]): Refusal | null {
  if (distinct.length > 1) {
    return {
      kind: 'integrity',
      what: 'this commit message carries the ids of two sessions; a commit belongs to one session',
      found: [
        `Claude-Session-Id values: ${distinct.map((s) => shortSession(s, [...distinct, c.session])).join(', ')}`,
        c.session ? `committing session: ${shortSession(c.session, distinct)} (from ${c.sessionSource})` : 'committing session: none (a person)',
      ],
      steps: [
        `edit the message so that it keeps one Claude-Session-Id trailer${c.session ? ` (yours: ${c.session})` : ''} and commit again (git commit -e, or git commit --amend to fix an earlier one)`,
        'if the change really mixes two sessions\' work, split it: stage and commit each session\'s files separately',
      ],
      data: { sessions: distinct },
    };
  }
  if (c.session && distinct.length === 1 && distinct[0] !== c.session) {
    return {
      kind: 'owned',
      what: `this commit message claims session ${shortSession(distinct[0], [c.session])}, but session ${shortSession(c.session, distinct)} is committing`,
      found: [`Claude-Session-Id: ${shortSession(distinct[0], [c.session])} in the message`, `committing session: ${shortSession(c.session, distinct)} (from ${c.sessionSource})`],
      steps: [
        `if you are amending session ${shortSession(distinct[0], [c.session])}'s commit, do not: leave it as it is and make a new commit on top (git commit without --amend)`,
        `if the trailer was copied by mistake, remove the Claude-Session-Id line from your message (this hook adds yours) and commit again`,
      ],
      data: { claimed: distinct[0], session: c.session },
    };
  }
  return null;
}

/** commit-msg <file>: one session per message, and an agent's commits carry its own id (added when missing). */
export function commitMsg(c: HookContext): Refusal | null {
  const file = c.args[0];
  if (!file) return null;
  const distinct = [...new Set(idsOfFile(c, file))];
  const refused = idsRefusal(c, distinct);
  if (refused || !c.session) return refused;
  if (distinct.length === 0 && hasContent(c, file)) addSessionTrailer(c, file);
  return null;
}

/**
 * Staged paths another live session claims (SPEC 10), from the claims state file: named on stderr (the commit goes
 * on), refused with handoff.claims=enforce. Nothing is read from git while no claim exists.
 */
function stagedClaims(c: HookContext): Refusal | null {
  const { existsSync } = require('node:fs') as typeof import('node:fs');
  const { claimsMarker } = require('../handoff/claims/marker') as typeof import('../handoff/claims/marker');
  if (!existsSync(claimsMarker(c.repo.commonDir))) return null;
  const { claimedByOthers, describeHits } = require('../handoff/claims/tell') as typeof import('../handoff/claims/tell');
  const staged = c.repo.out(['diff', '--cached', '--name-only', '--no-renames', '-z']).split('\0').filter(Boolean);
  const hits = claimedByOthers(c.repo.commonDir, c.repo.branch ?? null, c.session, staged);
  if (hits.length === 0) return null;
  const what = describeHits(hits);
  if (setting(c.config(), 'claims') !== 'enforce') {
    process.stderr.write(`git-handoff: staged paths another live session claims:\n${what}\n`);
    return null;
  }
  return {
    kind: 'owned',
    what: `${hits.length} staged path${hits.length === 1 ? ' is' : 's are'} claimed by another live session (handoff.claims=enforce)`,
    found: what.split('\n'),
    steps: [`leave them out: git restore --staged -- ${hits.map((h) => shq(h.path)).join(' ')}`, 'or ask the holder to release them (git handoff release <path>)'],
  };
}

/** pre-commit: a person's commit of paths a live claim names (a session's staged changes are prepare-commit-msg's). */
export function preCommit(c: HookContext): Refusal | null {
  return !c.session && c.repo.worktree ? stagedClaims(c) : null;
}

/**
 * A session's `git commit` (from prepare-commit-msg): staged paths a live claim of another session names, staged
 * paths whose latest writer in this worktree is another live session, staged content that takes back another's commit.
 */
function sessionStaged(c: HookContext): Refusal | null {
  const wt = c.repo.worktree;
  if (!wt) return null;
  const claimed = stagedClaims(c);
  if (claimed || !othersKnown(c)) return claimed;
  // git is asked for the staged paths only once another live session could own one
  let names: Set<string> | null = null;
  const staged = () => (names ??= new Set(c.repo.out(['diff', '--cached', '--name-only', '--no-renames', '-z']).split('\0').filter(Boolean)));
  // every other live session once (one read of the leases), this worktree's by its path as git reports it
  const live = listSessions(c.repo, { config: c.config() }).filter((s) => s.session !== c.session && s.status === 'live');
  const here = realWorktree(wt);
  const mine = live.filter((s) => s.worktree === here && s.paths.length > 0);
  const others = mine.length === 0 ? [] : mine.map((s) => ({ ...s, paths: s.paths.filter((p) => staged().has(p)) })).filter((s) => s.paths.length > 0);
  if (others.length === 0) return revertsForeignCommit(c, new Set(live.map((s) => s.session)), staged);
  const theirs = others.flatMap((s) => s.paths);
  const MAX = 20;
  return {
    kind: 'owned',
    what: `${theirs.length} staged path${theirs.length === 1 ? ' was' : 's were'} last written by another live session in this worktree`,
    found: others.map((s) => {
      const seen = Math.max(s.heartbeat ?? 0, s.lastActivity ?? 0);
      const list = s.paths.slice(0, MAX).join(', ') + (s.paths.length > MAX ? `, … (${s.paths.length - MAX} more)` : '');
      return `session ${shortSession(s.session)} (live, last seen ${relativeTime(new Date(seen).toISOString())}): ${list}`;
    }),
    steps: [
      `leave their files out and commit only yours: git restore --staged -- ${theirs.slice(0, MAX).map(shq).join(' ')}${theirs.length > MAX ? ' …' : ''}`,
      `if session ${others.map((s) => shortSession(s.session)).join(', ')} has finished with them, release its claims: git handoff release --session ${others.map((s) => shq(s.session)).join(' / ')} (or wait until its lease expires: handoff.leaseTTL, default 30m)`,
      'see who is live here and what each wrote: git handoff sessions',
    ],
    data: { session: c.session, conflicts: others.map((s) => ({ session: s.session, paths: s.paths })) },
  };
}

/**
 * Whether another session than the committing one may be known here: another session's ledger file (each entry is
 * appended to its session's own file), a lease another session holds, or a refused reset's note. Without one,
 * listSessions would list this session alone and the staged checks have nothing to compare: the ledgers are not read.
 */
function othersKnown(c: HookContext): boolean {
  const own = `${encodeBranch(c.session!)}.jsonl`;
  let names: string[] = [];
  try {
    names = readdirSync(ledgerDir(c.repo.commonDir));
  } catch {
    /* no ledger yet */
  }
  if (names.some((n) => n.endsWith('.jsonl') && n !== own) || existsSync(refusedResetFile(c.repo))) return true;
  return listLeases(c.repo).some((l) => l.session !== c.session);
}

/** A worktree's path with its links resolved, as `listSessions` names worktrees. */
function realWorktree(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

const ZERO = /^0+$/;

/** The commits a refused reset left the files without, while HEAD is still where it was (else the note is stale). */
function refusedReset(c: HookContext): Set<string> {
  const file = refusedResetFile(c.repo);
  if (!existsSync(file)) return new Set();
  try {
    const note = JSON.parse(readFileSync(file, 'utf8')) as { head: string; commits: string[] };
    if (c.repo.git(['rev-parse', '-q', '--verify', 'HEAD'], { allowFail: true }).stdout.trim() === note.head) return new Set(note.commits);
  } catch {
    /* unreadable: dropped below */
  }
  rmSync(file, { force: true });
  return new Set();
}
const RECENT = 50;

/**
 * Staged content that takes back, path by path, a recent commit of another live session or one a refused
 * `reset --hard` left the files without (git reset them before the hook could refuse); `live`, the other live
 * sessions. An explicit revert passes.
 */
function revertsForeignCommit(c: HookContext, live: Set<string>, staged: () => Set<string>): Refusal | null {
  if (['REVERT_HEAD', 'CHERRY_PICK_HEAD'].some((f) => existsSync(path.join(c.repo.gitDir, f)))) return null;
  const reset = refusedReset(c);
  if (live.size === 0 && reset.size === 0) return null;
  const recent = c.repo.git(['rev-list', '-n', String(RECENT), '--no-merges', 'HEAD'], { allowFail: true }).stdout.split('\n').filter(Boolean);
  const trailers = readTrailersOf(c.repo, recent);
  const theirs = recent.filter((o) => reset.has(o) || live.has(trailers.get(o)?.session ?? ''));
  if (theirs.length === 0) return null;
  const want = staged();
  // one diff-tree for all their commits: `<commit>` lines, then `:mode mode old new status\0path\0` records
  const raw = c.repo.git(['diff-tree', '--stdin', '-r', '--no-renames', '-z', '--root'], { input: theirs.join('\n') + '\n', allowFail: true }).stdout.split('\0');
  const changes: Array<{ commit: string; path: string; before: string; after: string }> = [];
  let commit = '';
  for (let i = 0; i < raw.length; i++) {
    const f = raw[i].replace(/^\n/, '');
    if (/^[0-9a-f]{40,64}$/.test(f)) commit = f;
    else if (f.startsWith(':')) {
      const [, , before, after] = f.slice(1).split(' ');
      const p = raw[++i];
      if (want.has(p) && !p.includes('\n')) changes.push({ commit, path: p, before, after });
    }
  }
  if (changes.length === 0) return null;
  // the index and HEAD blobs of those paths, in one cat-file
  const specs = changes.flatMap((ch) => [`:${ch.path}`, `HEAD:${ch.path}`]);
  const blobs = c.repo.git(['cat-file', '--batch-check=%(objectname)'], { input: specs.join('\n') + '\n', allowFail: true }).stdout.split('\n');
  const blob = (i: number) => (/^[0-9a-f]{40,64}$/.test(blobs[i]) ? blobs[i] : null);
  const same = (a: string | null, b: string) => (a === null ? ZERO.test(b) : a === b);
  const reverted = changes.filter((ch, i) => same(blob(2 * i), ch.before) && same(blob(2 * i + 1), ch.after) && ch.before !== ch.after);
  if (reverted.length === 0) return null;
  const commits = [...new Set(reverted.map((r) => r.commit))];
  const paths = [...new Set(reverted.map((r) => r.path))];
  const owner = (oid: string) => trailers.get(oid)?.session ?? null;
  // the client that made it, where the commit says (Handoff-Client)
  const by = (oid: string) => `session ${shortSession(owner(oid))}${trailers.get(oid)?.client ? ` (${trailers.get(oid)!.client})` : ''}`;
  return {
    kind: 'owned',
    what: `the staged changes take back ${commits.length === 1 ? 'a commit' : `${commits.length} commits`} of another session: ${paths.length} path${paths.length === 1 ? ' is' : 's are'} staged as before ${commits.length === 1 ? 'that commit' : 'those commits'}`,
    found: [
      ...commits.map((oid) => `commit ${shortOid(oid)} by ${by(oid)}: ${reverted.filter((r) => r.commit === oid).map((r) => r.path).join(', ')}`),
      `committing session: ${shortSession(c.session)} (from ${c.sessionSource}); this is what the files look like after a refused \`git reset --hard\`, which git applies to the files before any hook can refuse it`,
    ],
    steps: [
      `keep their work: git restore --source=HEAD --staged --worktree -- ${paths.map(shq).join(' ')} (then make your own change on top)`,
      `if undoing their commit is agreed with session ${[...new Set(commits.map((o) => shortSession(owner(o))))].join(', ')}, say so in the history: git revert ${commits.map(shortOid).join(' ')}`,
    ],
    data: { session: c.session, reverted: reverted.map((r) => ({ commit: r.commit, session: owner(r.commit), path: r.path })) },
  };
}
