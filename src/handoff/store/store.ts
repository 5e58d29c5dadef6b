// The handoff store: write with compare-and-swap, read, list, log, archive, restore (SPEC 2 and 4).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../../errors';
import { trace } from '../../trace';
import { type Bounded, type Config, parseCommit, type RefOp, type RefRecord, type Storage } from '../../git/storage';
import { versionCounts } from './versions';
import { listRefsKept } from './listing-kept';
import { BODY_MAX, COMMIT_MAX, namedPaths, parseState, parseTrailerBlock, parseTrailerLines, SECRET_TRAILER, secretTrailersOf, serializeState, STATE_MAX, validateBody, type HandoffState, type MessageInput, type Trailers } from './document';
import { ARCHIVE_PREFIX, DROPPED_PREFIX, HANDOFF_PREFIX, archiveRef, assertTopic, branchPrefix, encodeBranch, handoffRef, describeOverlap, overlapOf, overlapTokens, parseRef, NOTES_REF, stampOf } from './names';
import { missingRefs } from './address';
import { ownedError, type Tip } from './ownership';
import type { SessionRef } from '../state/session';
import { shellWord } from '../../terminal-text';
import { computeSyncStates, parseTrackingRef, TRACKING_PATTERN, trackingPatternOf, type SyncState } from './sync-state';
import { commitVersion, moveRef, moveRefs } from './tx';
import { LOST, LOST_RACE, untilWon, type BackoffPolicy } from '../../retry';
import { dirtyPaths, verifyHandoff } from './verify';
import { besideEntries, MIGRATED_FROM } from './format';
import { checkTakeover, fromLiveRetry, takenFromError, tellPreviousOwner, type LiveOwner, type TakeoverAct, type TakeoverArg } from './takeover';

