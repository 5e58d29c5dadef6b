// `git handoff sessions` (who is live in which worktree, and what each wrote) and `git handoff release`.
import { HandoffError } from '../../errors';
import { openRepo, type Repo } from '../../git/repo';
import { changeClaims, listClaims, releaseMutation } from '../../handoff/claims/claims';
import { claimsRef } from '../../handoff/claims/table';
import { resolveBranch } from '../../handoff/store/store';
import { lineageOf, listRecords, successorOf } from '../../handoff/state/lineage-record';
import { requireSession, short } from '../../handoff/state/session';
import { listSessions, releaseSession, type SessionInfo } from '../../handoff/store/sessions';
import { command } from '../context';
import { onlyOwnSession } from '../person-only';
import { BRANCH } from '../spec';
import { releaseClaims } from './claim';
import { answer, printJson, relativeTime, table } from '../output';
import { realpathOr } from '../../read-file';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const MAX_PATHS = 3;

export const sessionsCommand = command({
  command: 'sessions',
  describe: 'worktree leases: which session (in which client) is live or stale where, the session each continues (lineage), and the paths each wrote',
  builder: (y) => y.example('$0 sessions --json', 'one object per session and worktree: status live|ended|gone|released|stale, how it ended, lease, paths'),
  handler: (a) => {
    const repo = openRepo();
    const rows = listSessions(repo);
    const records = listRecords(repo.commonDir);
    const byId = new Map(records.map((r) => [r.session, r]));
    if (a.json) {
      return printJson(
        rows.map((s) => ({
          ...s,
          heartbeat: iso(s.heartbeat),
          lastActivity: iso(s.lastActivity),
          lineage: lineageOf(repo.commonDir, s.session, records),
          continues: byId.get(s.session)?.from ?? null,
          continuedBy: successorOf(s.session, records),
        })),
      );
    }
    if (rows.length === 0) return void process.stdout.write('no sessions: no lease and nothing in the ledger\n');
    const ids = [...rows.map((s) => s.session), ...rows.flatMap((s) => [byId.get(s.session)?.from, successorOf(s.session, records)])];
    const body = rows.map((s) => {
      const seen = Math.max(s.heartbeat ?? 0, s.lastActivity ?? 0);
      const paths = s.paths.length === 0 ? '-' : `${s.paths.length}: ${s.paths.slice(0, MAX_PATHS).join(', ')}${s.paths.length > MAX_PATHS ? ', …' : ''}`;
      const rec = byId.get(s.session);
      const next = successorOf(s.session, records);
      const lineage = [rec?.from ? `continues ${short(rec.from, ids)} (${rec.source})` : null, next ? `continued by ${short(next, ids)}` : null].filter(Boolean).join('; ') || '-';
      return [s.worktree, short(s.session, ids), s.client ?? '-', s.status, s.lease ? 'yes' : 'no', seen ? relativeTime(new Date(seen).toISOString()) : '-', paths, lineage, s.ended ?? '-'];
    });
    process.stdout.write(`${table(body, ['WORKTREE', 'SESSION', 'CLIENT', 'STATUS', 'LEASE', 'LAST SEEN', 'PATHS', 'LINEAGE', 'ENDED'])}\n`);
  },
});

/** The shortest prefix `release` takes for a session id: the 8 characters `sessions` shows. */
const MIN_PREFIX = 8;

/**
 * The full id of a session known in `worktree`: the id itself, or a unique prefix of at least 8 characters; else the
 * error that lists the ids it could mean (thrown when the session holds no claims either, and nothing is written).
 */
