// `git handoff push`: every handoff ref this clone moved forward, in pushes of at most handoff.pushBatch refs (`git push --no-verify --porcelain --atomic`), within what the host takes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { hostLimit, lockFileNamed, pushRefusal, remoteLines } from '../git/messages';
import { refOfLock, waitOutLock, type LockPlace } from '../handoff/store/tx/locks';
import { readConfig, remoteNames } from '../git/config';
import type { GitResult, RefOp } from '../git/storage';
import { setting } from '../config-keys';
import { AGAIN, hostLimited, retrying } from '../retry';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, keyOf, parseRef, NOTES_REF, trackingOf } from '../handoff/store/names';
import { moveRefs } from '../handoff/store/tx';
import { refOpOf } from '../handoff/store/tx/batch';
import { migrateArchives, upgradeTracking } from '../handoff/store/tx/migrate';
import { compareSides, fetchAndMerge, fetchTracking, handoffKeyOf, pastRetentionOf, readSides, type FetchResult, type Sides } from './fetch';
import { pastRetention, retentionOf } from '../handoff/store/retention';
import { hostWaitMs, transportError } from './remote';
import { remoteViolations, type Violation } from '../handoff/store/ownership';
import { archivalOf } from '../handoff/store/ref-updates';

/** One ref this clone has that the remote does not: a new or fast-forwarded handoff, an archive entry, an archiving. */
interface PushUpdate {
  ref: string;
  /** null: delete the remote's ref (the handoff was archived here; its archive entry goes in the same push) */
  newOid: string | null;
  /** what the remote had when last fetched (null: nothing) */
  oldOid: string | null;
  kind: 'create' | 'fast-forward' | 'archive-entry' | 'archive' | 'receipts' | 'record' | 'prune';
  /** sent by the refspec `<wildcard>*:<wildcard>*`, not named (byWildcard) */
  wildcard?: string;
  /** after the push: pushed, up to date, rejected (with git's reason) */
  status?: 'pushed' | 'up-to-date' | 'rejected';
  reason?: string;
}

interface PushSkip {
  ref: string;
  /** refused: the remote's version breaks the ownership invariant (its owner restores it: SPEC 7) */
  state: 'diverged' | 'behind' | 'refused' | 'archived-there';
  local: string;
  remote: string;
  violation?: Violation;
}

export interface PushResult {
  remote: string;
  atomic: boolean;
  updates: PushUpdate[];
  /** handoffs not pushed: diverged (needs --resolve) or behind (run fetch) */
  skipped: PushSkip[];
  rejected: PushUpdate[];
  /** what the server said (a refusing hook's message) */
  remoteMessages: string[];
  /** how many pushes it took (handoff.pushBatch refs each at most) */
  batches?: number;
  /** the largest push the host took after it refused a larger one whole, in words of its own or none (halved to it) */
  took?: number;
  /** a host's limit that still bit after the retries: the push stopped there, `sent` refs in, `left` not sent */
  stopped?: { reason: string; limit: 'rate' | 'size'; sent: number; left: number };
  /** the re-fetch after a rejection */
  refetch?: FetchResult;
  /** sync only: this clone's loss record, to refs/handoff-records/<place> in the same push (status unset: not sent) */
  record?: PushUpdate;
}

