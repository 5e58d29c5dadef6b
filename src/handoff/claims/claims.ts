// Claims (SPEC 10): a session says which paths it is about to change; a claim overlapping another live session's is
// refused (exit 3) naming the holder. Every change is a compare-and-swap: of refs/claims/<B> here (tx), and with a
// handoff remote, of the remote's refs/claims/<B> by `git push --atomic --force-with-lease=<ref>:<expected>` before
// the command answers. Offline, the change is made here and published at the next sync (or claim) by a three-way
// merge of the tables, where an offline claim that lost to a published one is reported to both sides.
import { HandoffError } from '../../errors';
import type { Config, Storage } from '../../git/storage';
import { setting } from '../../config-keys';
import { hostLimit, pushRefusal, transientTransport } from '../../git/messages';
import { parseTrailerLines } from '../store/document';
import { branchPrefix, decodeBranch } from '../store/names';
import { commitRecord, moveRef } from '../store/tx';
import { upgradeTracking } from '../store/tx/migrate';
import { AGAIN, CLAIMS_CROWD, CONTENDED, hostLimited, LOST, retryingAsync, TRANSIENT, untilWonAsync, type Wait } from '../../retry';
import type { ClientProcess } from '../state/session-process';
import { short, type SessionRef } from '../state/session';
import { writeMarker } from '../state/claims-marker';
import { isKnownSession } from '../state/lineage-record';
import { leaveNote } from '../state/notes';
import { judgeExpiry, judging, saveSightings } from './expiry';
import { claimsMovedOutside, noteClaimsMove } from './outside';
import { overlapping } from './overlap';
import {
  changeMessage, CLAIMS_PREFIX, claimsRef, EMPTY, mergeTables, readClaimChange, readTable, rememberTable, tableTree, trackingClaimsPrefix, trackingClaimsRef, type ChangeMessage, type ClaimConflict, type Table,
} from './table';
import { claimLive, expiresOf, renewDue, type Claim, type ClaimView } from '../state/claims-marker';

export type { ClaimView } from '../state/claims-marker';

/** A claim's lifetime when `claim` is given no --ttl: handoff.claimTTL, within handoff.claimMaxTTL. */
export const claimTtlMs = (c: Config) => Math.min(setting(c, 'claimTTL'), setting(c, 'claimMaxTTL'));

/** A claim's lifetime is bounded (SPEC 10): a --ttl over handoff.claimMaxTTL is exit 2, nothing claimed. */
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

/**
 * Whether a failed network step is worth another try (after its wait, src/retry.ts): a transport cut in passing, a
 * lock of this clone's tracking ref, a host's rate limit (for handoff.hostWait). A spent policy lets the failure through.
 */
function retried(r: { stderr: string; timedOut: boolean }, wait: Wait, config: Config | undefined): boolean {
  if (r.timedOut) return false;
  if (hostLimit(r.stderr) === 'rate') return wait(hostLimited(config ? setting(config, 'hostWait') : 60_000));
  if (/cannot lock ref|unable to update local ref|Unable to create .*\.lock/i.test(r.stderr) && !/\[remote rejected\]/.test(r.stderr)) return wait(CONTENDED);
  return transientTransport(r.stderr) && wait(TRANSIENT);
}

/** The handoff remote for claims: `handoff.remote`, `origin`, or the only remote; null (claims stay local) otherwise. */
export function claimsRemote(repo: Storage, config: Config): { remote: string | null; why: string | null } {
  const names = repo.remoteNames();
  const set = setting(config, 'remote');
  if (set) return names.includes(set) ? { remote: set, why: null } : { remote: null, why: `handoff.remote names "${set}", which is not a remote` };
  if (names.includes('origin')) return { remote: 'origin', why: null };
  if (names.length === 1) return { remote: names[0], why: null };
  return { remote: null, why: names.length ? `several remotes (${names.join(', ')}) and no handoff.remote` : 'no remote' };
}

