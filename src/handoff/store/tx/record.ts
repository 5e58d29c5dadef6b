// The loss record (SPEC 9): refs/handoff-record, a chain of commits whose tree holds the expected ref → oid, one file
// (shelf) per branch, and whose extra parents keep every recorded version reachable. A write rewrites its own shelf only.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { rawLength, readObjectsLooseFirst, treeEntries } from '../../../git/loose-read';
import { MOVE_REFS, parseCommit, type RefOp, type Storage } from '../../../git/storage';
import { commitFixed } from './commits';
import { ARCHIVE_PREFIX, droppedPrefixOf, HANDOFF_PREFIX, isHandoffName, isValidTopic, keyOf, NOTES_REF, stampOf } from '../names';
import { localRecord, readCache } from '../../state/state-file';
import { refOpOf, type RefUpdate } from './batch';
import { looseRefValue, placeOf, pruneWitness, pushWitness } from './witness';
import { inspectLock, isStale, lockError } from './locks';
import { LOST, LOST_RACE, untilWon } from '../../../retry';

export const RECORD_REF = 'refs/handoff-record';
/** Where `recover` keeps a tip it moved out of the way: named, reachable, never thrown away. */
export const ROGUE_PREFIX = 'refs/handoff-rogue/';
/** Where `recover` keeps a recorded version it could not put back because the ref now holds another sound history. */
export const KEPT_PREFIX = 'refs/handoff-kept/';
/** The first line of the record's first format, one file `record` of every line: still read, and written shelved. */
const HEADER = 'git-handoff record 1';
const MARK = 'Handoff-Record: 1';
/** The receipts ref's shelf: no encoded branch starts with a dot (check-ref-format refuses it). */
const NOTES_SHELF = '.notes';
/** The clone's path, JSON-quoted: a copy of the record on a handoff remote says whose it is (SPEC 9). */
const PLACE_TRAILER = 'Handoff-Place';
const recordMessage = (place: string) => `handoff record\n\n${PLACE_TRAILER}: ${JSON.stringify(place)}\n${MARK}\n`;

/** The place a record commit's Handoff-Place trailer names, or null. */
export function recordPlaceOf(message: string): string | null {
  const m = new RegExp(`^${PLACE_TRAILER}: (".*")$`, 'm').exec(message);
  try {
    const p = m && JSON.parse(m[1]);
    return typeof p === 'string' ? p : null;
  } catch {
    return null;
  }
}
/** A record object over this is not read. */
const RECORD_MAX = 64 * 1024 * 1024;

/** The refs the record keeps: live handoffs, archive entries, receipts. */
export const isRecorded = (ref: string) => ref === NOTES_REF || isHandoffName(ref);

/** The file of the record tree a recorded ref's line is in: its branch's (encoded as in the ref), or the receipts'. */
export function shelfOf(ref: string): string {
  if (ref === NOTES_REF) return NOTES_SHELF;
  const at = ref.startsWith(HANDOFF_PREFIX) ? HANDOFF_PREFIX.length : ARCHIVE_PREFIX.length;
  return ref.slice(at, ref.indexOf('/', at));
}

export interface RecordEntry {
  oid: string;
  /** unix seconds: when the record last took this value */
  seen: number;
}
export interface Removal {
  oid: string;
  at: number;
  /** archived: moved into the archive; removed: deleted on purpose through tx (drop) */
  why: 'archived' | 'removed';
}
export interface RecordState {
  /** the record commit read (null: none yet) */
  commit: string | null;
  entries: Map<string, RecordEntry>;
  removed: Map<string, Removal>;
  /** Each shelf's blob, and its text when its lines were read (the others are kept by blob). Absent: the first format. */
  shelves?: Map<string, { oid: string; text?: string }>;
  /** why the record cannot be trusted (damaged, unreadable); then entries and removed are empty */
  problem?: string;
}

export const emptyRecord = (commit: string | null = null, problem?: string): RecordState => ({ commit, entries: new Map(), removed: new Map(), ...(problem ? { problem } : {}) });