/** What a push would send, from the local refs against the tracking refs (no network). */
export function planPush(repo: Repo, sides: Sides): { updates: PushUpdate[]; skipped: PushSkip[]; record: PushUpdate | null } {
  const updates: PushUpdate[] = [];
  const skipped: PushSkip[] = [];
  const { local: notes, remote: theirNotes } = sides.receipts;
  const notesDiffer = !!notes && !!theirNotes && notes !== theirNotes;
  const { ours: ourEntries, theirs: theirEntries, isAnc } = compareSides(repo, sides, notesDiffer ? [notes, theirNotes] : []);
  // receipts go fast-forward only: a remote ahead or diverged is merged by the next fetch, then pushed
  if (notes && (!theirNotes || (notesDiffer && isAnc(theirNotes, notes)))) updates.push({ ref: NOTES_REF, newOid: notes, oldOid: theirNotes, kind: 'receipts' });
  for (const [k, oid] of sides.local) {
    const ref = HANDOFF_PREFIX + k;
    if (!parseRef(ref)) continue;
    const theirs = sides.remote.get(k) ?? null;
    if (theirs === oid) continue;
    // a format-1 archive over there of exactly the tip this clone keeps live (not taken in here): never undone by a push
    if (!theirs && archivalOf(repo, theirEntries.get(k), oid, isAnc)?.bare) skipped.push({ ref, state: 'archived-there', local: oid, remote: oid });
    else if (!theirs) updates.push({ ref, newOid: oid, oldOid: null, kind: 'create' });
    else if (isAnc(theirs, oid)) updates.push({ ref, newOid: oid, oldOid: theirs, kind: 'fast-forward' });
    else skipped.push({ ref, state: isAnc(oid, theirs) ? 'behind' : 'diverged', local: oid, remote: theirs });
  }
  // Archived here, still live there at the tip it archived: the push removes it, beside its entry.
  const archiving = new Set<string>();
  for (const [k, theirs] of sides.remote) {
    const a = sides.local.has(k) ? null : archivalOf(repo, ourEntries.get(k), theirs, isAnc);
    if (!a || a.bare) continue;
    updates.push({ ref: HANDOFF_PREFIX + k, newOid: null, oldOid: theirs, kind: 'archive' });
    archiving.add(k);
  }
  const unsent = [...sides.localArchive]
    .filter(([k]) => parseRef(ARCHIVE_PREFIX + k) && !sides.remoteArchive.has(k))
    .map(([k, oid]): PushUpdate => ({ ref: ARCHIVE_PREFIX + k, newOid: oid, oldOid: null, kind: 'archive-entry' }));
  // an entry past this clone's retention (handoff.archiveRetention) is not sent (gc prunes it), unless it goes with an archive
  const past = unsent.length ? pastRetentionOf(repo, sides) : new Set<string>();
  for (const u of unsent) {
    const k = u.ref.slice(ARCHIVE_PREFIX.length);
    if (!past.has(k) || archiving.has(handoffKeyOf(k))) updates.push(u);
  }
  // skips (behind or diverged) whose remote side breaks the invariant become `refused` (SPEC 7: src/sync/refused.ts)
  const open = skipped.filter((s) => s.state === 'behind' || s.state === 'diverged');
  remoteViolations(repo, open.map((s) => ({ local: s.local, remote: s.remote, state: s.state as 'behind' | 'diverged' }))).forEach((v, i) => {
    if (v) Object.assign(open[i], { state: 'refused', violation: v });
  });
  byWildcard(sides, updates);
  const r = sides.record;
  const record = r?.local && r.local !== r.remote ? { ref: r.ref, newOid: r.local, oldOid: r.remote, kind: 'record' as const } : null;
  return { updates, skipped, record };
}

/**
 * Marks the creations of a branch the remote held nothing of to go by one wildcard refspec per family, when every local
 * ref under it is such a creation: git matches each named refspec against every local ref, a wildcard once.
 */
function byWildcard(sides: Sides, updates: PushUpdate[]): void {
  const branchOf = (k: string) => k.slice(0, k.indexOf('/'));
  const onRemote = new Set([...sides.remote.keys(), ...sides.remoteArchive.keys()].map(branchOf));
  const local = new Map<string, number>();
  for (const [prefix, m] of [[HANDOFF_PREFIX, sides.local], [ARCHIVE_PREFIX, sides.localArchive]] as const) {
    for (const k of m.keys()) local.set(prefix + branchOf(k), (local.get(prefix + branchOf(k)) ?? 0) + 1);
  }
  const planned = new Map<string, PushUpdate[]>();
  for (const u of updates) {
    if (u.kind !== 'create' && u.kind !== 'archive-entry') continue;
    const family = u.kind === 'create' ? HANDOFF_PREFIX : ARCHIVE_PREFIX;
    const branch = branchOf(u.ref.slice(family.length));
    if (onRemote.has(branch)) continue;
    planned.set(family + branch, [...(planned.get(family + branch) ?? []), u]);
  }
  for (const [prefix, us] of planned) if (local.get(prefix) === us.length) for (const u of us) u.wildcard = `${prefix}/`;
}

interface PushOptions {
  /** re-fetch after a rejection (off in the pre-push hook) */
  refetch?: boolean;
  progress?: (line: string) => void;
  /** this clone's place (sync: the loss record goes along to refs/handoff-records/<place>, SPEC 9) */
  place?: string | null;
  /** the refs as sync's fetch and merge left them (fetchAndMerge), so the plan reads none again */
  sides?: Sides;
}