/** The branch a command acts on: --branch, else the checked-out one; a detached HEAD needs --branch. */
export function resolveBranch(repo: Storage, flag: string | undefined): string {
  if (flag !== undefined) {
    if (flag === '' || /[\u0000-\u001f\u007f]/.test(flag)) throw new HandoffError('usage', 'invalid-branch', `invalid branch name ${JSON.stringify(flag)}`);
    // git's names for a branch, never branch names themselves (git refuses both in a branch name)
    if (flag === 'HEAD' || flag === '@') return resolveBranch(repo, undefined);
    if (flag.includes('@{')) {
      const { named, full } = repo.fullRefName(flag);
      if (!full.startsWith('refs/heads/')) throw new HandoffError('usage', 'invalid-branch', `--branch ${flag} names no branch${named ? ` (it is ${full || 'a commit'})` : ''}: give the branch by name`);
      return full.slice('refs/heads/'.length);
    }
    return flag.replace(/^refs\/heads\//, '');
  }
  if (repo.branch) return repo.branch;
  throw new HandoffError('usage', 'detached-head', 'HEAD is detached: pass --branch <name> to say which branch this handoff belongs to');
}

/** `to` and `tags` undefined keep the previous version's (`to` [] addresses anyone). */
export interface WriteOptions extends Pick<MessageInput, 'topic' | 'to' | 'tags' | 'refs' | 'importedFrom'> {
  body: string | Buffer;
  branch?: string;
  session: SessionRef;
  takeover?: TakeoverArg | null;
  config?: Config;
  /** state.json as scanned (its head is read here), else captured here */
  state?: HandoffState;
  /** trailer lines added after the standard ones (the scan record) */
  trailers?: string[];
}

/** The tip of one handoff ref with its owner, from one for-each-ref (or from the listing this process keeps). */
export function readTip(repo: Storage, ref: string): (Tip & { trailers: Trailers }) | null {
  const rec = repo.listRefs([ref]).find((r) => r.ref === ref);
  if (!rec) return null;
  const trailers = parseTrailerBlock(rec.block);
  if (trailers.problem) throw ambiguousTip(ref, rec.oid, trailers.problem);
  return { oid: rec.oid, session: trailers.session, time: rec.time, trailers };
}

/** A tip no installed check would have let in: nobody can tell its owner, so nothing is built on it. */
function ambiguousTip(ref: string, oid: string, problem: string): HandoffError {
  return new HandoffError(
    'integrity',
    'ambiguous-trailers',
    `${ref} points to ${oid.slice(0, 12)}, whose ${problem} does not say who owns it; nothing was written.\n` +
      `Its owner cannot be known, so no session can write, archive or take it over. A person can look at it with\n` +
      `  git log --format='%H %(trailers)' ${ref}\nand move the ref back to the last sound version (git update-ref ${ref} <oid> ${oid}, with GIT_HANDOFF_BYPASS=1 where the hooks refuse).`,
    { ref, oid, problem },
  );
}

/** The repository state recorded with a version (state.json). */
export function captureState(repo: Storage, branch: string, body: string, head: string | null): HandoffState {
  const here = repo.branch === branch && repo.worktree;
  const files = here ? namedPaths(body).filter((p) => existsSync(path.join(repo.worktree!, p))) : [];
  return { branch, head, worktree: repo.worktree, dirty: here ? dirtyPaths(repo) : [], files };
}

/** A version's tree: its body and its state.json. */
function versionTree(repo: Storage, body: string, state: HandoffState): string {
  const [bodyOid, stateOid] = repo.writeBlobs([body, serializeState(state)]);
  return repo.writeTree([{ name: 'handoff.md', oid: bodyOid }, { name: 'state.json', oid: stateOid }]);
}

/** A takeover is always on the record: it needs a reason (write, archive and restore alike). */
export function assertTakeover(takeover: { reason: string } | null | undefined): void {
  if (takeover && !takeover.reason?.trim()) {
    throw new HandoffError('usage', 'takeover-needs-reason', '--take-over needs --reason "<why>": the reason is kept in the history');
  }
}

/** A write rebuilds on the new tip after each lost race: a crowd of writers of one topic all land. */
const WRITE_RACE: BackoffPolicy = { ...LOST_RACE, attempts: 200 };
/** An archive or a carry reads every ref it moves again after a lost race. */
const MOVE_RACE: BackoffPolicy = { ...LOST_RACE, attempts: 20 };

/** A new version by compare-and-swap; `takenFrom`, on a takeover: the previous owner, and the live session behind it when it was live. */
export function writeHandoff(repo: Storage, o: WriteOptions) {
  const topic = assertTopic(o.topic);
  const branch = resolveBranch(repo, o.branch);
  const text = validateBody(o.body);
  assertTakeover(o.takeover);
  const config = o.config ?? repo.config();
  const ref = handoffRef(branch, topic);
  // one for-each-ref gives the branch head for state.json and the handoff's tip for the first attempt
  repo.keepRefs([ref, `refs/heads/${branch}`]);
  const head = repo.readRef(`refs/heads/${branch}`);
  const state = o.state ? { ...o.state, head } : captureState(repo, branch, text, head);
  const tree = versionTree(repo, text, state);
  trace('objects written');
  const warnings: string[] = [];
  // the live owner checked once per owner met (a lost race may hand the tip to another)
  const lives = new Map<string | null, LiveOwner | null>();
  const target = targetOf(repo, topic, branch);
  const result = untilWon((attempt: number) => {
    const tip = readTip(repo, ref);
    if (o.takeover?.from !== undefined && tip && tip.session !== o.takeover.from) throw ownedError(tip, o.session.id, ref, topic);
    if (tip && !o.takeover && tip.session !== o.session.id) throw refusedOwned(repo, tip, o.session.id, ref, topic, target);
    const mode = !tip ? 'create' : tip.session === o.session.id ? 'own' : 'takeover';
    if (mode === 'takeover' && !lives.has(tip!.session)) lives.set(tip!.session, checkTakeover(repo, ref, tip!.session, o.session.id, o.takeover!, `${fromLiveRetry('write', target)} …`, config));
    if (attempt === 0 && mode === 'create') warnings.push(...overlapWarnings(repo, branch, topic));
    if (attempt === 0 && o.takeover && mode !== 'takeover') warnings.push(`--take-over ignored: ${mode === 'own' ? 'you already own this handoff' : 'there was nothing to take over'}`);
    const oid = commitVersion(repo, tree, tip ? [tip.oid] : [], {
      topic,
      body: text,
      session: o.session.id,
      branch,
      head: state.head,
      client: o.session.client,
      takeoverFrom: mode === 'takeover' ? tip!.session ?? 'unknown' : null,
      reason: mode === 'takeover' ? o.takeover!.reason : null,
      person: o.session.person ?? null,
      to: o.to ?? tip?.trailers.to ?? [],
      tags: o.tags ?? tip?.trailers.tags ?? [],
      refs: o.refs ?? [],
      importedFrom: o.importedFrom ?? null,
      extra: o.trailers,
    }, config);
    trace('commit written');
    // a lost race re-reads and rebuilds on the new tip (or refuses if it changed hands)
    if (!moveRef(repo, ref, oid, tip?.oid ?? null, `handoff write ${topic}`, { own: true }).ok) return LOST;
    const takenFrom = mode === 'takeover' ? { session: tip!.session, live: lives.get(tip!.session) ?? null } : undefined;
    return { ref, oid, previous: tip?.oid ?? null, session: o.session.id, created: !tip, takeover: mode === 'takeover', ...(takenFrom ? { takenFrom } : {}), warnings };
  }, { policy: WRITE_RACE, gaveUp: () => new HandoffError('concurrent', 'concurrent-update', `${ref} kept changing under this write; nothing was written. Try again.`, { ref }) });
  // lineage's takeover (`from`) continues the same client process: nobody to tell
  if (result.takenFrom && o.takeover?.from === undefined) tellPreviousOwner(repo, { owner: result.takenFrom.session, live: result.takenFrom.live, by: o.session, ref, branch, topic, reason: o.takeover!.reason, act: 'took over' });
  return result;
}

/** How a command names the handoff: its topic, with --branch when it is not the checked-out branch's. */
export const targetOf = (repo: Storage, topic: string, branch: string) => (repo.branch === branch ? topic : `${topic} --branch ${shellWord(branch)}`);

type Retry = NonNullable<Parameters<typeof ownedError>[4]>;

/** The refusal of an act on another's handoff: for a write, edit or redact by the owner a takeover took it from, the story; else the ways on. */
export function refusedOwned(repo: Storage, tip: Tip, session: string, ref: string, topic: string, target: string, retry?: Retry): HandoffError {
  const tellsStory = !retry || retry.command === 'edit' || retry.command === 'redact';
  const story = tellsStory ? takenFromError(repo, ref, tip.session, session, `git handoff log ${target}`) : null;
  return story ?? ownedError(tip, session, ref, topic, retry);
}

type Teller = (act: TakeoverAct, branch: string, topic: string) => void;

/**
 * Whether `session` may archive, restore, carry or redact `tip`: null for its owner, else refused or the checked
 * takeover's teller, which tells the previous owner once the act is done.
 */
export function actOn(
  repo: Storage,
  tip: Tip,
  ref: string,
  topic: string,
  session: SessionRef,
  takeover: TakeoverArg | null | undefined,
  command: Exclude<Retry['command'], 'edit'>,
  target: string,
  retry = target,
): Teller | null {
  if (tip.session === session.id) return null;
  if (!takeover) throw refusedOwned(repo, tip, session.id, ref, topic, target, { command, target: retry });
  const live = checkTakeover(repo, ref, tip.session, session.id, takeover, fromLiveRetry(command, retry));
  return (act, branch, topic) => tellPreviousOwner(repo, { owner: tip.session, live, by: session, ref, branch, topic, reason: takeover.reason, act });
}

/** What `git log %G?` says of a commit's signature, in words; `signed` says whether the commit carries one at all. */
const SIGNATURE_CODES = { G: 'good', U: 'untrusted', B: 'bad', X: 'expired', Y: 'expired-key', R: 'revoked-key', E: 'unverifiable' } as const;
export type SignatureState = 'none' | (typeof SIGNATURE_CODES)[keyof typeof SIGNATURE_CODES];
export interface Signature {
  state: SignatureState;
  key: string | null;
  signer: string | null;
}
const UNSIGNED: Signature = { state: 'none', key: null, signer: null };

/** A signed commit's signature; one git reports as N could not be checked (e.g. no gpg.ssh.allowedSignersFile): unverifiable. */
const signatureOf = (fields: string[]): Signature => ({ state: SIGNATURE_CODES[fields[0] as keyof typeof SIGNATURE_CODES] ?? 'unverifiable', key: fields[1] || null, signer: fields[2] || null });

/** How many overlapping topics one warning names; the rest are counted. */
const OVERLAPS_NAMED = 8;

/** The one warning for a new topic whose first two non-stopword tokens match siblings' on the same branch. */
function overlapWarnings(repo: Storage, branch: string, topic: string): string[] {
  if (overlapTokens(topic).key.length < 2) return [];
  const found = repo.listRefs([branchPrefix(branch)]).flatMap((r) => {
    const t = parseRef(r.ref)?.topic;
    const o = t && t !== topic ? overlapOf(topic, t) : null;
    return o ? [{ topic: t, o }] : [];
  });
  if (found.length === 0) return [];
  if (found.length === 1) return [`topic "${topic}" overlaps "${found[0].topic}" on branch ${branch} (${describeOverlap(found[0].o)}): consider writing to ${found[0].topic} instead`];
  const o = { shared: found[0].o.shared, dropped: [...new Set(found.flatMap((f) => f.o.dropped))] };
  const named = found.slice(0, OVERLAPS_NAMED).map((f) => f.topic);
  const more = found.length - named.length;
  return [
    `topic "${topic}" overlaps ${found.length} topics on branch ${branch} (${describeOverlap(o).replace(/^both /, 'all ')}): ${named.join(', ')}` +
      `${more ? ` and ${more} more (git handoff list shows them)` : ''}; consider writing to one of them instead`,
  ];
}

/** A listed handoff: `to` empty means for anyone; `problem` only when the tip's trailer block is ambiguous (then session and client are null). */
export type HandoffRow = NonNullable<ReturnType<typeof rowOf>>;

// a listing formats 10,000 times, mostly within a few days: the date part is made once per day
const dayPrefix = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? '0' : '') + n;
const iso = (t: number): string => {
  if (!Number.isInteger(t) || t < 0 || t >= 253402300800) return new Date(t * 1000).toISOString();
  const day = Math.floor(t / 86400);
  let prefix = dayPrefix.get(day);
  if (prefix === undefined) dayPrefix.set(day, (prefix = new Date(day * 86400000).toISOString().slice(0, 11)));
  const s = t - day * 86400;
  return `${prefix}${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}.000Z`;
};

