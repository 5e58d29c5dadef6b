// Staged changes checked against the other sessions known here (claims, latest writers, recent commits): commit.ts loads it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { realpathOr } from '../read-file';
import path from 'node:path';
import { setting } from '../config-keys';
import { claimsMarker } from '../handoff/state/claims-marker';
import { claimedByOthers, describeHits } from '../handoff/claims/tell';
import { listSessions } from '../handoff/store/sessions';
import { readTrailersOf } from '../handoff/store/ownership';
import { relativeTime } from '../handoff/store/time';
import type { HookContext } from './handler';
import { cappedList, refusedResetFile, shortOid, type Refusal } from './refusal';
import { short as shortSession } from '../handoff/state/session';
import { shellWord as shq } from '../terminal-text';

/** The paths the index holds changed against HEAD, as git names them. */
const stagedPaths = (c: HookContext): string[] => (c.repo.diffPaths({ cached: true }) ?? []).map((d) => d.path);

/** Staged paths another live session claims (SPEC 10): named on stderr, refused with handoff.claims=enforce. */
export function stagedClaims(c: HookContext): Refusal | null {
  if (!existsSync(claimsMarker(c.repo.commonDir))) return null;
  const staged = stagedPaths(c);
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

/** A session's commit: staged paths another live session claims or last wrote here, or content taking back its commit. */
export function sessionStaged(c: HookContext, othersKnown: boolean): Refusal | null {
  const claimed = stagedClaims(c);
  if (claimed || !othersKnown) return claimed;
  // git is asked for the staged paths only once another live session could own one
  let names: Set<string> | null = null;
  const staged = () => (names ??= new Set(stagedPaths(c)));
  // every other live session once (one read of the leases), this worktree's by its path as git reports it
  const live = listSessions(c.repo, { config: c.config() }).filter((s) => s.session !== c.session && s.status === 'live');
  // its links resolved, as `listSessions` names worktrees
  const here = realpathOr(c.repo.worktree!);
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
      return `session ${shortSession(s.session)} (live, last seen ${relativeTime(new Date(seen).toISOString())}): ${cappedList(s.paths, MAX)}`;
    }),
    steps: [
      `leave their files out and commit only yours: git restore --staged -- ${theirs.slice(0, MAX).map(shq).join(' ')}${theirs.length > MAX ? ' …' : ''}`,
      `if session ${others.map((s) => shortSession(s.session)).join(', ')} has finished with them, release its claims: git handoff release --session ${others.map((s) => shq(s.session)).join(' / ')} (or wait until its lease expires: handoff.leaseTTL, default 30m)`,
      'see who is live here and what each wrote: git handoff sessions',
    ],
    data: { session: c.session, conflicts: others.map((s) => ({ session: s.session, paths: s.paths })) },
  };
}

const ZERO = /^0+$/;

/** The commits a refused reset left the files without, while HEAD is still where it was (else the note is stale). */
function refusedReset(c: HookContext): Set<string> {
  const file = refusedResetFile(c.repo);
  if (!existsSync(file)) return new Set();
  try {
    const note = JSON.parse(readFileSync(file, 'utf8')) as { head: string; commits: string[] };
    if (c.repo.resolve('HEAD') === note.head) return new Set(note.commits);
  } catch {
    /* unreadable: dropped below */
  }
  rmSync(file, { force: true });
  return new Set();
}
const RECENT = 50;

/** Staged content taking back a recent commit of another live session, or one a refused reset left; a revert passes. */
function revertsForeignCommit(c: HookContext, live: Set<string>, staged: () => Set<string>): Refusal | null {
  if (['REVERT_HEAD', 'CHERRY_PICK_HEAD'].some((f) => existsSync(path.join(c.repo.gitDir, f)))) return null;
  const reset = refusedReset(c);
  if (live.size === 0 && reset.size === 0) return null;
  const recent = c.repo.commits({ from: ['HEAD'], max: RECENT, noMerges: true, lenient: true });
  const trailers = readTrailersOf(c.repo, recent);
  const theirs = recent.filter((o) => reset.has(o) || live.has(trailers.get(o)?.session ?? ''));
  if (theirs.length === 0) return null;
  const want = staged();
  const changes = c.repo.commitChanges(theirs).filter((ch) => want.has(ch.path) && !ch.path.includes('\n'));
  if (changes.length === 0) return null;
  // the index and HEAD blobs of those paths, in one cat-file
  const specs = changes.flatMap((ch) => [`:${ch.path}`, `HEAD:${ch.path}`]);
  const blobs = c.repo.objectInfo(specs).map((o) => o?.oid ?? null);
  const same = (a: string | null, b: string) => (a === null ? ZERO.test(b) : a === b);
  const reverted = changes.filter((ch, i) => same(blobs[2 * i], ch.before) && same(blobs[2 * i + 1], ch.after) && ch.before !== ch.after);
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
