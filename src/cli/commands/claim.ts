// `git handoff claim <path|glob>…` and `git handoff claims`: a session says which paths it is about to change
// (SPEC 10); `release <path>…` (sessions.ts) gives them back.
import { HandoffError } from '../../errors';
import { readConfig } from '../../git/config';
import { parseDuration, setting } from '../../config-keys';
import { openRepo, type Repo } from '../../git/repo';
import { branchPrefix, LEASE_PREFIX } from '../../handoff/store/names';
import { assertTtl, claimMutation, changeClaims, claimsRemote, claimTtlMs, listClaims, publicClaim, releaseMutation, tellClaimTaken, topicOf, type Published } from '../../handoff/claims/claims';
import { normalizeSpec } from '../../handoff/claims/overlap';
import { claimsRef } from '../../handoff/claims/table';
import { readLease } from '../../handoff/store/leases';
import { describeProcess, readSessionProcesses, type ClientProcess } from '../../handoff/state/session-process';
import { requireSession, short } from '../../handoff/state/session';
import { resolveBranch } from '../../handoff/store/store';
import { command } from '../context';
import { answer, printJson, table, warn } from '../output';
import { ALL, BRANCH, CLAIM_SPEC, withOptions, withSpec } from '../spec';
import { onlyOwnSession } from '../person-only';
import { statOr } from '../../read-file';

/** The paths given, as repository-relative specs (exit 2 for one outside the worktree). */
function specsOf(repo: Repo, paths: string[]): string[] {
  if (!repo.worktree) throw new HandoffError('usage', 'no-worktree', 'a bare repository has no files to claim; run it inside a worktree');
  return [...new Set(paths.map((p) => normalizeSpec(String(p), process.cwd(), repo.worktree!, (abs) => !!statOr(abs)?.isDirectory())))];
}

/**
 * The claiming session's client process, so the claim ends when it is gone: its lease here, else the process the
 * guard recorded for it, else CLAUDE_PID when it names an ancestor (SPEC 3). None: the claim lives to its expiry.
 */
function holderProcess(repo: Repo, session: string): ClientProcess | null {
  const lease = repo.worktree ? readLease(repo, repo.worktree) : null;
  if (lease && lease.session === session && lease.pid) return { pid: lease.pid, start: lease.pidStart, host: lease.host ?? describeProcess(lease.pid).host };
  const recorded = readSessionProcesses(repo.commonDir).get(session);
  if (recorded) return recorded;
  const { clientPid } = require('../../guard/lineage') as typeof import('../../guard/lineage');
  const pid = clientPid(null, process.env);
  return pid ? describeProcess(pid) : null;
}

/** What the answer says about where the change went. */
function publishedLine(p: Published): string {
  if (p.where === 'remote') return `published to ${p.remote}`;
  if (p.where === 'offline') return `local only: ${p.remote} was not reached (${p.reason}); it is published at the next \`git handoff sync\` (or claim), where a conflict is reported to both sides`;
  return `local only (${p.reason}: no handoff remote to publish to)`;
}

/** What a claim does to other sessions' writes, as this repository is configured (SPEC 10). */
const claimsEnforcedLine = (enforced: boolean) =>
  enforced
    ? "enforced: another session's write to a claimed path (file tool or shell) is refused, naming the holder, who is told (`git config handoff.claims tell` makes claims advisory)"
    : "advisory (handoff.claims=tell): another session's write to a claimed path is told who holds it, not refused (`git config --unset handoff.claims` enforces them)";