/** The row of a listed handoff; `ref`: the name it is listed under (a tracking copy's local name). */
export function rowOf(rec: RefRecord, sync: SyncState = 'local', ref = rec.ref) {
  const p = parseRef(ref);
  if (!p) return null;
  const t = parseTrailerBlock(rec.block);
  return {
    // the trailer is a one-line copy, needed when a long name was cut
    branch: p.branch ?? t.branch ?? p.encodedBranch,
    topic: p.topic,
    ref,
    oid: rec.oid,
    session: t.session,
    client: t.client,
    updatedAt: iso(rec.time),
    sync,
    to: t.to,
    tags: t.tags,
    refs: t.refs,
    ...(t.problem ? { problem: t.problem } : {}),
  };
}

export interface ListOptions {
  branch?: string;
  all?: boolean;
  archived?: boolean;
  mine?: string;
}

/** listHandoffs's patterns: the handoffs of the scope and (unless archived) their tracking copies. */
export function listingPatterns(o: ListOptions): string[] {
  const base = o.archived ? ARCHIVE_PREFIX : HANDOFF_PREFIX;
  const scope = o.all ? base : base + branchPrefix(o.branch!).slice(HANDOFF_PREFIX.length);
  // (for-each-ref globs do not cross '/': every branch needs the two-level pattern)
  if (o.archived) return [scope];
  return [scope, o.all ? TRACKING_PATTERN : trackingPatternOf(scope + '*')];
}