/** The one push flow (`push`, `sync`, autoSync): plan once, scan what it sends for secrets (SPEC 2.6), push exactly that plan. */
export async function planScanPush(repo: Repo, remote: string, o: PushOptions = {}): Promise<PushResult> {
  upgradeTracking(repo, true);
  let sides = o.sides ?? readSides(repo, remote, o.place);
  // archives made by a format-1 build get the entry this format pushes
  if (migrateArchives(repo, sides.local, sides.localArchive, sides.remote, sides.remoteArchive).length) sides = readSides(repo, remote, o.place);
  const plan = planPush(repo, sides);
  // loaded only when something would be sent: the scanner is the heaviest module of the product
  if (plan.updates.length) {
    const gate = await import('./secrets-gate');
    // the local refs that differ from what the remote has (diverged ones too: the gate scans what will go once resolved)
    const differing = [
      ...[...sides.local].filter(([k, oid]) => sides.remote.get(k) !== oid).map(([k]) => HANDOFF_PREFIX + k),
      ...[...sides.localArchive].filter(([k]) => !sides.remoteArchive.has(k)).map(([k]) => ARCHIVE_PREFIX + k),
    ];
    // the walk stops at what the remote holds of them; a record it has none of is bounded only by every tracking ref
    const seen = [...differing.map((ref) => sides.remote.get(keyOf(ref))), sides.record?.remote];
    const bounded = !plan.record || !!sides.record?.remote;
    const recordOnly = await gate.assertPushClean(repo, remote, { record: !!plan.record, differing, seen: bounded ? seen.filter((o): o is string => !!o) : undefined });
    // versions with secrets only the record reaches keep the record here (said as not published); the handoffs go
    if (recordOnly.length && plan.record) {
      Object.assign(plan.record, { status: 'rejected', reason: `not sent: it reaches ${recordOnly.length === 1 ? 'a version' : `${recordOnly.length} versions`} with secrets that no handoff ref holds (${gate.describeVersions(recordOnly).slice(0, 2).join(' ').trim()})` });
    }
  }
  const result: PushResult = { remote, atomic: true, updates: plan.updates, skipped: plan.skipped, rejected: [], remoteMessages: [], batches: 0, ...(plan.record ? { record: plan.record } : {}) };
  if (plan.updates.length > 20) o.progress?.(`pushing ${plan.updates.length} handoff refs to ${remote}`);
  const first = pushBatched(repo, remote, plan.updates, result, o.progress);
  // A host's own refusal (permissions, its hooks) is not fixed by a re-fetch: said once, as the host said it.
  if (first.length === 0 || o.refetch === false || result.stopped || !first.some((u) => STALE.test(u.reason ?? ''))) return { ...result, rejected: first };
  // Rejected: fetch and merge, then send once more whatever is still a fast-forward.
  result.refetch = fetchAndMerge(repo, remote, o.progress).result;
  const again = planPush(repo, readSides(repo, remote));
  const retry = again.updates.filter((u) => first.some((f) => f.ref === u.ref));
  if (result.record?.status === 'rejected' && ATOMIC.test(result.record.reason ?? '')) delete result.record.status;
  pushBatched(repo, remote, retry, result, o.progress);
  for (const u of retry) Object.assign(first.find((f) => f.ref === u.ref)!, { status: u.status, reason: u.reason });
  result.skipped = again.skipped;
  result.rejected = first.filter((f) => f.status === 'rejected');
  return result;
}

/** git's words for a ref another clone moved first: a re-fetch and a retry can carry it. */
const STALE = /non-fast-forward|fetch first|stale info/;

/** git's words for a ref rejected only because another ref of an atomic push was ("atomic push failed" here, "atomic push failure" from the server). */
const ATOMIC = /atomic push fail/;

/** The updates in groups that travel together (an archive entry beside its deletion of the live ref), in plan order. */
function groupsOf(updates: PushUpdate[]): PushUpdate[][] {
  const byKey = new Map<string, PushUpdate[]>();
  const out: PushUpdate[][] = [];
  for (const u of updates) {
    const p = !u.wildcard && (u.kind === 'archive' || u.kind === 'archive-entry') ? parseRef(u.ref) : null;
    const k = u.wildcard ?? (p ? `${p.encodedBranch}/${p.topic}` : null);
    const g = k ? byKey.get(k) : undefined;
    if (g) g.push(u);
    else {
      const fresh = [u];
      if (k) byKey.set(k, fresh);
      out.push(fresh);
    }
  }
  return out;
}