const LINE_RES = new Map<number, RegExp>();
/** `<tip|archived|removed> <oid> <seconds> <ref>\n`, sticky (a shelf is read without splitting it); topic in group 5 or 6. */
function lineRe(hexLength: number): RegExp {
  let re = LINE_RES.get(hexLength);
  const part = '[^\\/\\s]*';
  const ref = `refs\\/(?:handoffs\\/${part}\\/(${part})|handoff-archive\\/${part}\\/(${part})\\/${part}|notes\\/handoff-reads)`;
  if (!re) LINE_RES.set(hexLength, (re = new RegExp(`(tip|archived|removed) ([0-9a-f]{${hexLength}}) (\\d{1,12}) (${ref})(?:\\n|$)`, 'y')));
  return re;
}

/** Reads the lines of `text` from `from` into `rec`; returns the first line out of shape (or on the wrong shelf) as the problem. */
function readLines(rec: RecordState, text: string, from: number, hexLength: number, shelf: string | null): string | null {
  const re = lineRe(hexLength);
  let lineNo = from === 0 ? 0 : 1;
  for (let at = from; at < text.length; at = re.lastIndex) {
    lineNo++;
    re.lastIndex = at;
    const m = re.exec(text);
    const topic = m?.[5] ?? m?.[6];
    if (!m || (topic !== undefined && !isValidTopic(topic)) || (shelf !== null && shelfOf(m[4]) !== shelf)) {
      const end = text.indexOf('\n', at);
      return `line ${lineNo}${shelf === null ? '' : ` of ${shelf}`} of the record ${rec.commit?.slice(0, 12)} does not parse: ${JSON.stringify(text.slice(at, Math.min(end < 0 ? text.length : end, at + 80)))}`;
    }
    if (m[1] === 'tip') rec.entries.set(m[4], { oid: m[2], seen: Number(m[3]) });
    else rec.removed.set(m[4], { oid: m[2], at: Number(m[3]), why: m[1] as Removal['why'] });
  }
  return null;
}

/** A record of the first format (one file, HEADER first): any line out of shape makes the whole record untrusted. */
export function parseRecord(text: string, commit: string, hexLength: number): RecordState {
  const firstEnd = text.indexOf('\n');
  if ((firstEnd < 0 ? text : text.slice(0, firstEnd)) !== HEADER) return emptyRecord(commit, `the record ${commit.slice(0, 12)} does not start with "${HEADER}"`);
  const rec = emptyRecord(commit);
  const problem = firstEnd < 0 ? null : readLines(rec, text, firstEnd + 1, hexLength, null);
  return problem ? emptyRecord(commit, problem) : rec;
}

const objectsOf = (repo: Storage, specs: string[]) => readObjectsLooseFirst(repo, specs, RECORD_MAX);

/** The record at `spec` (ref or commit), strictly read; a missing, foreign or garbled one has `problem`. `only`: the shelves read. */
export function readRecord(repo: Storage, spec: string, only?: Set<string>): RecordState {
  try {
    const [commit] = objectsOf(repo, [spec]);
    if (!commit) return emptyRecord(null, `${spec} names an object that is not in the repository`);
    if (commit.type !== 'commit') return emptyRecord(null, `${spec} points at a ${commit.type}, not a record commit`);
    const c = parseCommit(commit.content);
    const short = commit.oid.slice(0, 12);
    if (!c.message.includes(MARK)) return emptyRecord(commit.oid, `${spec} (${short}) is not a record commit (no "${MARK}")`);
    const [tree] = objectsOf(repo, [c.tree]);
    const entries = tree?.type === 'tree' ? treeEntries(tree.content, rawLength(repo)) : null;
    // every shelf is a file (mode 100644)
    if (!entries?.every((e) => e.mode === '100644')) return emptyRecord(commit.oid, `the record commit ${short} holds no tree of record files (or it is missing)`);
    const shelves = new Map<string, { oid: string; text?: string }>(entries.map((e) => [e.name, { oid: e.oid }]));
    const names = [...shelves.keys()].filter((n) => !only || only.has(n) || n === 'record');
    const blobs = objectsOf(repo, names.map((n) => shelves.get(n)!.oid));
    const rec: RecordState = { ...emptyRecord(commit.oid), shelves };
    for (const [i, name] of names.entries()) {
      const text = blobs[i]?.type === 'blob' ? blobs[i]!.content.toString('utf8') : null;
      if (text === null) return emptyRecord(commit.oid, `the record commit ${short} holds no file ${name} (or it is missing)`);
      // the first format: read whole, and the next record is written shelved
      if (name === 'record' && shelves.size === 1 && !/^(tip|archived|removed) /.test(text)) return parseRecord(text, commit.oid, 2 * rawLength(repo));
      const problem = readLines(rec, text, 0, 2 * rawLength(repo), name);
      if (problem) return emptyRecord(commit.oid, problem);
      shelves.get(name)!.text = text;
    }
    return rec;
  } catch (e) {
    return emptyRecord(null, `the record cannot be read: ${(e as Error).message}`);
  }
}