/** What listHandoffs reads, in one for-each-ref kept for this process's later reads. */
export function readListing(repo: Storage, o: ListOptions = {}): RefRecord[] {
  const patterns = listingPatterns(o);
  return repo.keepRefs(patterns, o.all && !o.archived ? () => listRefsKept(repo, patterns) : undefined);
}

/** Every handoff of a branch (or all branches) with its sync state. */
export function listHandoffs(repo: Storage, o: ListOptions = {}): HandoffRow[] {
  const read = readListing(repo, o);
  // an archive is one row: a format-1 entry is shown through the format-2 entry that stands beside it (SPEC 2)
  const beside = o.archived ? besideEntries(read) : null;
  const recs = beside ? read.filter((r) => !beside.has(r.ref)) : read.filter((r) => r.ref.startsWith(HANDOFF_PREFIX));
  const tracking = o.archived ? [] : read.filter((r) => !r.ref.startsWith(HANDOFF_PREFIX));
  const sync = tracking.length ? computeSyncStates(repo, recs, tracking) : new Map<string, SyncState>();
  const rows = recs.map((rec) => rowOf(rec, sync.get(rec.ref) ?? 'local'));
  return rows.filter((row): row is HandoffRow => row !== null && (!o.mine || row.session === o.mine));
}

/** The full view of one version; `receiptsAt`: the notes commit of the receipts when it was read (null: none yet; absent: not read). */
export type HandoffView = ReturnType<typeof viewOf> & { receiptsAt?: string | null };