/**
 * Pushes `updates` in atomic batches of at most handoff.pushBatch refs, groups never cut; returns the rejected ones. A
 * batch too large for the host is halved, a rate limit waited out (handoff.hostWait); one that still bites stops the
 * push (`result.stopped`), and the next sync goes on from the tracking refs.
 */
export function pushBatched(repo: Repo, remote: string, updates: PushUpdate[], result: PushResult, progress?: (line: string) => void): PushUpdate[] {
  const queue = groupsOf(updates);
  let bound = updates.length > 1 ? Math.max(1, setting(readConfig(repo), 'pushBatch')) : Infinity;
  const rejected: PushUpdate[] = [];
  let sent = 0;
  // each step sends the batch at the head of the queue
  return retrying((wait) => {
    if (!queue.length) return rejected;
    // a wildcard's group larger than a push may hold goes named (staged) in pieces instead
    if (queue[0].length > bound && queue[0][0].wildcard) {
      const big = queue.shift()!;
      for (const u of big) delete u.wildcard;
      const pieces: PushUpdate[][] = [];
      for (let i = 0; i < big.length; i += bound) pieces.push(big.slice(i, i + bound));
      queue.unshift(...pieces);
    }
    const taken = [queue.shift()!];
    let size = taken[0].length;
    while (queue.length && size + queue[0].length <= bound) size += (taken.push(queue.shift()!), taken[taken.length - 1].length);
    // the loss record rides in the last push (pushOnce): room is kept for it there alone, a group left to one more push
    if (!queue.length && taken.length > 1 && size + 1 > bound && result.record && !result.record.status) queue.push(taken.pop()!);
    const batch = taken.flat();
    if (updates.length > bound) progress?.(`pushing refs ${sent + 1}–${sent + batch.length} of ${updates.length}`);
    const out = pushOnce(repo, remote, batch, result, queue.length === 0);
    result.batches = (result.batches ?? 0) + 1;
    // refused whole (in the host's words for its size, or any words but a race): halved down to one group, so a ref
    // the host refuses for itself is refused alone and the others go
    const cut = batch.length > 1 && (!!batch[0].wildcard || groupsOf(batch).length > 1);
    const whole = cut && out.rejected.length === batch.length && !out.rejected.some((u) => STALE.test(u.reason ?? ''));
    if ((out.limit === 'size' && batch.length > 1) || whole) {
      bound = Math.max(1, Math.floor(batch.length / 2));
      result.took = bound;
      requeue(queue, batch);
      return AGAIN;
    }
    if (out.limit === 'rate' && wait(hostLimited(hostWaitMs(repo)))) {
      requeue(queue, batch);
      return AGAIN;
    }
    if (out.limit) {
      const left = unmarked([...batch, ...queue.flat()]);
      result.stopped = { reason: out.reason, limit: out.limit, sent, left: left.length };
      return rejected;
    }
    sent += batch.length;
    rejected.push(...out.rejected);
    return AGAIN;
  });
}

/** A batch back at the head of the queue, its groups as they were, its marks cleared (sent again). */
function requeue(queue: PushUpdate[][], batch: PushUpdate[]): void {
  queue.unshift(...groupsOf(unmarked(batch)));
}

const unmarked = (us: PushUpdate[]) => us.map((u) => Object.assign(u, { status: undefined, reason: undefined }));

/**
 * One git push of these updates (atomic when the remote supports it); marks each, returns the rejected ones and,
 * when the host refused them for its limits, which. The loss record (sync) rides in the last batch only. A remote
 * that refuses the record ref takes an atomic push down with it: then, and only then, the handoffs go again without it.
 */