/** Unix seconds: the record's times. */
export const now = () => Math.floor(Date.now() / 1000);

interface NextRecord {
  commit: string;
  op: RefOp;
  /** the record ref's value the op replaces (null: created) */
  expected: string | null;
  rec: RecordState;
}

/**
 * The next record: `change` edits a copy of the current one and returns the oids to keep reachable, or null for no
 * change. `touched`: the only refs `change` reads (a write's): only their shelves are read, when the record is the verified one.
 */
function nextRecord(repo: Storage, change: (rec: RecordState) => string[] | null, fallback?: RecordState, restart = false, touched?: string[]): NextRecord | { unchanged: string | null } {
  // its value is the expected old value of the next move, so a stale read only loses that compare-and-swap
  const loose = looseRefValue(path.join(repo.commonDir, RECORD_REF));
  const spec = loose ?? RECORD_REF;
  let cur = touched && !restart && loose && loose === readSeen(repo)?.record ? readRecord(repo, spec, new Set(touched.map(shelfOf))) : null;
  if (!cur || cur.problem) cur = readRecord(repo, spec);
  const old = cur.problem && !cur.commit ? null : cur.commit;
  // a damaged record is never built on: the caller's fallback (the last verified record) or an empty one
  const given = fallback ?? emptyRecord(null);
  const base: RecordState = cur.problem ? { ...given, entries: new Map(given.entries), removed: new Map(given.removed) } : cur;
  const keep = change(base);
  if (keep === null) return { unchanged: old };
  // a damaged record commit stays a parent; a restart (redact) drops the chain and keeps only what the state names
  // (not what retention pruned), so `git gc --prune=now` can remove what was redacted
  const parents = restart
    ? [...new Set([...keep, ...[...base.entries.values(), ...[...base.removed].filter(([ref, r]) => !isPruned(ref, r) && !archivePruned(base, ref, r)).map(([, r]) => r)].map((e) => e.oid)])]
    : [...new Set([cur.commit, cur.problem ? fallback?.commit : null, ...keep].filter((o): o is string => !!o))];
  const first = restart ? null : (parents[0] ?? null);
  const commit = recordCommit(repo, base, first, restart ? parents : parents.slice(1));
  // an unreadable record ref (not a commit, missing object) is replaced from its exact value
  const expected = old ?? listTracked(repo, [RECORD_REF]).get(RECORD_REF) ?? null;
  return { commit, op: refOpOf({ ref: RECORD_REF, newOid: commit, oldOid: expected }), expected, rec: base };
}