/** Resolves `--at <rev>` within a handoff's history: an oid, or ~N / ^ relative to the tip; `name` is how the command line gave it. */
function resolveAt(repo: Storage, ref: string, tip: string, at: string, name: string): string {
  const spec = /^[~^]/.test(at) ? `${ref}${at}` : at;
  const oid = repo.resolve(`${spec}^{commit}`);
  if (!oid) {
    const n = repo.revCount(tip, { firstParent: true }) || 1;
    const range = n === 1 ? 'only the newest (~0)' : `~0 (the newest) to ~${n - 1}`;
    throw new HandoffError('usage', 'unknown-revision', `${name} ${at}: no such version of ${ref}; it has ${n} version${n === 1 ? '' : 's'}: ${range}, or an oid from \`git handoff log\``);
  }
  if (!repo.isAncestor(oid, tip)) throw new HandoffError('usage', 'unknown-revision', `${name} ${at}: ${oid.slice(0, 12)} is not a version of ${ref}`);
  return oid;
}

/** A handoff's newest version, or the version `at` names (`atName`: the option or argument that gave it, for errors). */
export function readHandoff(repo: Storage, branch: string, topic: string, at?: string, atName = '--at'): HandoffView {
  const ref = handoffRef(branch, assertTopic(topic));
  const headRef = `refs/heads/${branch}`;
  // one listing: the handoff, its copies, the branch head (for verify) and the receipts' notes (show's readBy)
  const read = repo.keepRefs([ref, trackingPatternOf(ref), headRef, NOTES_REF]);
  const found = locateHandoff(repo, branch, topic);
  const oid = at ? resolveAt(repo, found.ref, found.oid, at, atName) : found.oid;
  const receiptsAt = read.find((r) => r.ref === NOTES_REF)?.oid ?? null;
  return { ...viewOf(repo, found.ref, oid, branch, topic, read.find((r) => r.ref === headRef)?.oid ?? null), receiptsAt };
}

/** The archive entries (`root` ARCHIVE_PREFIX) or drops (DROPPED_PREFIX) of one handoff, newest first by the stamp in their name. */
function entriesOf(repo: Storage, root: string, branch: string, topic: string): RefRecord[] {
  const prefix = `${root}${encodeBranch(branch)}/${assertTopic(topic)}/`;
  const recs = repo.keepRefs([prefix]);
  // one archive, one entry: a format-1 entry beside a format-2 one is read through it (SPEC 2 "Format version")
  const beside = besideEntries(recs);
  return recs.filter((r) => !beside.has(r.ref)).sort((x, y) => (stampOf(y.ref) ?? 0) - (stampOf(x.ref) ?? 0));
}
export const archivedVersions = (repo: Storage, branch: string, topic: string) => entriesOf(repo, ARCHIVE_PREFIX, branch, topic);
export const droppedVersions = (repo: Storage, branch: string, topic: string) => entriesOf(repo, DROPPED_PREFIX, branch, topic);

/** The ref `log`/`show` read: the live handoff, else its newest archive entry, else its newest drop. */
export function locateHandoff(repo: Storage, branch: string, topic: string): { ref: string; oid: string; archived: boolean } {
  const ref = handoffRef(branch, assertTopic(topic));
  const oid = repo.readRef(ref);
  if (oid) return { ref, oid, archived: false };
  const arch = archivedVersions(repo, branch, topic)[0] ?? droppedVersions(repo, branch, topic)[0];
  if (!arch) throw notFound(ref, branch, topic);
  return { ref: arch.ref, oid: arch.oid, archived: true };
}

export function notFound(ref: string, branch: string, topic: string): HandoffError {
  return new HandoffError(
    'usage',
    'not-found',
    `no handoff "${topic}" on branch ${branch} (${ref}), live or archived; \`git handoff list\` shows what there is (\`list --archived --all\` the archive)`,
    { ref },
  );
}

/** What a view reads of each version, bounded: one huge body must not break a view of the whole branch. */
export const readViewFiles = (repo: Storage, oids: string[]) => repo.readCommitFiles(oids, ['handoff.md', 'state.json'], [COMMIT_MAX, BODY_MAX, STATE_MAX]);