function knownSession(rows: SessionInfo[], id: string, worktree: string): string | HandoffError {
  const here = rows.filter((s) => s.worktree === worktree || s.worktree === realpathOr(worktree));
  if (here.some((s) => s.session === id)) return id;
  const prefixed = [...new Set(here.filter((s) => s.session.startsWith(id)).map((s) => s.session))];
  if (prefixed.length === 1 && id.length >= MIN_PREFIX) return prefixed[0];
  const elsewhere = rows.filter((s) => s.session === id || (id.length >= MIN_PREFIX && s.session.startsWith(id)));
  const candidates = prefixed.length ? prefixed : [...new Set(here.map((s) => s.session))];
  const list = candidates.map((c) => `  ${c}  (${here.find((s) => s.session === c)!.status})`);
  const why =
    prefixed.length > 1 ? `"${id}" is the start of ${prefixed.length} sessions here; name one whole:`
    : prefixed.length === 1 ? `"${id}" is too short to pick a session (at least ${MIN_PREFIX} characters); it could mean:`
    : elsewhere.length ? `no session "${id}" in this worktree (${worktree}); it is known in ${[...new Set(elsewhere.map((s) => s.worktree))].join(', ')}: run release there. Sessions here:`
    : `no session "${id}" in this worktree (${worktree})${candidates.length ? '; the sessions here:' : ', and no session holds anything here: nothing to release'}`;
  return new HandoffError('usage', 'unknown-session', [why, ...list, ...(candidates.length ? ['(`git handoff sessions` shows each with its paths)'] : [])].join('\n'), { session: id, candidates });
}

export const releaseCommand = command({
  command: 'release [paths..]',
  describe: "end a session's hold: with paths, its claims on them (claim); without, its claims on the branch, its lease on this worktree and its hold on the paths it wrote",
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, describe: 'claimed paths to give back (as `git handoff claim` took them); none: everything the session holds' })
      .option('session', { type: 'string', describe: 'the session to release: its whole id, or a unique start of it of 8 or more characters as `sessions` shows it (default: this one, from the environment)' })
      .option(...BRANCH)
      .example('$0 release src/auth/', 'give back a claim when the change is done')
      .example('$0 release --session 5f0c6a52', 'a finished session (named by the 8 characters `sessions` shows) no longer blocks commits of the files it wrote here'),
  handler: async (a) => {
    if (a.paths?.length) return releaseClaims(a);
    const repo = openRepo();
    if (!repo.worktree) throw new HandoffError('usage', 'no-worktree', 'a bare repository has no worktree leases; run release inside a worktree');
    const rows = listSessions(repo);
    const id = requireSession(a.session).id;
    onlyOwnSession('release', id);
    const known = knownSession(rows, id, repo.worktree);
    // a session that holds nothing here but claims on the branch is known by them, by the same unique start
    let branch: string | null = null;
    try {
      branch = resolveBranch(repo, a.branch);
    } catch {
      // the branch cannot be told: no claims are released
    }
    const holder = typeof known === 'string' ? known : claimHolder(repo, id, branch);
    const released = branch !== null && repo.readRef(claimsRef(branch)) ? await changeClaims(repo, branch, holder, releaseMutation(branch, holder, null)) : null;
    const claims = released?.result.released.flatMap((x) => x.paths) ?? [];
    if (typeof known !== 'string') {
      if (claims.length === 0) throw known;
      return answer(a.json, { session: holder, worktree: repo.worktree, lease: false, paths: [], claims }, `released session ${short(holder)}'s claims on ${claims.join(' ')}\n`);
    }
    const r = releaseSession(repo, known, repo.worktree);
    const lease = r.lease ? 'lease removed' : 'it held no lease here';
    const paths = r.paths.length ? `its claims on ${r.paths.length} path${r.paths.length === 1 ? '' : 's'} dropped` : 'it had no claims on paths';
    const claimed = claims.length ? `; its claims on ${claims.join(' ')} released` : '';
    answer(a.json, { ...r, claims }, [`released session ${short(known)} in ${r.worktree}: ${lease}; ${paths}${claimed}`]);
  },
});

/** The one session holding claims on the branch whose id is `id` or starts with it (8 characters or more); else `id`. */
function claimHolder(repo: Repo, id: string, branch: string | null): string {
  if (branch === null || id.length < MIN_PREFIX) return id;
  const holders = [...new Set(listClaims(repo, { branch }).claims.map((c) => c.session).filter((s) => s.startsWith(id)))];
  return holders.length === 1 ? holders[0] : id;
}