/** The record commit of `rec`: a new blob only for a shelf whose text changed; `first` (the chain), then the kept versions. */
function recordCommit(repo: Storage, rec: RecordState, first: string | null, keep: string[]): string {
  const lines = new Map<string, string[]>();
  const add = (ref: string, line: string) => (lines.get(shelfOf(ref)) ?? lines.set(shelfOf(ref), []).get(shelfOf(ref))!).push(line);
  for (const ref of [...rec.entries.keys()].sort()) add(ref, `tip ${rec.entries.get(ref)!.oid} ${rec.entries.get(ref)!.seen} ${ref}`);
  for (const ref of [...rec.removed.keys()].sort()) add(ref, `${rec.removed.get(ref)!.why} ${rec.removed.get(ref)!.oid} ${rec.removed.get(ref)!.at} ${ref}`);
  const files = new Map([...(rec.shelves ?? [])].filter(([, s]) => s.text === undefined).map(([name, s]) => [name, s.oid]));
  const texts = [...lines].map(([name, l]): [string, string] => [name, `${l.join('\n')}\n`]);
  const changed = texts.filter(([name, text]) => rec.shelves?.get(name)?.text !== text);
  const oids = repo.writeBlobs(changed.map(([, text]) => text));
  changed.forEach(([name], i) => files.set(name, oids[i]));
  for (const [name] of texts) if (!files.has(name)) files.set(name, rec.shelves!.get(name)!.oid);
  const tree = repo.writeTree([...files].map(([name, oid]) => ({ name, oid })));
  const kept = keptParents(repo, keep);
  return commitFixed(repo, tree, first ? [first, ...kept] : kept, recordMessage(placeOf(repo)));
}

/** How many parents a commit of the record is given at most (each `-p <oid>` on `git commit-tree`'s command line). */
const MAX_PARENTS = 1000;

/**
 * `oids` as at most MAX_PARENTS parents, nested in commits of MAX_PARENTS past that (a command line's limit). Dated 1970:
 * git's date-sorted walk then takes each group's parents at the head of its list instead of sorting them in.
 */
function keptParents(repo: Storage, oids: string[]): string[] {
  if (oids.length <= MAX_PARENTS) return oids;
  const empty = repo.writeTree([]);
  const groups: string[] = [];
  for (let i = 0; i < oids.length; i += MAX_PARENTS) groups.push(commitFixed(repo, empty, oids.slice(i, i + MAX_PARENTS), `handoff kept versions: ${Math.min(MAX_PARENTS, oids.length - i)}`, 1));
  return keptParents(repo, groups);
}

/** An archive entry the record holds as removed: pruned by retention (`git handoff gc`), never a loss. */
export const isPruned = (ref: string, r: Removal) => r.why === 'removed' && ref.startsWith(ARCHIVE_PREFIX);

/** A handoff the record holds as archived, none of whose archive entries is left (each pruned by retention). */
function archivePruned(rec: RecordState, ref: string, r: Removal): boolean {
  if (r.why !== 'archived' || !ref.startsWith(HANDOFF_PREFIX)) return false;
  const entries = `${ARCHIVE_PREFIX}${ref.slice(HANDOFF_PREFIX.length)}/`;
  return ![...rec.entries.keys()].some((e) => e.startsWith(entries));
}

/** Why the last amendRecord of this process gave up on a lock left behind (lockError's message), else null. */
let blocked: string | null = null;
export const recordBlocked = () => blocked;

/**
 * Changes the record by its own compare-and-swap (nextRecord's `change`, applied again after a lost race), for the
 * moves that could not carry it in their transaction, recover and the check. Returns the new record commit, or null
 * when it kept changing (the next check takes it up). `witness` false: the caller writes it.
 */
export function amendRecord(repo: Storage, change: (rec: RecordState) => string[] | null, fallback?: RecordState, restart = false, witness = true): string | null {
  blocked = null;
  return untilWon<string | null>(
    () => {
      const next = nextRecord(repo, change, fallback, restart);
      if ('unchanged' in next) return next.unchanged;
      const r = repo[MOVE_REFS]([next.op], { reason: 'handoff record' });
      if (r.ok) {
        if (witness) pushWitness(repo, next.commit);
        return next.commit;
      }
      if (r.reason === 'hook') return null;
      // a lock a crashed git left on the record is not waited out 60 times: the next command's check takes it up
      if (r.reason === 'locked') {
        const lock = inspectLock(repo, r.lockFile!);
        if (isStale(lock)) {
          blocked = lockError(RECORD_REF, lock, 0).message;
          return null;
        }
      }
      return LOST;
    },
    { policy: LOST_RACE, otherwise: () => null },
  );
}