/** The full view of one version. */
export function viewOf(repo: Storage, ref: string, oid: string, branch: string, topic: string, branchTip?: string | null) {
  const [[commit, bodyObj, stateObj]] = readViewFiles(repo, [oid]);
  if (!commit || 'oversize' in commit) throw new HandoffError('integrity', 'missing-object', `${ref} points to ${oid}, which cannot be read`);
  const text = (o: Bounded) => (o && !('oversize' in o) ? o.content.toString('utf8') : null);
  const oversize = bodyObj && 'oversize' in bodyObj ? `its body is ${bodyObj.oversize} bytes, over the ${BODY_MAX}-byte limit: not read` : null;
  const c = parseCommit(commit.content);
  const st = parseState(text(stateObj));
  const local = parseTrackingRef(ref)?.local ?? ref;
  const recs = repo.listRefs(local.startsWith(HANDOFF_PREFIX) ? [local, trackingPatternOf(local)] : [ref]);
  const sync = ref.startsWith(HANDOFF_PREFIX) ? computeSyncStates(repo, recs.filter((r) => r.ref === ref), recs.filter((r) => r.ref !== ref)).get(ref) : undefined;
  // git's reading of the trailers: the ref's record has it when this is its tip, else one git log
  const tipRec = recs.find((r) => r.oid === oid);
  const t = parseTrailerLines(tipRec ? tipRec.trailers : repo.describeCommits([oid])[0]?.trailers ?? []);
  return {
    branch,
    topic,
    ref,
    oid,
    session: t.session,
    client: t.client,
    updatedAt: iso(c.committerTime),
    sync: sync ?? 'local',
    versions: versionCounts(repo, [oid])[0],
    body: text(bodyObj) ?? '',
    state: st,
    verify: { ...verifyHandoff(repo, branch, t.head, st?.files ?? [], branchTip), ...(t.refs.length ? { missingRefs: missingRefs(repo, branch, t.refs) } : {}) },
    head: t.head,
    takeoverFrom: t.takeoverFrom,
    reason: t.reason,
    signature: c.signed ? signatureOf(repo.logFields([oid], ['%G?', '%GK', '%GS'], { max: 1 })[0] ?? []) : UNSIGNED,
    to: t.to,
    tags: t.tags,
    refs: t.refs,
    person: t.person,
    importedFrom: t.importedFrom,
    ...(t.problem || oversize ? { problem: [t.problem, oversize].filter(Boolean).join('; ') } : {}),
  };
}

/** Every version, newest first, from one git log (and one cat-file only when git could not check a signature). */
export function logHandoff(repo: Storage, refOrOid: string) {
  const { entries, unsure } = repo.history(refOrOid);
  // %G? says N both for an unsigned commit and for one it could not check; git complains on stderr only for the latter
  const unchecked = unsure ? entries.filter((e) => e.signature[0] === 'N').map((e) => e.oid) : [];
  const signedAnyway = new Set(repo.readObjects(unchecked).flatMap((o, i) => (o && parseCommit(o.content).signed ? [unchecked[i]] : [])));
  return entries.map((e) => {
    const t = parseTrailerBlock(e.block);
    return {
      oid: e.oid,
      session: t.session,
      client: t.client,
      time: iso(e.time),
      subject: e.subject,
      parents: e.parents,
      takeoverFrom: t.takeoverFrom,
      reason: t.reason,
      signature: e.signature[0] !== 'N' || signedAnyway.has(e.oid) ? signatureOf(e.signature) : UNSIGNED,
      ...(t.problem ? { problem: t.problem } : {}),
    };
  });
}

interface OnTop extends Pick<WriteOptions, 'topic' | 'session' | 'config' | 'refs'>, Pick<MessageInput, 'branch' | 'extra'> {
  /** set when the tip is another's: the reason goes on the version */
  takeover: { reason: string } | null;
  /** the version's text; else the tip's handoff.md */
  body?: string;
  /** where a carry takes it: state.json is rewritten for that branch and head */
  carry?: { head: string | null };
}

/**
 * A version by `session` on top of `tip` (archive, restore, carry): the tip's files, addressees and tags carried over;
 * its scan record too, but a takeover's reason is new text, so only the allowed rules are.
 */
