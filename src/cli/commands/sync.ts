// `git handoff fetch | push | sync [R]`: carry handoffs over the remote the team already has (SPEC 7).
import { quote } from 'shell-quote';
import type { Argv } from 'yargs';
import { EXIT, HandoffError } from '../../errors';
import { parseRef } from '../../handoff/store/names';
import { MIN_FORMAT_KEY } from '../../handoff/store/format';
import { openRepo, type Repo } from '../../git/repo';
import { readConfig } from '../../git/config';
import { setting } from '../../config-keys';
import { resolveBranch } from '../../handoff/store/store';
import { fetchAndMerge, type FetchResult, type Sides } from '../../sync/fetch';
import { claimsRefspec } from '../../handoff/claims/table';
import { planScanPush, rejectionError, type PushResult } from '../../sync/push';
import { resolveRemote } from '../../sync/remote';
import { placeIdOf, recordRefspec } from '../../sync/record-remote';
import { noteSyncEnd, quietSince } from '../../sync/sync-seen';
import { scanResolve } from '../../sync/secrets-gate';
import { keepRefusedError, refusedOf, refusedState, restoreCommand, restoreRefused } from '../../sync/refused';
import { branchFlag, KEEPS, resolveDivergence, resolveStep } from '../../sync/resolve';
import { command, type GlobalArgs, writerOf } from '../context';
import { answer, endWith, type Problem, warn } from '../output';
import { BRANCH, PERSON, SESSION, withOptions } from '../spec';

const progressOf = (a: GlobalArgs) => (a.json || a.quiet || !process.stderr.isTTY ? undefined : (line: string) => process.stderr.write(`${line}…\n`));
const syncNext = (remote: string) => `next: \`git handoff sync ${remote}\` pushes it (a fast-forward for every clone)\n`;
/** `<branch>/<topic>[/<stamp>]` with the branch as people name it (feature/login, not feature%2Flogin). */
const label = (ref: string) => {
  const p = parseRef(ref);
  return p ? [p.branch ?? p.encodedBranch, p.topic, ...(p.stamp ? [p.stamp] : [])].join('/') : ref.split('/').slice(2).join('/');
};

function describeFetch(repo: Repo, r: FetchResult): string[] {
  const c = r.counts;
  const archived = r.handoffs.filter((h) => h.action === 'archived').length;
  const lines = [
    `fetched ${r.remote}: ${c.new} new, ${c['remote-ahead']} remote ahead, ${c['local-ahead']} local ahead, ${c.diverged} diverged, ${c.same} same` +
      (archived ? `, ${archived} archived` : '') +
      (r.receipts && !['none', 'same', 'local-ahead'].includes(r.receipts) ? `; read receipts ${r.receipts}` : ''),
  ];
  for (const h of r.handoffs) {
    if (h.action === 'created') lines.push(`  new           ${label(h.ref)} ${(h.remote ?? h.local ?? '').slice(0, 7)}`);
    else if (h.action === 'fast-forwarded') lines.push(`  fast-forward  ${label(h.ref)} ${h.local!.slice(0, 7)}..${h.remote!.slice(0, 7)}`);
    else if (h.action === 'archived') lines.push(`  archived      ${label(h.ref)} (archived on ${r.remote} as ${label(h.archivedAs!)})`);
    else if (h.action === 'refused')
      lines.push(`  refused       ${label(h.ref)}: ${h.message}${refusedOf([h]).length ? `; its owner restores it with \`${restoreCommand(h.topic, ` --branch ${quote([h.branch])}`, r.remote)}\`` : ''}`);
    else if (h.action === 'lost-race') lines.push(`  left as is    ${label(h.ref)}: ${h.message}`);
    else if (h.case === 'diverged')
      lines.push(
        `  diverged      ${label(h.ref)}: local ${h.local!.slice(0, 7)}, ${r.remote} ${h.remote!.slice(0, 7)}; nothing moved.` +
          ` See both with \`git handoff show ${h.topic} --branch ${quote([h.branch])}\`, then \`${resolveStep(repo, h.ref, h.local, null, r.remote)}\` (or --keep local, --keep remote)`,
      );
  }
  return lines;
}

