// Claims (SPEC 10): a session says which paths it is about to change; a claim overlapping another live session's is
// refused (exit 3) naming the holder. Every change is a compare-and-swap of refs/claims/<B>, on the handoff remote
// first (push --force-with-lease) when there is one; offline, here, published at the next sync by a three-way merge.
import { HandoffError } from '../../errors';
import type { Config, Storage } from '../../git/storage';
import { setting } from '../../config-keys';
import { hostLimit, pushRefusal, transientTransport } from '../../git/messages';
import { handoffRemoteOf } from '../../git/config-values';
import { parseTrailerLines } from '../store/document';
import { branchPrefix, decodeBranch } from '../store/names';
import { relativeTime } from '../store/time';
import { moveRef } from '../store/tx';
import { upgradeTracking } from '../store/tx/migrate';
import { AGAIN, CLAIMS_CROWD, CONTENDED, hostLimited, LOST, retryingAsync, TRANSIENT, untilWonAsync, type Wait } from '../../retry';
import type { ClientProcess } from '../state/session-process';
import { short, type SessionRef } from '../state/session';
import { judgeExpiry, judging, saveSightings, writeMarker } from '../state/claims-marker';
import { isKnownSession } from '../state/lineage-record';
import { leaveNote } from '../state/notes';
import { claimsMovedOutside, noteClaimsMove } from './outside';
import { overlapping } from './overlap';
import {
  CLAIMS_PREFIX, claimsRef, commitTable, EMPTY, mergeTables, readTable, trackingClaimsPrefix, trackingClaimsRef, type ChangeMessage, type ClaimConflict, type Lost, type Table,
} from './table';
import { claimLive, claimNotes, expiresOf, renewDue, when, type Claim, type ClaimView } from '../state/claims-marker';
import { shellWord } from '../../terminal-text';

export type { ClaimView } from '../state/claims-marker';

/** A claim's lifetime when `claim` is given no --ttl: handoff.claimTTL, within handoff.claimMaxTTL. */
export const claimTtlMs = (c: Config) => Math.min(setting(c, 'claimTTL'), setting(c, 'claimMaxTTL'));

/** A --ttl over handoff.claimMaxTTL is exit 2, nothing claimed (SPEC 10). */
export function assertTtl(ttlMs: number, config: Config, given: string): void {
  const max = setting(config, 'claimMaxTTL');
  if (ttlMs <= max) return;
  const h = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${Math.round(ms / 60_000)}m`);
  throw new HandoffError(
    'usage',
    'ttl-too-long',
    `--ttl ${given} is longer than the longest a claim may last, handoff.claimMaxTTL (${h(max)}): ` +
      `claim for at most ${h(max)} (a live holder's activity renews it), or raise the bound in every clone (\`git config handoff.claimMaxTTL <duration>\`); nothing was claimed`,
    { ttlMs, maxMs: max },
  );
}
/** How long a claim's network step may take before the claim counts as offline. */
const NET_MS = 20_000;

/** Why a network step failed: no answer in time, or the remote's words. */
const netReason = (r: { stderr: string; timedOut: boolean }) => (r.timedOut ? `no answer within ${NET_MS / 1000} s` : pushRefusal(r.stderr));

/** Whether a failed network step is worth another try: a transport cut, a lock of the tracking ref, a host's rate limit. */
function retried(r: { stderr: string; timedOut: boolean }, wait: Wait, config: Config): boolean {
  if (r.timedOut) return false;
  if (hostLimit(r.stderr) === 'rate') return wait(hostLimited(setting(config, 'hostWait')));
  if (/cannot lock ref|unable to update local ref|Unable to create .*\.lock/i.test(r.stderr) && !/\[remote rejected\]/.test(r.stderr)) return wait(CONTENDED);
  return transientTransport(r.stderr) && wait(TRANSIENT);
}