/** Records a batch of moves that could not carry the record's move, by a CAS of its own; never fails the move. */
export function recordMoves(repo: Storage, moves: RefUpdate[], replaces = false): void {
  const change = movesChange(moves);
  if (!change) return;
  try {
    seenAfterMove(repo, amendRecord(repo, change, undefined, replaces));
    if (replaces) pruneWitness(repo);
  } catch {
    // the record is a second line of defence: a failure here leaves it to the next command's check
  }
}

/** Removes a record of nothing (uninstall where no handoff was written) by compare-and-swap against `oid`. */
export function removeEmptyRecord(repo: Storage, oid: string, reason: string): boolean {
  return repo[MOVE_REFS]([{ op: 'delete', ref: RECORD_REF, oldOid: oid }], { reason }).ok;
}

/** What a batch of moves changes in the record (null: none of them is recorded). */
function movesChange(moves: RefUpdate[]): ((rec: RecordState) => string[]) | null {
  const mine = moves.filter((m) => isRecorded(m.ref));
  if (mine.length === 0) return null;
  // a deletion beside an archive entry of the same handoff is an archive; any other is a removal on purpose
  const archivedKeys = new Set(mine.filter((m) => m.ref.startsWith(ARCHIVE_PREFIX) && m.newOid).map((m) => keyOf(m.ref)));
  // a drop's removal is dated by the stamp its kept ref is named with, which the check names that undo by
  const dropStamp = (ref: string) => {
    const kept = moves.find((m) => m.newOid && m.ref.startsWith(droppedPrefixOf(ref)));
    return kept ? stampOf(kept.ref) : null;
  };
  return (rec) => {
    const t = now();
    for (const m of mine) {
      if (m.newOid) {
        rec.entries.set(m.ref, { oid: m.newOid, seen: t });
        rec.removed.delete(m.ref);
      } else {
        const was = rec.entries.get(m.ref)?.oid ?? m.oldOid;
        rec.entries.delete(m.ref);
        if (was) rec.removed.set(m.ref, { oid: was, at: dropStamp(m.ref) ?? t, why: archivedKeys.has(keyOf(m.ref)) ? 'archived' : 'removed' });
      }
    }
    // kept reachable: every new value, and a tip taken out (a drop's) but not an archive entry pruned by retention
    return mine.flatMap((m) => (m.newOid ? [m.newOid] : m.oldOid && !m.ref.startsWith(ARCHIVE_PREFIX) ? [m.oldOid] : []));
  };
}

/**
 * The record's next commit for a batch of moves, as one more op of their transaction; `committed` runs after it.
 * Null when nothing of the batch is recorded or the record cannot be built (then recordMoves follows the moves).
 */
export function recordOp(repo: Storage, moves: RefUpdate[], replaces = false): { op: RefOp; committed(): void } | null {
  const change = movesChange(moves);
  if (!change) return null;
  try {
    const seen = readSeen(repo);
    // the storage as this process last found it verified stands for it now: what moved since then, ours or not, is
    // in the fingerprint after the move, and verifiedInPlace proves each change or a listing decides
    const before = seen?.fp ? (lastParts?.commonDir === repo.commonDir && lastParts.fp === seen.fp ? lastParts.parts : fingerprintParts(repo)) : null;
    const next = nextRecord(repo, change, undefined, replaces, moves.map((m) => m.ref).filter(isRecorded));
    if ('unchanged' in next) return null;
    const inPlace = before && next.expected === seen!.record ? { before, moved: moves, rec: next.rec } : undefined;
    return {
      op: next.op,
      committed: () => {
        pushWitness(repo, next.commit);
        if (replaces) pruneWitness(repo);
        seenAfterMove(repo, next.commit, inPlace);
      },
    };
  } catch {
    return null;
  }
}

// The verified cache: when nothing under the refs changed since the last full check, no git process runs.

interface Seen {
  /** the fingerprint of the ref storage when the record and the refs last agreed (null: check again) */
  fp: string | null;
  /** the record commit then */
  record: string | null;
  /** unix seconds of that check */
  at: number;
}

const SEEN = localRecord('record-seen.json');

export function readSeen(repo: Pick<Storage, 'commonDir'>): Seen | null {
  const s = readCache(SEEN.at(repo.commonDir));
  return typeof s?.at === 'number' ? { fp: typeof s.fp === 'string' ? s.fp : null, record: typeof s.record === 'string' ? s.record : null, at: s.at } : null;
}