function describePush(repo: Repo, r: PushResult): string[] {
  const pushed = r.updates.filter((u) => u.status === 'pushed');
  const batches = (r.batches ?? 0) > 1 ? ` in ${r.batches} pushes` : '';
  const lines = [`pushed ${pushed.length} handoff ref${pushed.length === 1 ? '' : 's'} to ${r.remote}${batches}${r.atomic ? '' : ' (the remote does not support atomic pushes: ref by ref)'}`];
  if (r.stopped) lines.push(`  not sent      ${r.stopped.left} ref${r.stopped.left === 1 ? '' : 's'}: ${r.remote} stopped the push (${r.stopped.reason})`);
  if (r.took !== undefined) lines.push(`  push size     ${r.remote} refused larger pushes whole and took ${r.took} ref${r.took === 1 ? '' : 's'} a push; \`git config handoff.pushBatch ${r.took}\` starts there`);
  for (const u of pushed) lines.push(`  ${u.kind.padEnd(13)} ${label(u.ref)}${u.newOid ? ` ${u.newOid.slice(0, 7)}` : ''}`);
  if (r.record?.status === 'pushed') lines.push(`  loss record   ${r.record.ref} ${r.record.newOid!.slice(0, 7)} (what \`git handoff recover --from ${r.remote}\` restores)`);
  for (const s of r.skipped) {
    lines.push(
      s.state === 'diverged'
        ? `  not pushed    ${label(s.ref)}: diverged from ${r.remote}; resolve with \`${resolveStep(repo, s.ref, s.local, null, r.remote)}\` (or --keep local, --keep remote)`
        : s.state === 'refused'
          ? `  not pushed    ${label(s.ref)}: refused: ${r.remote}'s version breaks the ownership invariant (${s.violation?.message}); its owner restores it with \`${restoreCommand(parseRef(s.ref)?.topic ?? '<topic>', '', r.remote)}\``
          : s.state === 'archived-there'
            ? `  not pushed    ${label(s.ref)}: archived on ${r.remote} at this very version by an entry that names nobody (a format-1 client), kept live here; \`git handoff archive ${parseRef(s.ref)?.topic ?? '<topic>'}\` archives it here too, or \`git config ${MIN_FORMAT_KEY} 1\` takes such archives (SPEC 2)`
            : `  not pushed    ${label(s.ref)}: ${r.remote} is ahead; \`git handoff fetch\` brings it in`,
    );
  }
  return lines;
}

/** Diverged handoffs the push left out (SPEC 4: another writer got there first), and how to resolve each. */
function diverged(repo: Repo, r: PushResult): Problem {
  const left = r.skipped.filter((s) => s.state === 'diverged');
  if (left.length === 0) return;
  return {
    code: EXIT.concurrent,
    why:
      `${left.length} diverged handoff${left.length === 1 ? ' was' : 's were'} not pushed to ${r.remote} (exit 4): ` +
      left.map((s) => `\`${resolveStep(repo, s.ref, s.local, repo.branch, r.remote)}\``).join(', ') +
      ' (or --keep local, --keep remote), then sync again',
  };
}

/**
 * The loss record the remote refused (a host's hook or rights on refs/handoff-records/*): the handoffs went, so the
 * exit code stays theirs; said every sync until it goes (`--json`: `push.record.status` "rejected").
 */
function recordRefused(r: PushResult): Problem {
  if (r.record?.status !== 'rejected') return;
  return {
    code: EXIT.ok,
    why:
      `warning: the loss record was not published to ${r.remote} (${r.record.ref}: ${r.record.reason}); the handoffs went. ` +
      `\`git handoff recover --from ${r.remote}\` cannot rebuild this clone from there until it is (the record outside .git still keeps it on this machine)`,
  };
}

/** A push the host's limits stopped partway (SPEC 7): what went is in, the rest goes with the next sync; the host's own words and the way on. */
function stopped(r: PushResult): Problem {
  const s = r.stopped;
  if (!s) return;
  const how = s.limit === 'rate' ? `${r.remote} limits how often it takes a push, and it still did after handoff.hostWait` : `${r.remote} refuses a push even of one ref for its size`;
  return {
    code: EXIT.environment,
    why:
      `${how}: ${s.reason}\n${s.sent} ref${s.sent === 1 ? '' : 's'} went, ${s.left} did not (exit 7); \`git handoff sync ${r.remote}\` continues where it stopped` +
      (s.limit === 'rate' ? ' (in a few minutes; a coordination remote of its own, handoff.remote, has a push budget of its own: docs/hosting.md)' : ''),
  };
}