export const claimCommand = command({
  command: 'claim <paths..>',
  describe: "say which paths (files, directories, globs) this session is about to change: other sessions' writes there are refused while the claim lives (handoff.claims=tell: told instead), and a second claim of them is refused (exit 3) naming the holder",
  builder: (y) =>
    withSpec(y, CLAIM_SPEC)
      .example('$0 claim src/auth/ --note "moving login to OAuth" --ttl 1h', 'claim a directory for an hour')
      .example('$0 claim src/auth/login.ts --take-over --reason "its session is gone for the day"', "take another session's claim over, on the record (its session is told)")
      .epilog(
        "Claims are enforced: while a claim lives, another session's write to a claimed path by a file tool or the shell is refused by the " +
          'guard (and a commit of it by pre-commit), naming the holder, its note, its handoff, until when, and the ways on; the holder ' +
          'is told at its next tool call. `git config handoff.claims tell` makes them advisory in a repository: such a write is told who ' +
          "claims it and goes on. A claim lives until --ttl (handoff.claimTTL, else 2h; renewed by the holder's own writes), `git handoff " +
          "release`, or its session's end; `git handoff claims` lists them.",
      ),
  handler: async (a) => {
    const session = requireSession(a.session);
    onlyOwnSession('claim', session.id);
    if (a['take-over'] && !a.reason?.trim()) throw new HandoffError('usage', 'reason-required', '--take-over needs --reason "<why>": the takeover is kept in the claims history');
    const repo = openRepo();
    const config = readConfig(repo);
    const branch = resolveBranch(repo, a.branch);
    const specs = specsOf(repo, a.paths);
    const ttlMs = a.ttl !== undefined ? parseDuration(a.ttl, NaN) : claimTtlMs(config);
    if (!(ttlMs > 0)) throw new HandoffError('usage', 'invalid-ttl', `invalid --ttl ${JSON.stringify(a.ttl)}: a duration such as 30m, 2h or 1d`);
    if (a.ttl !== undefined) assertTtl(ttlMs, config, a.ttl);
    // the leases (whose process holds the claim), the branch's handoffs (the topic it names) and its claims table, in one listing
    repo.keepRefs([LEASE_PREFIX, branchPrefix(branch), claimsRef(branch)]);
    const r = await changeClaims(
      repo,
      branch,
      session.id,
      claimMutation({
        branch,
        session,
        specs,
        note: a.note?.trim() || null,
        ttlMs,
        takeover: a['take-over'] ? { reason: a.reason!.trim() } : null,
        process: holderProcess(repo, session.id),
        worktree: repo.worktree,
        topic: topicOf(repo, branch, session.id),
      }),
      { config, offline: !!a.offline },
    );
    for (const h of r.result.takenFrom) tellClaimTaken(repo, h, { id: session.id, client: session.client }, branch, a.reason!.trim(), r.result.claim.paths, Math.floor(Date.now() / 1000), specs);
    if (a.json) return printJson({ ...publicClaim(r.result.claim), branch, enforced: setting(config, 'claims') !== 'tell', renewed: r.result.renewed, takenFrom: r.result.takenFrom.map(publicClaim), published: r.published, oid: r.oid, conflicts: r.lost.map((l) => ({ claim: publicClaim(l.claim), holder: publicClaim(l.holder) })) });
    (r.outside ?? []).forEach(warn);
    for (const { claim, holder } of r.lost) process.stderr.write(`conflict: your offline claim on ${claim.paths.join(', ')} (session ${claim.session}) lost to session ${holder.session}'s on ${holder.paths.join(', ')}${holder.note ? ` (${JSON.stringify(holder.note)})` : ''}; it was dropped\n`);
    const c = r.result.claim;
    // a takeover takes the holders' whole claims: said with what was asked
    const taken = r.result.takenFrom.map((h) => `; took over session ${h.session}'s claim on ${h.paths.join(' ')} (asked: ${specs.join(' ')}), told at its next tool call (in another clone: once both have synced)`).join('');
    process.stdout.write(`${r.result.renewed ? 'renewed' : 'claimed'} ${c.paths.join(' ')} on ${branch} until ${new Date(c.expires * 1000).toISOString()}${taken}; ${publishedLine(r.published)}\n`);
    process.stdout.write(`${claimsEnforcedLine(setting(config, 'claims') !== 'tell')}\n`);
  },
});

export const claimsCommand = command({
  command: 'claims',
  describe: "the live claims on this branch (this clone's and the handoff remote's as last fetched): who, which paths, since, until, why",
  builder: (y) => withOptions(y, [ALL, BRANCH]).conflicts('all', 'branch'),
  handler: (a) => {
    const repo = openRepo();
    const config = readConfig(repo);
    const { remote } = claimsRemote(repo, config);
    const branch = a.all ? null : resolveBranch(repo, a.branch);
    const { claims, conflicts, outside } = listClaims(repo, { branch, remote, config });
    outside.forEach(warn);
    if (a.json) return printJson(claims.map((c) => ({ ...publicClaim(c), published: c.where !== 'local' })));
    // a conflict is told for a day after the sync that found it (the table keeps the last 50)
    const shown = conflicts.filter((c) => Date.now() - c.at * 1000 < 86_400_000);
    for (const c of shown.slice(-5)) process.stderr.write(`conflict at sync: session ${c.session}'s offline claim on ${c.paths.join(', ')} lost to session ${c.holder}'s on ${c.holderPaths.join(', ')}\n`);
    if (claims.length === 0) return void process.stdout.write(`no live claims${branch ? ` on ${branch}` : ''}\n`);
    const ids = claims.map((c) => c.session);
    const rows = claims.map((c) => [
      ...(branch ? [] : [c.branch]),
      short(c.session, ids),
      c.paths.join(' '),
      new Date(c.since * 1000).toISOString().slice(0, 16).replace('T', ' '),
      new Date(c.expires * 1000).toISOString().slice(0, 16).replace('T', ' '),
      c.where === 'local' ? (remote ? 'not published' : 'local') : c.where === 'remote' ? `${remote}` : 'published',
      c.note ?? '-',
    ]);
    process.stdout.write(`${table(rows, [...(branch ? [] : ['BRANCH']), 'SESSION', 'PATHS', 'SINCE', 'UNTIL', 'WHERE', 'NOTE'])}\n`);
    process.stdout.write(`claims are ${claimsEnforcedLine(setting(config, 'claims') !== 'tell')}\n`);
  },
});

/** `release <path>…`: the session's claims on those paths on the branch (or all of its claims on it, with no path). */
export async function releaseClaims(a: { paths?: string[]; session?: string; branch?: string; json?: boolean }): Promise<void> {
  const session = requireSession(a.session);
  onlyOwnSession('release', session.id);
  const repo = openRepo();
  const branch = resolveBranch(repo, a.branch);
  const specs = a.paths?.length ? specsOf(repo, a.paths) : null;
  const r = await changeClaims(repo, branch, session.id, releaseMutation(branch, session.id, specs));
  (r.outside ?? []).forEach(warn);
  const paths = r.result.released.flatMap((x) => x.paths);
  const text = paths.length ? `released ${paths.join(' ')} on ${branch}; ${publishedLine(r.published)}` : `session ${session.id} holds no claims on ${branch}: nothing to release`;
  answer(a.json, { branch, session: session.id, released: r.result.released, published: r.published }, [text]);
}