export const writeSeen = (repo: Storage, s: Seen): void => void SEEN.cache(repo.commonDir, s);

/**
 * After a recorded move: when the refs are exactly what the new record says, the fingerprint stands for them (proved
 * without git where the storage was verified right before the transaction, `inPlace`, else by one for-each-ref).
 */
export function seenAfterMove(repo: Storage, commit: string | null, inPlace?: { before: Parts; moved: RefUpdate[]; rec: RecordState }): void {
  const s = readSeen(repo);
  if (!commit) {
    if (s?.fp) writeSeen(repo, { ...s, fp: null });
    return;
  }
  const proved = inPlace && s?.fp && s.fp === joinedOf(inPlace.before) ? verifiedInPlace(repo, inPlace.before, inPlace.moved, commit, inPlace.rec) : null;
  if (proved) return writeSeen(repo, { fp: proved, record: commit, at: now() });
  const fp = refsFingerprint(repo);
  const refs = listTracked(repo);
  const recOid = refs.get(RECORD_REF);
  refs.delete(RECORD_REF);
  const rec = readRecord(repo, commit);
  const same = !rec.problem && recOid === commit && refs.size === rec.entries.size && [...rec.entries].every(([ref, e]) => refs.get(ref) === e.oid);
  writeSeen(repo, { fp: same ? fp : null, record: commit, at: same ? now() : s?.at ?? 0 });
}

const statKey = (p: string): string => {
  try {
    const s = statSync(p, { bigint: true });
    return `${s.ino}.${s.size}.${s.ctimeNs}.${s.mtimeNs}`;
  } catch {
    return '-';
  }
};

const subdirs = (dir: string): string[] => {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
};

/** `dir` and the directories below it down to `depth` levels, depth first, each with its stat ('-': none). */
export const dirStats = (dir: string, depth: number): Array<[string, string]> => [
  [dir, statKey(dir)],
  ...(depth > 0 ? subdirs(dir).flatMap((d) => dirStats(d, depth - 1)) : []),
];

/** The fingerprint's parts: the path each one stands for, and its stat. */
type Parts = Map<string, string>;

/**
 * The ref storage from stat calls only: packed-refs, the record and receipts files, and each directory of handoff,
 * archive or dropped refs (a ref's write or deletion changes its directory's ctime). Null for reftable.
 */
function fingerprintParts(repo: Pick<Storage, 'commonDir'>): Parts | null {
  const c = repo.commonDir;
  if (statKey(path.join(c, 'reftable')) !== '-') return null;
  const dirs = KINDS.map(([kind, depth]) => dirStats(path.join(c, kind), depth));
  return new Map([...storageFiles(c).map((p): [string, string] => [p, statKey(p)]), ...dirs.flat()]);
}

const storageFiles = (c: string) => [path.join(c, 'packed-refs'), path.join(c, RECORD_REF), path.join(c, 'refs', 'notes'), path.join(c, NOTES_REF)];
// live handoffs: refs/handoffs/<branch>/<topic>; archive entries and a drop's kept versions: refs/<kind>/<branch>/<topic>/<name>
const KINDS: Array<[string, number]> = [['refs/handoffs', 1], ['refs/handoff-archive', 2], ['refs/handoff-dropped', 2]];

/**
 * `before` with what `moved` can have changed stated again (the files, each moved ref's directory and those above it);
 * the rest stands as `before` proved it: whatever moved there since differs at the next check.
 */
function restated(c: string, before: Parts, moved: RefUpdate[]): Parts {
  const after = new Map(before);
  // the files and each kind's own directory are parts whether they exist or not ('-'); a directory below, only while it exists
  const always = new Set([...storageFiles(c), ...KINDS.map(([kind]) => path.join(c, kind))]);
  const stale = new Set(always);
  for (const m of moved) {
    const [kind, depth] = KINDS.find(([k]) => m.ref.startsWith(`${k}/`)) ?? [];
    if (!kind) continue;
    const dirs = m.ref.split('/').slice(0, -1);
    const top = kind.split('/').length;
    for (let n = top; n <= Math.min(dirs.length, top + depth!); n++) stale.add(path.join(c, ...dirs.slice(0, n)));
  }
  for (const p of stale) {
    const stat = statKey(p);
    if (stat !== '-' || always.has(p)) after.set(p, stat);
    else for (const q of before.keys()) if (q === p || q.startsWith(p + path.sep)) after.delete(q);
  }
  return after;
}