export type Published = { where: 'remote'; remote: string } | { where: 'offline'; remote: string; reason: string } | { where: 'local'; reason: string };

export interface ChangeResult<R> {
  result: R;
  oid: string;
  published: Published;
  /** offline claims of this clone that lost to published ones while this change was published */
  lost: Array<{ claim: Claim; holder: Claim }>;
  /** this clone's claims tables changed outside git-handoff since it last moved them (outside.ts), said once */
  outside?: string[];
}

/** A change of the table: from what is there now (live claims only, `now` given) to the next table and its message. */
export type Mutation<R> = (table: Table, nowMs: number) => { table: Table; message: ChangeMessage; result: R } | { unchanged: R };

const overlapsLive = (c: Claim, live: Claim[]) => live.find((x) => overlapping(c.paths, x.paths).length > 0) ?? null;

/** `git fetch` of one branch's claims table from the remote into the tracking ref; 'none' when the remote has none. */
async function fetchTable(repo: Storage, remote: string, branch: string, config?: Config): Promise<{ ok: true } | { ok: false; reason: string }> {
  const ref = claimsRef(branch);
  return retryingAsync(async (wait) => {
    const r = await repo.fetchBounded(remote, [`+${ref}:${trackingClaimsRef(remote, branch)}`], NET_MS);
    if (r.status === 0) return { ok: true };
    if (/couldn't find remote ref/i.test(r.stderr)) return { ok: true };
    // another session of this clone updating the same tracking ref at the same moment, a cut, a rate limit
    if (retried(r, wait, config)) return AGAIN;
    return { ok: false, reason: r.timedOut ? `no answer within ${NET_MS / 1000} s` : pushRefusal(r.stderr) };
  });
}

type PushOutcome = { ok: true } | { ok: false; stale: true } | { ok: false; stale: false; reason: string; answered: boolean };

/** The compare-and-swap on the remote: `git push --atomic --force-with-lease=<ref>:<expected> <remote> <oid>:<ref>`. */
async function pushTable(repo: Storage, remote: string, branch: string, oid: string, expected: string | null, config?: Config): Promise<PushOutcome> {
  const ref = claimsRef(branch);
  let atomic = true;
  return retryingAsync<PushOutcome>(async (wait) => {
    const r = await repo.pushBounded(remote, { oid, ref, expected, atomic }, NET_MS);
    if (r.status === 0) return { ok: true };
    // the same push again (a compare-and-swap: had a cut one landed, this one finds the lease stale, and the caller
    // reads it back); a host's rate limit is waited out for handoff.hostWait
    if (retried(r, wait, config)) return AGAIN;
    // a single ref: without --atomic the push is the same compare-and-swap
    if (atomic && /does not support --atomic|atomic push/i.test(r.stderr) && !/stale info/.test(r.stderr)) {
      atomic = false;
      return AGAIN;
    }
    if (/stale info|\[rejected\]|fetch first|non-fast-forward|failed to lock|cannot lock ref|incorrect old value|reference already exists/i.test(r.stderr)) return { ok: false, stale: true };
    // a refusal the host answered (a hook, its rights, a limit it kept past hostWait) is no offline: nothing is claimed
    const answered = /\[remote rejected\]|pre-receive hook declined|hook declined/i.test(r.stderr) || hostLimit(r.stderr) !== null;
    return { ok: false, stale: false, reason: r.timedOut ? `no answer within ${NET_MS / 1000} s` : pushRefusal(r.stderr), answered };
  });
}

/**
 * Applies `mutate` by compare-and-swap until it wins or refuses: on the remote first when there is one (the table
 * the remote had, with this clone's unpublished changes merged in), then here; offline, here alone.
 */
export async function changeClaims<R>(repo: Storage, branch: string, session: string, mutate: Mutation<R>, o: { config?: Config; remote?: string | null; offline?: boolean } = {}): Promise<ChangeResult<R>> {
  const config = o.config ?? repo.config();
  const picked = o.remote !== undefined ? { remote: o.remote, why: o.remote ? null : 'no remote' } : claimsRemote(repo, config);
  const remote = picked.remote;
  if (remote && !o.offline) upgradeTracking(repo, true);
  judgeExpiry(repo, config);
  const outside = claimsMovedOutside(repo);
  try {
    return { ...(await changeOnce(repo, branch, session, mutate, { ...o, config, remote, why: picked.why })), outside };
  } finally {
    // the state file the guard stats follows every change (and every fetch a refusal made)
    refreshMarker(repo, { remote });
    saveSightings();
  }
}

/** A commit of a table (not yet on any ref), remembered so the marker's read after the move asks git nothing. */
function commitTable(repo: Storage, t: Table, parents: string[], message: ChangeMessage, config: Config): string {
  const oid = commitRecord(repo, tableTree(repo, t), parents, changeMessage(message), config);
  rememberTable(oid, t);
  return oid;
}

async function changeOnce<R>(repo: Storage, branch: string, session: string, mutate: Mutation<R>, o: { config: Config; remote: string | null; why: string | null; offline?: boolean }): Promise<ChangeResult<R>> {
  const config = o.config;
  let remote = o.offline ? null : o.remote;
  let published: Published = o.remote && o.offline ? { where: 'offline', remote: o.remote, reason: 'asked to stay offline' } : { where: 'local', reason: o.why ?? 'no remote' };
  const local = claimsRef(branch);
  let fetched = false;
  // another writer won the compare-and-swap (here, or on the remote): wait a little, read again, decide again (a claim
  // that now overlaps a live one is refused there, naming its holder)
  const busy = (attempts: number) => new HandoffError('concurrent', 'claims-busy', `the claims table of ${branch} kept changing under ${attempts} attempts; run it again`, { branch });
  return untilWonAsync<ChangeResult<R>>(async (attempt) => {
    const now = Date.now();
    // the command's kept listing answers the first read (the move's compare-and-swap still checks it); a ref moved since is read again
    const L = repo.readRef(local);
    if (remote) {
      const tracking = trackingClaimsRef(remote, branch);
      const T = repo.readRef(tracking);
      let base: Table = readTable(repo, T);
      let lost: Array<{ claim: Claim; holder: Claim }> = [];
      // this clone's table when the remote's does not hold it: a parent of the next one too, so the local ref only
      // ever moves forward (a move that does not is someone else's: outside.ts)
      let aside: string | null = null;
      if (L && L !== T) {
        const mb = T ? repo.mergeBase(L, T) : null;
        if (mb !== L) {
          aside = L;
          const m = mergeTables(mb ? readTable(repo, mb) : EMPTY, readTable(repo, L), base, overlapsLive, now);
          base = m.table;
          lost = m.lost;
        }
      }
      const step = mutate(base, now);
      // nothing to publish only when the remote's table holds this clone's already (none there: this one goes up), as
      // the merge above found: nothing set aside
      if ('unchanged' in step && lost.length === 0 && aside === null) {
        return { result: step.unchanged, oid: T ?? L ?? '', published: { where: 'remote', remote }, lost };
      }
      const next = 'unchanged' in step ? { table: base, message: { branch, session, action: 'publish' as const, paths: [] } } : step;
      const oid = commitTable(repo, next.table, T ? [T, ...(aside ? [aside] : [])] : L ? [L] : [], next.message, config);
      const pushed = await pushTable(repo, remote, branch, oid, T, config);
      if (pushed.ok) {
        moveRef(repo, tracking, oid, T, 'handoff claim: pushed');
        if (L !== oid && moveRef(repo, local, oid, L, 'handoff claim').ok) noteClaimsMove(repo, local, oid);
        return { result: 'unchanged' in step ? step.unchanged : step.result, oid, published: { where: 'remote', remote }, lost };
      }
      if (pushed.stale || !fetched) {
        const f = await fetchTable(repo, remote, branch, config);
        if (f.ok) {
          fetched = true;
          return pushed.stale ? LOST : AGAIN;
        }
        if (pushed.stale) throw new HandoffError('environment', 'remote-unreachable', `the claims table on ${remote} moved and could not be fetched again (${f.reason}); nothing was claimed here either`, { remote });
        published = { where: 'offline', remote, reason: f.reason };
        remote = null;
        return AGAIN;
      }
      if (pushed.answered) {
        const what = 'unchanged' in step ? `this clone's claims stay unpublished (local only)` : 'nothing was claimed';
        const way = hostLimit(pushed.reason) ? '' : `. A host that takes only branches and tags (or grants no right on refs/claims/…) cannot hold claims: keep them on a coordination remote that takes custom refs (\`git config handoff.remote <remote>\`, docs/hosting.md)`;
        throw new HandoffError('environment', 'push-failed', `${remote} refused the claims table: ${pushed.reason}; ${what}${way}`, { remote, reason: pushed.reason });
      }
      published = { where: 'offline', remote, reason: pushed.reason };
      remote = null;
      return AGAIN;
    }
    const step = mutate(readTable(repo, L), now);
    if ('unchanged' in step) return { result: step.unchanged, oid: L ?? '', published, lost: [] };
    const oid = commitTable(repo, step.table, L ? [L] : [], step.message, config);
    if (moveRef(repo, local, oid, L, 'handoff claim').ok) {
      noteClaimsMove(repo, local, oid);
      return { result: step.result, oid, published, lost: [] };
    }
    return LOST;
  }, { policy: CLAIMS_CROWD, gaveUp: busy });
}

// ---- claim and release -----------------------------------------------------------------------------------------

export interface ClaimRequest {
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

export interface ClaimOutcome {
  claim: Claim;
  renewed: boolean;
  takenFrom: Claim[];
}

/** The refusal of a claim overlapping live claims of other sessions (exit 3): who holds what, since when, why, and the ways on. */
export function claimedError(specs: string[], holders: Claim[], me: string, nowMs = Date.now()): HandoffError {
  const ids = holders.map((h) => h.session);
  const lines = holders.map((h) => {
    const pairs = overlapping(specs, h.paths).map(([m, t]) => (m === t ? m : `${m} ↔ ${t}`));
    return `  ${pairs.join(', ')}: claimed by session ${short(h.session, ids)} since ${new Date(h.since * 1000).toISOString()} (${ago(h.since, nowMs)})` +
      `, until ${new Date(h.expires * 1000).toISOString()}${h.note ? `; note: ${JSON.stringify(h.note)}` : ''}${h.topic ? `; handoff: ${h.topic}` : ''}${h.host ? `; on ${h.host}` : ''}`;
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

/** A word as the shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (w: string) => (/^[A-Za-z0-9_./@%+=:,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

const ago = (sinceS: number, nowMs: number) => {
  const m = Math.max(0, Math.round((nowMs / 1000 - sinceS) / 60));
  return m < 1 ? 'just now' : m < 120 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
};

/** A claim as `--json` prints it (times ISO 8601). */
export const publicClaim = (c: Claim) => ({ ...c, since: new Date(c.since * 1000).toISOString(), expires: new Date(c.expires * 1000).toISOString() });

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\0') === [...b].sort().join('\0');

function randomTag(): string {
  return Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
}

/** Claims `specs` for the session (or renews its claim on exactly these), refusing (exit 3) over another live session's. */
export function claimMutation(q: ClaimRequest): Mutation<ClaimOutcome> {
  return (table, nowMs) => {
    const me = q.session.id;
    const live = table.claims.filter((c) => claimLive(c, nowMs));
    const holders = live.filter((c) => c.session !== me && overlapping(q.specs, c.paths).length > 0);
    if (holders.length && !q.takeover) throw claimedError(q.specs, holders, me, nowMs);
    const rest = live.filter((c) => !holders.includes(c));
    // a takeover takes each holder's whole claim (a claim names no exceptions): the taker claims what it asked and
    // all they held, so no path of theirs is left unclaimed
    const specs = holders.length ? [...new Set([...q.specs, ...holders.flatMap((h) => h.paths)])] : q.specs;
    const expires = Math.floor((nowMs + q.ttlMs) / 1000);
    // the session's claim on exactly these paths, live or run out but still in the table: renewed in place (its id and
    // since kept), never made again
    const own = rest.find((c) => c.session === me && sameSet(c.paths, specs)) ?? table.claims.find((c) => c.session === me && sameSet(c.paths, specs) && !claimLive(c, nowMs));
    const claim: Claim = own
      ? { ...own, expires, ttl: Math.max(1, Math.round(q.ttlMs / 1000)), note: q.note ?? own.note, pid: q.process?.pid ?? own.pid, pidStart: q.process?.start ?? own.pidStart, host: q.process?.host ?? own.host }
      : {
          id: `${me}@${Math.floor(nowMs / 1000)}.${randomTag()}`,
          session: me,
          client: q.session.client,
          paths: specs,
          note: q.note,
          since: Math.floor(nowMs / 1000),
          expires,
          ttl: Math.max(1, Math.round(q.ttlMs / 1000)),
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

export interface ReleaseOutcome {
  released: Array<{ id: string; paths: string[] }>;
}

/** Whether `release <spec>` gives back the claimed path `p`: the spec names it, or `p` lies inside it. */
const releases = (spec: string, p: string) => spec === p || (spec.endsWith('/') && p.startsWith(spec));

/** Releases the session's claims (those specs only, when given): a spec given is released where a claim names it or lies inside it. */
export function releaseMutation(branch: string, session: string, specs: string[] | null): Mutation<ReleaseOutcome> {
  return (table, nowMs) => {
    const live = table.claims.filter((c) => claimLive(c, nowMs));
    const released: ReleaseOutcome['released'] = [];
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
    if (specs) {
      const unmatched = specs.filter((s) => !released.some((r) => r.paths.some((p) => releases(s, p))));
      if (unmatched.length) {
        const mine = live.filter((c) => c.session === session).flatMap((c) => c.paths);
        throw new HandoffError('usage', 'not-claimed', `you hold no claim on ${unmatched.join(', ')} on ${branch}; ${mine.length ? `your claims: ${mine.join(', ')}` : 'you hold no claims on this branch'}; nothing was released`, { unmatched, claims: mine });
      }
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

/**
 * Whether this clone's claims table (`local`) is one the remote's, as last fetched (`theirs`), has moved past: it holds
 * nothing of this clone's the remote lacks, so the remote's is the merge (a claim taken over or released there is gone).
 */
export const behindRemote = (repo: Storage, local: string, theirs: string | null | undefined): boolean => !!theirs && theirs !== local && repo.isAncestor(local, theirs);

/** Every branch's claims tables: this clone's and, with a remote, the copies of that remote's. */
export const claimsPatterns = (remote: string | null): string[] => [CLAIMS_PREFIX, ...(remote ? [trackingClaimsPrefix(remote)] : [])];

/** Every live claim of the branches whose tables this clone has (here and the remote's tracking copies). */
export function listClaims(repo: Storage, o: { branch?: string | null; nowMs?: number; remote?: string | null; config?: Config } = {}): { claims: ClaimView[]; conflicts: Array<ClaimConflict & { branch: string }>; outside: string[] } {
  const nowMs = o.nowMs ?? Date.now();
  // a command's read (config given) also says what changed outside git-handoff, and judges expiry as this clone does
  if (o.config) judgeExpiry(repo, o.config);
  const outside = o.config ? claimsMovedOutside(repo) : [];
  const patterns = o.branch ? [claimsRef(o.branch), ...(o.remote ? [trackingClaimsRef(o.remote, o.branch)] : [])] : claimsPatterns(o.remote ?? null);
  const byId = new Map<string, ClaimView>();
  const conflicts = new Map<string, ClaimConflict & { branch: string }>();
  const refs = repo.listRefs(patterns);
  const compOf = (ref: string) => (ref.startsWith(CLAIMS_PREFIX) ? ref.slice(CLAIMS_PREFIX.length) : ref.slice(trackingClaimsPrefix(o.remote!).length));
  const remoteTip = new Map(refs.filter((r) => !r.ref.startsWith(CLAIMS_PREFIX)).map((r) => [compOf(r.ref), r.oid]));
  for (const r of refs) {
    const isLocal = r.ref.startsWith(CLAIMS_PREFIX);
    const comp = compOf(r.ref);
    const branch = decodeBranch(comp) ?? comp;
    if (isLocal && behindRemote(repo, r.oid, remoteTip.get(comp))) continue;
    const t = readTable(repo, r.oid);
    for (const raw of t.claims) {
      if (!claimLive(raw, nowMs)) continue;
      // the expiry as this clone judges it (expiresOf): what `claims` shows and the guard's state file holds
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

/** Writes the claims state file (state/claims-marker.ts) from the refs, or removes it when no claim is live; a failure costs only the telling. */
export function refreshMarker(repo: Storage, known?: { remote: string | null }): void {
  try {
    // the state file the guard tells from holds the expiry as this clone judges it (expiry.ts)
    if (!judging(repo)) judgeExpiry(repo, repo.config());
    const { claims } = listClaims(repo, { remote: known ? known.remote : claimsRemote(repo, repo.config()).remote });
    writeMarker(repo.commonDir, claims);
    saveSightings();
  } catch {
    // optional state (SPEC 4): the next change writes it again
  }
}

/** The newest handoff the session owns on the branch (the topic a refusal names). */
export function topicOf(repo: Storage, branch: string, session: string): string | null {
  const prefix = branchPrefix(branch);
  const mine = repo.listRefs([prefix]).filter((r) => parseTrailerLines(r.trailers).session === session).sort((a, b) => b.time - a.time);
  return mine[0] ? mine[0].ref.slice(prefix.length) : null;
}

/** What the holder of a claim taken over is told (SPEC 10): who took its whole claim, when, why, and what it holds now. */
function takenNote(o: { held: string[]; by: string; byClient: string | null; branch: string; at: number; reason: string | null; holds: string[]; asked?: string[] }): string {
  return (
    `git-handoff: session ${o.by}${o.byClient ? ` (${o.byClient})` : ''} took over your claim on ${o.held.join(' ')} (branch ${o.branch}) at ${new Date(o.at * 1000).toISOString().replace(/\.000Z$/, 'Z')}${o.reason ? `: ${JSON.stringify(o.reason)}` : ''}; ` +
    `it holds ${o.holds.join(' ')} now${o.asked ? ` (asked: ${o.asked.join(' ')})` : ''}, your whole claim with it, and your writes there are refused while its claim lives. ` +
    `\`git handoff claims\` shows it; ask that session, or work on other paths.`
  );
}

/**
 * The holder of a claim taken over hears of it at its next tool call and session start, when this clone's guard has
 * seen it (`atS`: when, unix seconds; `asked`: what the taker named, when known).
 */
export function tellClaimTaken(repo: Storage, held: Claim, by: { id: string; client: string | null }, branch: string, reason: string | null, holds: string[], atS: number, asked?: string[]): void {
  if (held.session === by.id || !isKnownSession(repo.commonDir, held.session)) return;
  leaveNote(repo.commonDir, held.session, { kind: 'claim-taken', key: `claim-taken ${held.id} ${by.id}`, text: takenNote({ held: held.paths, by: by.id, byClient: by.client, branch, at: atS, reason, holds, asked }) });
}

/**
 * The takeovers in the history this clone's table of `branch` just moved through (`from` to `to`, at a sync): each
 * holder this clone's guard has seen is told, so a claim taken over in another clone is told once both have synced.
 */
function tellTakeovers(repo: Storage, branch: string, from: string, to: string): void {
  try {
    for (const c of repo.describeCommits(repo.commits({ from: [to], not: [from] }))) {
      const t = readClaimChange(c.trailers);
      if (t.problem || t.action !== 'take-over' || !t.session || !c.parents[0]) continue;
      const after = readTable(repo, c.oid).claims;
      const taker = after.find((x) => x.session === t.session && sameSet(x.paths, t.paths));
      for (const held of readTable(repo, c.parents[0]).claims) {
        if (!t.from.includes(held.session) || after.some((x) => x.id === held.id) || overlapping(held.paths, t.paths).length === 0) continue;
        tellClaimTaken(repo, held, { id: t.session, client: taker?.client ?? null }, branch, t.reason, t.paths, c.time);
      }
    }
  } catch {
    // optional: a note not left costs only the telling
  }
}

export interface ClaimsSync {
  branch: string;
  /** this clone's claims of the branch are on the remote's table now */
  published: boolean;
  /** why they are not (the remote not reached, or it refused them): they stay local, and the next sync tries again */
  reason?: string;
  lost: Array<{ claim: Claim; holder: Claim }>;
  error?: string;
  /** tables changed outside git-handoff (outside.ts) */
  outside?: string[];
}

/**
 * After sync's one fetch carried every branch's claims table (claimsRefspec), publishes what this clone changed
 * offline: a push starts only for a branch whose table this clone changed offline (no claims: no process but one read).
 */
export async function syncClaims(repo: Storage, remote: string, config: Config = repo.config()): Promise<ClaimsSync[]> {
  const out: ClaimsSync[] = [];
  upgradeTracking(repo, true);
  judgeExpiry(repo, config);
  // the tables here and as fetched, read once and kept: what changed outside, what to publish, and the state file,
  // unless a table moves on the way (then the state file reads them again)
  const patterns = [CLAIMS_PREFIX, trackingClaimsPrefix(remote)];
  let read = repo.keepRefs(patterns);
  const outside = claimsMovedOutside(repo, read.filter((r) => r.ref.startsWith(CLAIMS_PREFIX)));
  if (outside.length) {
    out.push({ branch: '*', published: true, lost: [], outside });
    read = repo.keepRefs(patterns);
  }
  const tips = new Map(read.map((r) => [r.ref, r.oid]));
  for (const ref of read) {
    if (!ref.ref.startsWith(CLAIMS_PREFIX)) continue;
    const comp = ref.ref.slice(CLAIMS_PREFIX.length);
    const branch = decodeBranch(comp) ?? comp;
    const T = tips.get(trackingClaimsRef(remote, branch)) ?? null;
    if (T === ref.oid) continue;
    if (behindRemote(repo, ref.oid, T)) {
      // the remote is ahead: this clone takes it
      if (moveRef(repo, ref.ref, T, ref.oid, 'handoff claims: fetched').ok) {
        noteClaimsMove(repo, ref.ref, T);
        tellTakeovers(repo, branch, ref.oid, T!);
      }
      continue;
    }
    try {
      const c = await changeClaims(repo, branch, 'sync', (t) => ({ unchanged: t }), { config, remote });
      if (c.oid && c.oid !== ref.oid) tellTakeovers(repo, branch, ref.oid, c.oid);
      out.push({ branch, published: c.published.where === 'remote', ...(c.published.where !== 'remote' ? { reason: c.published.reason } : {}), lost: c.lost });
    } catch (e) {
      out.push({ branch, published: false, lost: [], error: (e as Error).message });
    }
  }
  refreshMarker(repo, { remote });
  saveSightings();
  return out;
}