function versionOnTop(repo: Storage, ref: string, tip: Tip & { trailers: Trailers }, o: OnTop): string {
  const [commit, body, state] = repo.readObjects([tip.oid, `${tip.oid}:handoff.md`, `${tip.oid}:state.json`]);
  if (!commit || (o.carry && !body)) throw new HandoffError('integrity', 'missing-object', `${ref} points to ${tip.oid}, which cannot be read`);
  const c = parseCommit(commit.content);
  const was = o.carry && parseState(state ? state.content.toString('utf8') : null);
  const carried = o.carry && { branch: o.branch, head: o.carry.head, worktree: was?.worktree ?? null, dirty: was?.dirty ?? [], files: was?.files ?? [] };
  const tree = carried ? versionTree(repo, body!.content.toString('utf8'), carried) : c.tree;
  const scan = secretTrailersOf(c.message);
  return commitVersion(repo, tree, [tip.oid], {
    topic: o.topic,
    body: o.body ?? (body ? body.content.toString('utf8') : ''),
    branch: o.branch,
    head: o.carry ? o.carry.head : tip.trailers.head,
    session: o.session.id,
    client: o.session.client,
    takeoverFrom: o.takeover ? tip.session ?? 'unknown' : null,
    reason: o.takeover ? o.takeover.reason : null,
    person: o.session.person ?? null,
    to: tip.trailers.to,
    tags: tip.trailers.tags,
    refs: o.refs,
    extra: [
      ...(!o.takeover && scan.scanned ? [`${SECRET_TRAILER.scanned}: ${scan.scanned}`] : []),
      ...scan.allowed.map((r) => `${SECRET_TRAILER.allowed}: ${r}`),
      ...(o.extra ?? []),
    ],
  }, o.config);
}

/**
 * The archive of one live handoff as ops: the format-2 entry (a version on top naming who archived it), beside it a
 * format-1 entry at the tip itself (SPEC 2 "Format version"), and the live ref's deletion.
 */
function archiveOps(repo: Storage, ref: string, tip: Tip & { trailers: Trailers }, o: OnTop): { ops: RefOp[]; archived: string; oid: string } {
  const stamp = Math.floor(Date.now() / 1000);
  const format1 = archiveRef(o.branch, o.topic, stamp, tip.oid);
  const oid = versionOnTop(repo, ref, tip, { ...o, extra: [`${MIGRATED_FROM}: ${format1}`] });
  const archived = archiveRef(o.branch, o.topic, stamp, oid);
  return {
    ops: [
      { op: 'create', ref: archived, newOid: oid },
      { op: 'create', ref: format1, newOid: tip.oid },
      { op: 'delete', ref, oldOid: tip.oid },
    ],
    archived,
    oid,
  };
}

export function archiveHandoff(repo: Storage, branch: string, topic: string, session: SessionRef, takeover: TakeoverArg | null) {
  assertTopic(topic);
  assertTakeover(takeover);
  const ref = handoffRef(branch, topic);
  const config = repo.config();
  const target = targetOf(repo, topic, branch);
  let tell: Teller | null = null;
  const r = untilWon(() => {
    const tip = readTip(repo, ref);
    if (!tip) {
      const entry = archivedVersions(repo, branch, topic)[0];
      if (!entry) throw notFound(ref, branch, topic);
      throw new HandoffError('usage', 'already-archived', `"${topic}" on branch ${branch} is archived already (${entry.ref}); \`git handoff restore ${topic}\` brings it back`, { ref, archivedAs: entry.ref });
    }
    tell = actOn(repo, tip, ref, topic, session, takeover, 'archive', target);
    const a = archiveOps(repo, ref, tip, { topic, branch, session, takeover: tell ? takeover : null, config, body: 'archived' });
    const r = moveRefs(repo, a.ops, `handoff archive ${topic}`, { what: `the archive of ${ref}`, own: true });
    return r.ok ? { ref, archivedAs: a.archived, oid: a.oid, takeover: !!tell } : LOST;
  }, { policy: MOVE_RACE, gaveUp: () => new HandoffError('concurrent', 'concurrent-update', `${ref} kept changing while it was being archived; nothing was archived`) });
  if (r.takeover) tell!('archived', branch, topic);
  return r;
}