/** Claims this clone holds that did not reach the remote (SPEC 10: a claim is published or it is not a claim). */
const unpublished = (branches: string[], remote: string): Problem =>
  branches.length ? { code: EXIT.environment, why: `the claims of ${branches.join(', ')} were not published to ${remote} (exit 7): other clones cannot see them; \`git handoff sync\` tries again` } : undefined;

/** Fetched handoffs that could not be applied (changed locally meanwhile): exit 4, since exit 0 means they arrived. */
function lostRace(r: FetchResult): Problem {
  const lost = [...r.handoffs, ...r.archives].filter((x) => x.action === 'lost-race').map((x) => x.ref);
  if (lost.length === 0) return;
  return { code: EXIT.concurrent, why: `${lost.length} fetched handoff ref${lost.length === 1 ? ' was' : 's were'} changed locally while the fetch applied them and did not arrive (exit 4): ${lost.map(label).join(', ')}; run it again` };
}

/** Handoffs whose remote version this clone refuses (SPEC 7), with the owner's way on for each; every later fetch, push and sync says the same until it is taken. */
function refused(repo: Repo, handoffs: Array<{ ref: string }>, remote: string): Problem {
  if (handoffs.length === 0) return;
  return {
    code: EXIT.integrity,
    why:
      `${handoffs.length} handoff${handoffs.length === 1 ? '' : 's'} refused (exit 6): ${remote}'s version breaks the ownership invariant and is never taken; ` +
      `its owner writes a version on top that restores theirs: ` +
      handoffs.map(({ ref }) => `\`${restoreCommand(parseRef(ref)?.topic ?? '<topic>', branchFlag(ref, repo.branch), remote)}\``).join(', ') +
      `, then \`git handoff sync ${remote}\``,
  };
}

/** What the push left out: the refused handoffs, else the diverged ones. */
const leftOut = (repo: Repo, r: PushResult) => refused(repo, r.skipped.filter((s) => s.state === 'refused'), r.remote) ?? diverged(repo, r);

/** A sync after which the next one with nothing new may skip the merge and the push (src/sync/sync-seen.ts). */
const endedClean = (f: FetchResult, p: PushResult) =>
  f.counts.diverged === 0 &&
  f.handoffs.every((h) => h.action !== 'refused' && h.action !== 'lost-race') &&
  f.archives.every((x) => x.action !== 'lost-race') &&
  p.skipped.length === 0 &&
  p.rejected.length === 0 &&
  !p.stopped &&
  p.updates.every((u) => u.status === 'pushed' || u.status === 'up-to-date');

async function runPush(repo: Repo, remote: string, a: GlobalArgs, place?: string | null, sides?: Sides): Promise<PushResult> {
  const r = await planScanPush(repo, remote, { progress: progressOf(a), place, sides });
  if (r.rejected.length) throw rejectionError(r);
  return r;
}

const remoteArg = (y: Argv<GlobalArgs>) =>
  y.positional('remote', { type: 'string', describe: 'the remote (default: handoff.remote, else origin, else the only remote)' });

export const fetchCommand = command({
  command: 'fetch [remote]',
  describe: "fetch the remote's handoffs and merge each: new, same, local ahead, remote ahead (fast-forward), diverged",
  builder: (y) => remoteArg(y).example('$0 fetch origin --json', 'the case of each handoff as data'),
  handler: (a) => {
    const repo = openRepo();
    const r = fetchAndMerge(repo, resolveRemote(repo, a.remote), progressOf(a)).result;
    answer(a.json, r, describeFetch(repo, r));
    endWith(a.json, [refused(repo, refusedOf(r.handoffs), r.remote) ?? lostRace(r)]);
  },
});

export const pushCommand = command({
  command: 'push [remote]',
  describe: 'push every handoff this clone moved forward, in one push, fast-forwards only; exits 4 when a diverged one was left out',
  builder: (y) => remoteArg(y).example('$0 push', 'to handoff.remote, else origin'),
  handler: async (a) => {
    const repo = openRepo();
    const r = await runPush(repo, resolveRemote(repo, a.remote), a);
    answer(a.json, r, describePush(repo, r));
    endWith(a.json, [stopped(r), leftOut(repo, r)]);
  },
});