/** The handoff remote for claims; null (claims stay local) when there is none, with why. */
export function claimsRemote(repo: Storage, config: Config): { remote: string | null; why: string | null } {
  const names = repo.remoteNames();
  const pick = handoffRemoteOf(config, names);
  if (pick && names.includes(pick)) return { remote: pick, why: null };
  return { remote: null, why: pick ? `handoff.remote names "${pick}", which is not a remote` : names.length ? `several remotes (${names.join(', ')}) and no handoff.remote` : 'no remote' };
}

export type Published = { where: 'remote'; remote: string } | { where: 'offline'; remote: string; reason: string } | { where: 'local'; reason: string };

export interface ChangeResult<R> {
  result: R;
  oid: string;
  published: Published;
  /** offline claims of this clone that lost to published ones while this change was published */
  lost: Lost;
  /** this clone's claims tables changed outside git-handoff since it last moved them (outside.ts), said once */
  outside?: string[];
}

/** A change of the table: from its live claims now to the next table and its message. */
type Mutation<R> = (table: Table, nowMs: number) => { table: Table; message: ChangeMessage; result: R } | { unchanged: R };

/** `git fetch` of one branch's claims table into the tracking ref (none on the remote is no failure). */
async function fetchTable(repo: Storage, remote: string, branch: string, config: Config): Promise<{ ok: true } | { ok: false; reason: string }> {
  return retryingAsync(async (wait) => {
    const r = await repo.fetchBounded(remote, [`+${claimsRef(branch)}:${trackingClaimsRef(remote, branch)}`], NET_MS);
    if (r.status === 0 || /couldn't find remote ref/i.test(r.stderr)) return { ok: true };
    if (retried(r, wait, config)) return AGAIN;
    return { ok: false, reason: netReason(r) };
  });
}

type PushOutcome = { ok: true } | { ok: false; stale: true } | { ok: false; stale: false; reason: string; answered: boolean };

/** The compare-and-swap on the remote: `git push --atomic --force-with-lease=<ref>:<expected> <remote> <oid>:<ref>`. */
async function pushTable(repo: Storage, remote: string, branch: string, oid: string, expected: string | null, config: Config): Promise<PushOutcome> {
  const ref = claimsRef(branch);
  let atomic = true;
  return retryingAsync<PushOutcome>(async (wait) => {
    const r = await repo.pushBounded(remote, { oid, ref, expected, atomic }, NET_MS);
    if (r.status === 0) return { ok: true };
    // the same push again: had a cut one landed, this one finds the lease stale, and the caller reads it back
    if (retried(r, wait, config)) return AGAIN;
    // a single ref: without --atomic the push is the same compare-and-swap
    if (atomic && /does not support --atomic|atomic push/i.test(r.stderr) && !/stale info/.test(r.stderr)) {
      atomic = false;
      return AGAIN;
    }
    if (/stale info|\[rejected\]|fetch first|non-fast-forward|failed to lock|cannot lock ref|incorrect old value|reference already exists/i.test(r.stderr)) return { ok: false, stale: true };
    // a refusal the host answered (a hook, its rights, a limit it kept past hostWait) is no offline: nothing is claimed
    const answered = /\[remote rejected\]|pre-receive hook declined|hook declined/i.test(r.stderr) || hostLimit(r.stderr) !== null;
    return { ok: false, stale: false, reason: netReason(r), answered };
  });
}

/**
 * Applies `mutate` by compare-and-swap until it wins or refuses: on the remote first when there is one (the table
 * the remote had, with this clone's unpublished changes merged in), then here; offline, here alone.
 */
export async function changeClaims<R>(repo: Storage, branch: string, session: string, mutate: Mutation<R>, o: { config?: Config; remote?: string | null; offline?: boolean } = {}): Promise<ChangeResult<R>> {
  const config = o.config ?? repo.config();
  const picked = o.remote !== undefined ? { remote: o.remote, why: o.remote ? null : 'no remote' } : claimsRemote(repo, config);
  if (picked.remote && !o.offline) upgradeTracking(repo, true);
  judgeExpiry(repo.commonDir, setting(config, 'claimMaxTTL'));
  const outside = claimsMovedOutside(repo);
  let remote = o.offline ? null : picked.remote;
  let published: Published = picked.remote && o.offline ? { where: 'offline', remote: picked.remote, reason: 'asked to stay offline' } : { where: 'local', reason: picked.why ?? 'no remote' };
  const local = claimsRef(branch);
  let fetched = false;
  const goOffline = (reason: string): typeof AGAIN => {
    published = { where: 'offline', remote: remote!, reason };
    remote = null;
    return AGAIN;
  };
  try {
    // another writer won the compare-and-swap: read again, decide again (a claim that now overlaps a live one is refused)
    const won = await untilWonAsync<ChangeResult<R>>(async () => {
      const now = Date.now();
      const L = repo.readRef(local);
      if (remote) {
        const tracking = trackingClaimsRef(remote, branch);
        const T = repo.readRef(tracking);
        let base: Table = readTable(repo, T);
        let lost: Lost = [];
        // this clone's table when the remote's does not hold it: a parent of the next one too, so the local ref only
        // ever moves forward (a move that does not is someone else's: outside.ts)
        let aside: string | null = null;
        if (L && L !== T) {
          const mb = T ? repo.mergeBase(L, T) : null;
          if (mb !== L) {
            aside = L;
            ({ table: base, lost } = mergeTables(mb ? readTable(repo, mb) : EMPTY, readTable(repo, L), base, now));
          }
        }
        const step = mutate(base, now);
        const unchanged = 'unchanged' in step;
        // nothing to publish only when the remote's table holds this clone's already
        if (unchanged && lost.length === 0 && aside === null) return { result: step.unchanged, oid: T ?? L ?? '', published: { where: 'remote', remote }, lost };
        const next = unchanged ? { table: base, message: { branch, session, action: 'publish' as const, paths: [] } } : step;
        const oid = commitTable(repo, next.table, T ? [T, ...(aside ? [aside] : [])] : L ? [L] : [], next.message, config);
        const pushed = await pushTable(repo, remote, branch, oid, T, config);
        if (pushed.ok) {
          moveRef(repo, tracking, oid, T, 'handoff claim: pushed');
          if (L !== oid && moveRef(repo, local, oid, L, 'handoff claim').ok) noteClaimsMove(repo, local, oid);
          return { result: unchanged ? step.unchanged : step.result, oid, published: { where: 'remote', remote }, lost };
        }
        if (pushed.stale || !fetched) {
          const f = await fetchTable(repo, remote, branch, config);
          if (f.ok) {
            fetched = true;
            return pushed.stale ? LOST : AGAIN;
          }
          if (pushed.stale) throw new HandoffError('environment', 'remote-unreachable', `the claims table on ${remote} moved and could not be fetched again (${f.reason}); nothing was claimed here either`, { remote });
          return goOffline(f.reason);
        }
        if (pushed.answered) {
          const what = unchanged ? `this clone's claims stay unpublished (local only)` : 'nothing was claimed';
          const way = hostLimit(pushed.reason) ? '' : `. A host that takes only branches and tags (or grants no right on refs/claims/…) cannot hold claims: keep them on a coordination remote that takes custom refs (\`git config handoff.remote <remote>\`, docs/hosting.md)`;
          throw new HandoffError('environment', 'push-failed', `${remote} refused the claims table: ${pushed.reason}; ${what}${way}`, { remote, reason: pushed.reason });
        }
        return goOffline(pushed.reason);
      }
      const step = mutate(readTable(repo, L), now);
      if ('unchanged' in step) return { result: step.unchanged, oid: L ?? '', published, lost: [] };
      const oid = commitTable(repo, step.table, L ? [L] : [], step.message, config);
      if (!moveRef(repo, local, oid, L, 'handoff claim').ok) return LOST;
      noteClaimsMove(repo, local, oid);
      return { result: step.result, oid, published, lost: [] };
    }, {
      policy: CLAIMS_CROWD,
      gaveUp: (attempts) => new HandoffError('concurrent', 'claims-busy', `the claims table of ${branch} kept changing under ${attempts} attempts; run it again`, { branch }),
    });
    return { ...won, outside };
  } finally {
    // the state file the guard stats follows every change (and every fetch a refusal made)
    refreshMarker(repo, { remote: picked.remote });
    saveSightings();
  }
}

// ---- claim and release -----------------------------------------------------------------------------------------

interface ClaimRequest {
  branch: string;
  session: SessionRef;
  specs: string[];
  note: string | null;
  ttlMs: number;
  takeover: { reason: string } | null;
  process: ClientProcess | null;
  worktree: string | null;
  topic: string | null;
}

/** The refusal of a claim overlapping live claims of other sessions (exit 3): who holds what, since when, why, and the ways on. */
function claimedError(specs: string[], holders: Claim[], me: string, nowMs: number): HandoffError {
  const ids = holders.map((h) => h.session);
  const lines = holders.map((h) => {
    const pairs = overlapping(specs, h.paths).map(([m, t]) => (m === t ? m : `${m} ↔ ${t}`));
    const since = new Date(h.since * 1000).toISOString();
    return `  ${pairs.join(', ')}: claimed by session ${short(h.session, ids)} since ${since} (${relativeTime(since, nowMs)})` +
      `, until ${new Date(h.expires * 1000).toISOString()}${claimNotes(h)}${h.host ? `; on ${h.host}` : ''}`;
  });
  return new HandoffError(
    'owned',
    'claimed',
    `already claimed by another live session (you are session ${me}):\n${lines.join('\n')}\n` +
      `Ways on: work on other paths, wait for its release (\`git handoff claims\` shows it), or take its whole claim over on the record: ` +
      `git handoff claim ${specs.map(shellWord).join(' ')} --take-over --reason "<why>"`,
    { holders: holders.map(publicClaim) },
  );
}

/** A claim as `--json` prints it (times ISO 8601). */
export const publicClaim = (c: Claim) => ({ ...c, since: new Date(c.since * 1000).toISOString(), expires: new Date(c.expires * 1000).toISOString() });

export const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\0') === [...b].sort().join('\0');

/** Claims `specs` for the session (or renews its claim on exactly these), refusing (exit 3) over another live session's. */
export function claimMutation(q: ClaimRequest): Mutation<{ claim: Claim; renewed: boolean; takenFrom: Claim[] }> {
  return (table, nowMs) => {
    const me = q.session.id;
    const live = table.claims.filter((c) => claimLive(c, nowMs));
    const holders = live.filter((c) => c.session !== me && overlapping(q.specs, c.paths).length > 0);
    if (holders.length && !q.takeover) throw claimedError(q.specs, holders, me, nowMs);
    const rest = live.filter((c) => !holders.includes(c));
    // a takeover takes each holder's whole claim, so no path of theirs is left unclaimed
    const specs = holders.length ? [...new Set([...q.specs, ...holders.flatMap((h) => h.paths)])] : q.specs;
    const nowS = Math.floor(nowMs / 1000);
    const expires = Math.floor((nowMs + q.ttlMs) / 1000);
    const renewal = { expires, ttl: Math.max(1, Math.round(q.ttlMs / 1000)) };
    // the session's claim on exactly these paths, live or run out but still in the table: renewed in place (id and since kept)
    const own = rest.find((c) => c.session === me && sameSet(c.paths, specs)) ?? table.claims.find((c) => c.session === me && sameSet(c.paths, specs) && !claimLive(c, nowMs));
    const claim: Claim = own
      ? { ...own, ...renewal, note: q.note ?? own.note, pid: q.process?.pid ?? own.pid, pidStart: q.process?.start ?? own.pidStart, host: q.process?.host ?? own.host }
      : {
          id: `${me}@${nowS}.${Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0')}`,
          session: me,
          client: q.session.client,
          paths: specs,
          note: q.note,
          since: nowS,
          ...renewal,
          pid: q.process?.pid ?? null,
          pidStart: q.process?.start ?? null,
          host: q.process?.host ?? null,
          topic: q.topic,
          worktree: q.worktree,
        };
    const claims = own && rest.includes(own) ? rest.map((c) => (c === own ? claim : c)) : [...rest, claim];
    return {
      table: { claims, conflicts: table.conflicts },
      message: { branch: q.branch, session: me, action: holders.length ? 'take-over' : own ? 'renew' : 'claim', paths: specs, note: claim.note, expires, takeoverFrom: [...new Set(holders.map((h) => h.session))], reason: q.takeover?.reason ?? null },
      result: { claim, renewed: !!own, takenFrom: holders },
    };
  };
}

/** Whether `release <spec>` gives back the claimed path `p`: the spec names it, or `p` lies inside it. */
const releases = (spec: string, p: string) => spec === p || (spec.endsWith('/') && p.startsWith(spec));

/** Releases the session's claims (those specs only, when given). */
export function releaseMutation(branch: string, session: string, specs: string[] | null): Mutation<{ released: Array<{ id: string; paths: string[] }> }> {
  return (table, nowMs) => {
    const live = table.claims.filter((c) => claimLive(c, nowMs));
    const released: Array<{ id: string; paths: string[] }> = [];
    const claims: Claim[] = [];
    for (const c of live) {
      if (c.session !== session) {
        claims.push(c);
        continue;
      }
      const drop = specs ? c.paths.filter((p) => specs.some((s) => releases(s, p))) : c.paths;
      if (drop.length) released.push({ id: c.id, paths: drop });
      const keep = c.paths.filter((p) => !drop.includes(p));
      if (keep.length) claims.push({ ...c, paths: keep });
    }
    const unmatched = (specs ?? []).filter((s) => !released.some((r) => r.paths.some((p) => releases(s, p))));
    if (unmatched.length) {
      const mine = live.filter((c) => c.session === session).flatMap((c) => c.paths);
      throw new HandoffError('usage', 'not-claimed', `you hold no claim on ${unmatched.join(', ')} on ${branch}; ${mine.length ? `your claims: ${mine.join(', ')}` : 'you hold no claims on this branch'}; nothing was released`, { unmatched, claims: mine });
    }
    if (released.length === 0 && claims.length === table.claims.length) return { unchanged: { released } };
    return { table: { claims, conflicts: table.conflicts }, message: { branch, session, action: 'release', paths: released.flatMap((r) => r.paths) }, result: { released } };
  };
}

/** Renews the session's live claims on the branch that are due: each gets its lifetime again. */
export function renewMutation(branch: string, session: string): Mutation<string[]> {
  return (table, nowMs) => {
    const live = table.claims.filter((c) => claimLive(c, nowMs));
    const due = live.filter((c) => c.session === session && renewDue(c, nowMs));
    if (due.length === 0) return { unchanged: [] };
    const claims = live.map((c) => (due.includes(c) ? { ...c, expires: Math.floor(nowMs / 1000) + c.ttl } : c));
    const paths = due.flatMap((c) => c.paths);
    return { table: { claims, conflicts: table.conflicts }, message: { branch, session, action: 'renew', paths, expires: Math.max(...claims.filter((c) => due.some((d) => d.id === c.id)).map((c) => c.expires)) }, result: paths };
  };
}

// ---- reading ---------------------------------------------------------------------------------------------------

/** Whether this clone's table is one the remote's, as last fetched, has moved past (the remote's is the merge then). */
export const behindRemote = (repo: Storage, local: string, theirs: string | null | undefined): boolean => !!theirs && theirs !== local && repo.isAncestor(local, theirs);

/** The branch a claims ref under `prefix` stands for. */
export const branchOfTable = (ref: string, prefix: string) => decodeBranch(ref.slice(prefix.length)) ?? ref.slice(prefix.length);

/** Every branch's claims tables: this clone's and, with a remote, the copies of that remote's. */
export const claimsPatterns = (remote: string | null): string[] => [CLAIMS_PREFIX, ...(remote ? [trackingClaimsPrefix(remote)] : [])];

/** Every live claim of the branches whose tables this clone has (here and the remote's tracking copies). */
export function listClaims(repo: Storage, o: { branch?: string | null; nowMs?: number; remote?: string | null; config?: Config } = {}): { claims: ClaimView[]; conflicts: Array<ClaimConflict & { branch: string }>; outside: string[] } {
  const nowMs = o.nowMs ?? Date.now();
  // a command's read (config given) also says what changed outside git-handoff, and judges expiry as this clone does
  if (o.config) judgeExpiry(repo.commonDir, setting(o.config, 'claimMaxTTL'));
  const outside = o.config ? claimsMovedOutside(repo) : [];
  const patterns = o.branch ? [claimsRef(o.branch), ...(o.remote ? [trackingClaimsRef(o.remote, o.branch)] : [])] : claimsPatterns(o.remote ?? null);
  const byId = new Map<string, ClaimView>();
  const conflicts = new Map<string, ClaimConflict & { branch: string }>();
  const refs = repo.listRefs(patterns).map((r) => {
    const isLocal = r.ref.startsWith(CLAIMS_PREFIX);
    return { ...r, isLocal, branch: branchOfTable(r.ref, isLocal ? CLAIMS_PREFIX : trackingClaimsPrefix(o.remote!)) };
  });
  const remoteTip = new Map(refs.filter((r) => !r.isLocal).map((r) => [r.branch, r.oid]));
  for (const { oid, isLocal, branch } of refs) {
    if (isLocal && behindRemote(repo, oid, remoteTip.get(branch))) continue;
    const t = readTable(repo, oid);
    for (const raw of t.claims) {
      if (!claimLive(raw, nowMs)) continue;
      // the expiry as this clone judges it: what `claims` shows and the guard's state file holds
      const c = { ...raw, expires: expiresOf(raw) };
      const had = byId.get(c.id);
      const where = isLocal ? 'local' : 'remote';
      byId.set(c.id, had ? { ...(had.expires >= c.expires ? had : { ...c, branch }), where: 'both' } : { ...c, branch, where });
    }
    for (const c of t.conflicts) conflicts.set(c.id, { ...c, branch });
  }
  if (o.config) saveSightings();
  return { claims: [...byId.values()].sort((a, b) => a.since - b.since), conflicts: [...conflicts.values()], outside };
}

/** Writes the claims state file from the refs; a failure costs only the telling (optional state, SPEC 4). */
export function refreshMarker(repo: Storage, known?: { remote: string | null }): void {
  try {
    if (!judging(repo.commonDir)) judgeExpiry(repo.commonDir, setting(repo.config(), 'claimMaxTTL'));
    const { claims } = listClaims(repo, { remote: known ? known.remote : claimsRemote(repo, repo.config()).remote });
    writeMarker(repo.commonDir, claims);
    saveSightings();
  } catch {}
}

/** The newest handoff the session owns on the branch (the topic a refusal names). */
export function topicOf(repo: Storage, branch: string, session: string): string | null {
  const prefix = branchPrefix(branch);
  const mine = repo.listRefs([prefix]).filter((r) => parseTrailerLines(r.trailers).session === session).sort((a, b) => b.time - a.time);
  return mine[0] ? mine[0].ref.slice(prefix.length) : null;
}

/**
 * The holder of a claim taken over hears of it at its next tool call and session start, when this clone's guard has
 * seen it (`atS`: when, unix seconds; `asked`: what the taker named, when known): who took its whole claim, and why.
 */
export function tellClaimTaken(repo: Storage, held: Claim, by: { id: string; client: string | null }, branch: string, reason: string | null, holds: string[], atS: number, asked?: string[]): void {
  if (held.session === by.id || !isKnownSession(repo.commonDir, held.session)) return;
  const text =
    `git-handoff: session ${by.id}${by.client ? ` (${by.client})` : ''} took over your claim on ${held.paths.join(' ')} (branch ${branch}) at ${when(atS)}${reason ? `: ${JSON.stringify(reason)}` : ''}; ` +
    `it holds ${holds.join(' ')} now${asked ? ` (asked: ${asked.join(' ')})` : ''}, your whole claim with it, and your writes there are refused while its claim lives. ` +
    `\`git handoff claims\` shows it; ask that session, or work on other paths.`;
  leaveNote(repo.commonDir, held.session, { kind: 'claim-taken', key: `claim-taken ${held.id} ${by.id}`, text });
}