function pushOnce(repo: Repo, remote: string, updates: PushUpdate[], result: PushResult, last: boolean): { rejected: PushUpdate[]; limit: 'rate' | 'size' | null; reason: string } {
  const record = last && result.record && !result.record.status ? result.record : null;
  // staged once for every try of the batch, and unstaged in the transaction that moves the tracking refs
  const staged = stageOutgoing(repo, remote, updates.filter((u) => u.newOid !== null && !u.wildcard));
  const send = (us: PushUpdate[]) => pushUpdates(repo, remote, us, result.atomic, staged);
  const hear = (stderr: string) => {
    for (const l of remoteLines(stderr)) if (!result.remoteMessages.includes(l)) result.remoteMessages.push(l);
  };
  try {
    const sent = record ? [...updates, record] : updates;
    let r = send(sent);
    // a ref of a remote on this machine locked (a push killed there left its lock): waited out while it may be held,
    // then sent again; one left behind is exit 4 with its rm, as for a lock of this repository
    const lock = r.status === 0 ? null : lockOnThisMachine(r.stderr);
    if (lock) {
      waitOutLock(lock.repo, refOfLock(lock.repo, lock.file), lock.file);
      r = send(sent);
    }
    if (r.status !== 0 && result.atomic && /does not support --atomic/i.test(r.stderr)) {
      result.atomic = false;
      r = send(sent);
    }
    const limit = r.status === 0 ? null : hostLimit(r.stderr);
    if (limit) return { rejected: [], limit, reason: pushRefusal(r.stderr) };
    let lines = porcelainOf(repo, remote, r);
    if (record) mark(record, lines);
    if (record?.status === 'rejected' && !ATOMIC.test(record.reason!) && updates.some((u) => ATOMIC.test(lines.get(u.ref)?.summary ?? ''))) {
      hear(r.stderr);
      r = send(updates);
      lines = porcelainOf(repo, remote, r);
    }
    for (const u of updates) mark(u, lines);
    hear(r.stderr);
    return { rejected: updates.filter((u) => u.status === 'rejected'), limit: null, reason: '' };
  } finally {
    recordPushed(repo, remote, [...updates, ...(record ? [record] : [])].filter((u) => u.status === 'pushed' || u.status === 'up-to-date'), staged);
  }
}

/** Marks an update as git's porcelain line for its ref says. */
function mark(u: PushUpdate, lines: Map<string, { flag: string; summary: string }>): void {
  const line = lines.get(u.ref);
  if (!line || line.flag === '!') Object.assign(u, { status: 'rejected', reason: line?.summary ?? 'not reported by git' });
  else u.status = line.flag === '=' ? 'up-to-date' : 'pushed';
}

/** The lock file a push's remote side named in its way, when it is a repository's on this machine (a path remote). */
function lockOnThisMachine(stderr: string): { file: string; repo: LockPlace } | null {
  const file = lockFileNamed('/', stderr);
  const dir = file && file.includes('/refs/') ? file.slice(0, file.indexOf('/refs/')) : null;
  if (!file || !dir || !existsSync(path.join(dir, 'HEAD'))) return null;
  return { file, repo: { worktree: null, gitDir: dir, commonDir: dir } };
}

/** Where a large push's refs are staged (refs/handoff-outgoing/<R>/…): one wildcard sends them, where git matches each named refspec against every ref. */
const OUTGOING = 'refs/handoff-outgoing/';
/** Below this many refs to create or move, each is named: staging costs two ref transactions. */
const STAGE_FROM = 32;

interface Staged {
  /** the creations and fast-forwards staged (the record is this clone's own ref: always named) */
  updates: PushUpdate[];
  specs: string[];
  /** their deletion, once the push is done */
  unstage: RefOp[];
}

/** Stages the creations and fast-forwards of a push (null: too few, named instead). */
function stageOutgoing(repo: Repo, remote: string, moving: PushUpdate[]): Staged | null {
  if (moving.length < STAGE_FROM) return null;
  const root = `${OUTGOING}${remote}/`;
  // what a killed push left there is no part of this one
  const left = repo.listRefNames([root]).map((r): RefOp => ({ op: 'delete', ref: r.ref, oldOid: r.oid }));
  const staged = moving.map((u) => ({ ref: root + u.ref.slice('refs/'.length), oid: u.newOid! }));
  if (!moveRefs(repo, [...left, ...staged.map((s): RefOp => ({ op: 'create', ref: s.ref, newOid: s.oid }))], 'handoff push: outgoing', { own: true }).ok) return null;
  const families = [...new Set(moving.map((u) => u.ref.slice('refs/'.length).split('/')[0]))];
  return { updates: moving, specs: families.map((f) => `${root}${f}/*:refs/${f}/*`), unstage: staged.map((s): RefOp => ({ op: 'delete', ref: s.ref, oldOid: s.oid })) };
}