/** Brings an archived handoff back under refs/handoffs as a new version on top of it; the archive entry stays. */
export function restoreHandoff(repo: Storage, archived: string, session: SessionRef, takeover: TakeoverArg | null) {
  assertTakeover(takeover);
  const full = archived.startsWith('refs/') ? archived : ARCHIVE_PREFIX + archived.replace(/^handoff-archive\//, '');
  const p = parseRef(full);
  if (!p || p.kind !== 'archive') {
    throw new HandoffError('usage', 'invalid-archive-ref', `${archived} is not an archived handoff (refs/handoff-archive/<branch>/<topic>/<stamp>); \`git handoff list --archived\` lists them`);
  }
  const tip = readTip(repo, full);
  if (!tip) throw new HandoffError('usage', 'not-found', `no archived handoff ${full}`);
  const branch = p.branch ?? tip.trailers.branch ?? p.encodedBranch;
  const ref = `${HANDOFF_PREFIX}${p.encodedBranch}/${p.topic}`;
  if (repo.readRef(ref)) {
    throw new HandoffError('usage', 'exists', `"${p.topic}" is live (${ref}): there is nothing to restore over it; \`git handoff show ${p.topic}\` reads it, and archiving it first lets ${full.slice(ARCHIVE_PREFIX.length)} come back`, { ref });
  }
  const told = actOn(repo, tip, full, p.topic, session, takeover, 'restore', full.slice(ARCHIVE_PREFIX.length));
  // a new version on top: a sync never mistakes the live handoff for the archived one (same oid)
  const oid = versionOnTop(repo, full, tip, { topic: p.topic, branch, session, takeover: told ? takeover : null });
  const r = moveRefs(repo, [{ op: 'create', ref, newOid: oid }], `handoff restore ${p.topic}`, { what: `the restore of ${ref}`, own: true });
  if (!r.ok) throw new HandoffError('concurrent', 'concurrent-update', `${ref} was created during the restore; nothing moved (${r.message})`);
  told?.('restored', branch, p.topic);
  return { ref, from: full, oid, takeover: told !== null };
}

/** Carries every live handoff of `from` to `to` (after `git branch -m`) in one transaction: a version under `to`, the old one archived. */
export function carryBranch(repo: Storage, from: string, to: string, session: SessionRef, takeover: TakeoverArg | null, retry: string) {
  assertTakeover(takeover);
  if (from === to) throw new HandoffError('usage', 'same-branch', `the handoffs are on ${from} already: name the branch they were renamed from and the one they go to`);
  const config = repo.config();
  const oldPrefix = branchPrefix(from);
  const newPrefix = branchPrefix(to);
  const headRef = `refs/heads/${to}`;
  let tells: Array<() => void> = [];
  const result = untilWon(() => {
    tells = [];
    // one listing answers every tip read below, and is read again after a lost race
    const recs = repo.keepRefs([oldPrefix, newPrefix, headRef]);
    const live = recs.filter((r) => r.ref.startsWith(oldPrefix) && parseRef(r.ref)?.kind === 'handoff');
    if (!live.length) throw new HandoffError('usage', 'nothing-to-carry', `no handoffs on branch ${from} to carry (git handoff list --all shows where they are)`, { from });
    const topics = live.map((r) => parseRef(r.ref)!.topic);
    const taken = topics.filter((t) => recs.some((r) => r.ref === `${newPrefix}${t}`));
    if (taken.length) {
      throw new HandoffError('usage', 'exists', `${to} has handoffs of the same topic already (${taken.join(', ')}): archive one of each pair first, then carry the rest; nothing was moved`, { topics: taken });
    }
    const head = recs.find((r) => r.ref === headRef)?.oid ?? null;
    const ops: RefOp[] = [];
    const carried = live.map((rec, i) => {
      const topic = topics[i];
      const tip = readTip(repo, rec.ref)!;
      const told = actOn(repo, tip, rec.ref, topic, session, takeover, 'rename-branch', `${topic} --branch ${shellWord(from)}`, retry);
      if (told) tells.push(() => told('carried', from, topic));
      const o = { topic, session, takeover: told ? takeover : null, config };
      const oid = versionOnTop(repo, rec.ref, tip, { ...o, branch: to, carry: { head }, refs: tip.trailers.refs });
      const a = archiveOps(repo, rec.ref, tip, { ...o, branch: from, body: `archived: carried to branch ${to}` });
      ops.push({ op: 'create', ref: `${newPrefix}${topic}`, newOid: oid }, ...a.ops);
      return { topic, ref: `${newPrefix}${topic}`, oid, archivedAs: a.archived, takeover: told !== null };
    });
    const r = moveRefs(repo, ops, `handoff rename-branch ${from} ${to}`, { what: `the carry of ${from}'s handoffs to ${to}` });
    return r.ok ? { from, to, carried } : LOST;
  }, { policy: MOVE_RACE, gaveUp: () => new HandoffError('concurrent', 'concurrent-update', `the handoffs of ${from} kept changing while they were being carried; nothing was moved`) });
  for (const tell of tells) tell();
  return result;
}