export const syncCommand = command({
  command: 'sync [remote]',
  describe: 'fetch, then push; exits 4 when a diverged handoff was left unpushed; with --resolve, merge a diverged handoff so the next push is a fast-forward',
  builder: (y) =>
    withOptions(remoteArg(y), [BRANCH, PERSON, SESSION])
      .option('resolve', { type: 'string', describe: 'a diverged handoff to merge, or a refused one to restore (its topic)' })
      .option('keep', { choices: KEEPS, describe: 'with --resolve: whose body the merge keeps (a refused handoff keeps local)' })
      .option('reason', { type: 'string', describe: 'with --resolve: kept in the history when a side is taken over' })
      .example('$0 sync', 'fetch, merge, push')
      .example('$0 sync --resolve auth-refactor --keep both', 'merge both versions into one'),
  handler: async (a) => {
    const repo = openRepo();
    const remote = resolveRemote(repo, a.remote);
    if (a.resolve !== undefined) {
      const branch = resolveBranch(repo, a.branch);
      const refused = refusedState(repo, branch, a.resolve, remote);
      if (refused) {
        if (a.keep && a.keep !== 'local') throw keepRefusedError(refused, a.resolve);
        const r = restoreRefused(repo, { topic: a.resolve, branch, remote, session: writerOf(repo, a), reason: a.reason }, refused);
        return answer(a.json, r, `${r.ref} ${r.oid.slice(0, 7)}: restored on top of ${remote}'s ${r.refused.slice(0, 7)}, which is refused (${r.violation.message})\n${syncNext(remote)}`);
      }
      if (!a.keep) throw new HandoffError('usage', 'keep-missing', '--resolve needs --keep local|remote|both');
      const o = { topic: a.resolve, branch, keep: a.keep, remote, session: writerOf(repo, a), reason: a.reason };
      const r = resolveDivergence(repo, { ...o, trailers: await scanResolve(repo, o) });
      return answer(a.json, r, `${r.ref} ${r.oid.slice(0, 7)}: merged ${r.parents[0].slice(0, 7)} and ${r.parents[1].slice(0, 7)}, keeping ${r.keep}\n${syncNext(remote)}`);
    }
    if (a.keep) throw new HandoffError('usage', 'keep-without-resolve', '--keep goes with --resolve <topic>');
    // every branch's claims table comes in the same one fetch as the handoffs (no second fetch for claims), and what
    // the remote holds of this clone's loss record, which the one push then publishes beside the handoffs (SPEC 9)
    const place = placeIdOf(repo);
    // what decides the merge and the plan besides the refs (a changed setting takes the whole way once)
    const config = readConfig(repo);
    const policy = [setting(config, 'archiveRetention') ?? '', setting(config, 'minFormat')].join(',');
    const quiet = quietSince(repo, remote, policy);
    let merged: ReturnType<typeof fetchAndMerge>;
    try {
      merged = fetchAndMerge(repo, remote, progressOf(a), [claimsRefspec(remote), ...(place ? [recordRefspec(remote, place)] : [])], place, quiet);
    } catch (e) {
      // the remote not reached: claims changed here stay unpublished, and sync says so (SPEC 10)
      if (e instanceof HandoffError && e.code === 'remote-unreachable') {
        const unreached = (await import('../../handoff/claims/sync')).unreachedClaims(repo, remote, `${remote} was not reached`);
        if (unreached.json.length) {
          e.data.claims = unreached.json;
          if (!a.json) for (const l of unreached.lines) process.stderr.write(`git-handoff: ${l}\n`);
        }
      }
      throw e;
    }
    const { result: fetched, sides } = merged;
    // sides null: nothing moved on either side since a sync that ended clean (src/sync/sync-seen.ts), nothing to push
    const pushed: PushResult = sides ? await runPush(repo, remote, a, place, sides) : { remote, atomic: true, updates: [], skipped: [], rejected: [], remoteMessages: [], batches: 0 };
    noteSyncEnd(repo, remote, policy, endedClean(fetched, pushed));
    // claims made offline are published now (a push only for a table changed offline); a claim that lost to a
    // published one is told here and to its holder (SPEC 10)
    const claims = await (await import('../../handoff/claims/sync')).syncClaimsReport(repo, remote, config);
    answer(a.json, { remote, fetch: fetched, push: pushed, claims: claims.json }, [...describeFetch(repo, fetched), ...describePush(repo, pushed), ...claims.lines]);
    claims.warnings.forEach(warn);
    endWith(a.json, [recordRefused(pushed), stopped(pushed), lostRace(fetched), leftOut(repo, pushed), unpublished(claims.unpublished, remote)]);
  },
});