/** One `git push` of `updates`; those staged go by the staged refs' wildcards (the record is never among them). */
function pushUpdates(repo: Repo, remote: string, updates: PushUpdate[], atomic: boolean, staged: Staged | null) {
  // A deletion has no fast-forward check of its own: the lease makes it a compare-and-swap on the archived tip. The
  // record is this clone's own ref and not always a fast-forward (redact restarts the chain): forced, with a lease on
  // what sync's fetch saw there, so a record another writer put there since is not overwritten unseen.
  const leases = updates.filter((u) => u.newOid === null || u.kind === 'record').map((u): [string, string | null] => [u.ref, u.oldOid]);
  // creations and fast-forwards of handoffs, entries and receipts (never forced: git refuses a non-fast-forward)
  const wild = [...new Set(updates.flatMap((u) => (u.wildcard ? [`${u.wildcard}*:${u.wildcard}*`] : [])))];
  const named = updates.filter((u) => !u.wildcard && !staged?.updates.includes(u));
  const specs = [...wild, ...(staged?.specs ?? []), ...named.map((u) => (u.newOid === null ? `:${u.ref}` : `${u.newOid}:${u.ref}`))];
  return repo.pushRefs(remote, specs, { atomic, leases });
}
/** git push's `<flag>\t<from>:<to>\t<summary>` lines, by destination ref; a failed push that printed none is exit 7. */
function porcelainOf(repo: Repo, remote: string, r: GitResult): Map<string, { flag: string; summary: string }> {
  const out = new Map<string, { flag: string; summary: string }>();
  for (const line of r.stdout.split('\n')) {
    const m = /^(.)\t([^\t]*):([^\t]+)\t(.*)$/.exec(line);
    if (m) out.set(m[3], { flag: m[1], summary: m[4] });
  }
  if (r.status !== 0 && out.size === 0) throw transportError(repo, remote, 'push', r.stderr);
  return out;
}

/** Moves the tracking refs to what the remote now has, each by compare-and-swap from `oldOid`; the staged refs go in the same transaction. */
function recordPushed(repo: Repo, remote: string, done: PushUpdate[], staged: Staged | null): void {
  const ops = done.filter((u) => u.oldOid !== u.newOid).map((u) => refOpOf({ ref: trackingOf(remote, u.ref), newOid: u.newOid, oldOid: u.oldOid }));
  const unstage = staged?.unstage ?? [];
  if (ops.length + unstage.length === 0) return;
  // tracking refs only save the next fetch: a lost race or a lock leaves them for it
  const move = (group: RefOp[]) => {
    try {
      return moveRefs(repo, group, 'handoff push').ok;
    } catch (e) {
      if (!(e instanceof HandoffError) || e.code !== 'ref-locked') throw e;
      return false;
    }
  };
  if (!move([...ops, ...unstage])) for (const group of [unstage, ...ops.map((op) => [op])]) move(group);
}

/**
 * The error a push with rejections ends in: 4 when another clone got there first (non-fast-forward, stale),
 * 6 when the server's invariant check refused, 7 when the server refused for its own reasons (permissions…).
 */