// in path order: a fingerprint restated in part compares equal with the full one of the same storage
const joinParts = (parts: Parts) => [...parts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, stat]) => `${p}:${stat}`).join('|');

/** The fingerprint this process took last (a check's, or one a move proved), so that a move need not stat it again. */
let lastParts: { commonDir: string; fp: string; parts: Parts } | null = null;
const remembered = (commonDir: string, parts: Parts): string => (lastParts = { commonDir, fp: joinParts(parts), parts }).fp;

/** The fingerprint `parts` join to: the one this process took last is known joined. */
const joinedOf = (parts: Parts): string => (lastParts?.parts === parts ? lastParts.fp : joinParts(parts));

/** The fingerprint this process took last of `commonDir`'s ref storage (a check's, or one a move proved), or null. */
export const fingerprintTaken = (commonDir: string): string | null => (lastParts?.commonDir === commonDir ? lastParts.fp : null);

/** The fingerprint of the ref storage (the check at command start compares it with the last verified one). */
export function refsFingerprint(repo: Pick<Storage, 'commonDir'>): string | null {
  const parts = fingerprintParts(repo);
  return parts && remembered(repo.commonDir, parts);
}

/**
 * The new fingerprint without git, when only the record file and the directories of the moved refs changed since
 * `before` and their loose files hold exactly what the new record says; else null (a listing decides).
 */
function verifiedInPlace(repo: Storage, before: Parts, moved: RefUpdate[], commit: string, rec: RecordState): string | null {
  const c = repo.commonDir;
  const after = restated(c, before, moved);
  // the record's entries by the directory of their loose file
  const byDir = new Map<string, Array<[string, string]>>();
  for (const [ref, e] of rec.entries) {
    const dir = ref.slice(0, ref.lastIndexOf('/'));
    byDir.get(dir)?.push([ref, e.oid]) ?? byDir.set(dir, [[ref, e.oid]]);
  }
  // a directory of handoff or archive refs: its loose files are exactly the record's entries in it
  const holdsRecorded = (p: string): boolean => {
    let names: string[];
    try {
      const entries = readdirSync(p, { withFileTypes: true });
      if (entries.some((e) => !e.isFile() || e.name.endsWith('.lock'))) return false;
      names = entries.map((e) => e.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return false;
      names = [];
    }
    const inDir = byDir.get(path.relative(c, p).split(path.sep).join('/')) ?? [];
    return names.length === inDir.length && inDir.every(([ref, oid]) => looseRefValue(path.join(c, ref)) === oid);
  };
  const recordFile = path.join(c, RECORD_REF);
  const notesFile = path.join(c, NOTES_REF);
  // what may have changed, and what it must hold
  const allowed = new Map([[recordFile, () => looseRefValue(recordFile) === commit]]);
  for (const m of moved) {
    if (m.ref === NOTES_REF) {
      allowed.set(notesFile, () => looseRefValue(notesFile) === (rec.entries.get(NOTES_REF)?.oid ?? null));
      allowed.set(path.dirname(notesFile), () => true);
    } else if (isRecorded(m.ref)) {
      const dir = path.dirname(path.join(c, m.ref));
      allowed.set(dir, () => holdsRecorded(dir));
    }
  }
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
  return changed.every((p) => allowed.get(p)?.() ?? false) ? remembered(c, after) : null;
}

/** Every recorded kind of ref now, and the record ref (or the refs under `patterns`), from one for-each-ref. */
export function listTracked(repo: Storage, patterns = [HANDOFF_PREFIX, ARCHIVE_PREFIX, NOTES_REF, RECORD_REF]): Map<string, string> {
  return new Map(repo.listRefNames(patterns).map((r) => [r.ref, r.oid]));
}