export function rejectionError(res: PushResult): HandoffError {
  const reasons = res.rejected.map((u) => u.reason ?? '');
  const kind: 'integrity' | 'concurrent' | 'environment' =
    res.remoteMessages.some((l) => /^git-handoff: refused/.test(l)) ? 'integrity'
    : reasons.every((r) => STALE.test(r) || ATOMIC.test(r)) ? 'concurrent'
    : 'environment';
  const lines = res.rejected.map((u) => `  ${u.ref}: ${u.reason}`);
  // nothing taken, a creation refused in words about which refs the host takes: it takes no custom ref
  const words = [...res.remoteMessages, ...res.rejected.map((u) => u.reason ?? '')].join('\n');
  const noCustomRefs =
    kind === 'environment' &&
    res.updates.length > 0 &&
    res.updates.every((u) => u.status === 'rejected') &&
    res.rejected.some((u) => u.newOid !== null && !ATOMIC.test(u.reason ?? '')) &&
    /refs\/heads|branch(es)? (and|or) tags?|only branches|funny refname|namespace|not (a )?valid ref|invalid ref|hidden ref|custom ref/i.test(words);
  const after = res.refetch
    ? res.refetch.handoffs.filter((h) => res.rejected.some((u) => u.ref === h.ref)).map((h) => `  ${h.ref} is now ${h.case}${h.action !== 'none' ? ` (${h.action})` : ''}`)
    : [];
  const next = {
    integrity: 'The server holds handoffs to the ownership invariant: write a new version on top of its value (fetch first) or take it over with --take-over --reason.',
    concurrent:
      'Another clone pushed first. Nothing was forced. Fast-forwarded handoffs can be pushed again with `git handoff push`; diverged ones need `git handoff sync --resolve <topic> --keep local|remote|both`.',
    environment: noCustomRefs
      ? `${res.remote} refused every handoff ref it was sent: a host that takes only branches and tags (or grants no right on refs/handoffs/…, refs/claims/…) cannot hold them. ` +
        `Keep handoffs and claims on a coordination remote that takes custom refs: \`git remote add handoffs <url>\`, then \`git config handoff.remote handoffs\` (docs/hosting.md, "A coordination remote").`
      : `The server refused the push for its own reasons (above): check your access to ${res.remote}, then run \`git handoff push\` again.` +
        (res.rejected.some((u) => u.kind === 'archive') ? '\narchiving deletes refs/handoffs/…: the host must grant the delete right there (docs/hosting.md).' : ''),
  }[kind];
  return new HandoffError(
    kind,
    noCustomRefs ? 'custom-refs-refused' : { integrity: 'push-refused', concurrent: 'push-rejected', environment: 'push-denied' }[kind],
    [
      `${res.rejected.length} handoff ref${res.rejected.length === 1 ? ' was' : 's were'} rejected by ${res.remote}:`,
      ...lines,
      ...res.remoteMessages.map((l) => `  remote: ${l}`),
      ...(after.length ? ['after a re-fetch:', ...after] : []),
      next,
    ].join('\n'),
    { result: res },
  );
}

/**
 * handoff.autoSync: the pre-push hook pushes changed handoff refs to `remote` (a remote name; a bare URL has no tracking refs and is skipped).
 * It pushes with --no-verify, so the hook does not run again; it never throws, and never fails the user's push.
 * Returns a line for the user, or null when there was nothing to say.
 */
export async function autoSyncPush(repo: Repo, remote: string): Promise<string | null> {
  try {
    if (!remoteNames(repo).includes(remote)) return `git-handoff: autoSync skipped: ${remote} is not a named remote (run \`git handoff push <remote>\`)`;
    const r = await planScanPush(repo, remote, { refetch: false });
    const pushed = r.updates.filter((u) => u.status === 'pushed').length;
    const notes: string[] = [];
    if (pushed) notes.push(`pushed ${pushed} handoff ref${pushed === 1 ? '' : 's'} to ${remote}`);
    if (r.rejected.length) notes.push(`${r.rejected.length} rejected (${r.rejected.map((u) => u.ref).join(', ')}): run \`git handoff sync ${remote}\``);
    const diverged = r.skipped.filter((s) => s.state === 'diverged').length;
    if (diverged) notes.push(`${diverged} diverged: run \`git handoff sync ${remote}\` and resolve`);
    return notes.length ? `git-handoff: autoSync: ${notes.join('; ')}` : null;
  } catch (e) {
    // a finding keeps the handoffs here; the user's push goes on
    if (e instanceof HandoffError && e.code === 'secret-found') return `git-handoff: autoSync skipped: ${e.message.split('\n')[0]} (run \`git handoff push ${remote}\` for the details)`;
    return `git-handoff: autoSync could not push handoffs (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); your push goes on`;
  }
}

/**
 * `git handoff gc --remote [R]`: deletes the remote's archive entries past retention, each by a lease on what the fetch
 * saw, in batches as any push (with dryRun: only says which); the result as a push's.
 */
export function pruneRemote(repo: Repo, remote: string, o: { dryRun?: boolean; progress?: (line: string) => void } = {}): PushResult {
  fetchTracking(repo, remote);
  const sides = readSides(repo, remote);
  const past = pastRetention(sides.remoteArchive.keys(), retentionOf(repo));
  const updates: PushUpdate[] = [...past].sort().map((k) => ({ ref: ARCHIVE_PREFIX + k, newOid: null, oldOid: sides.remoteArchive.get(k)!, kind: 'prune' }));
  const result: PushResult = { remote, atomic: true, updates, skipped: [], rejected: [], remoteMessages: [], batches: 0 };
  if (!o.dryRun && updates.length) result.rejected = pushBatched(repo, remote, updates, result, o.progress);
  return result;
}
