// The record's witness outside `.git` (SPEC 9): every record commit is also written into a bare repository under the
// user's state directory, <project> (its root commits) / refs/witness/<place> (the clone's path), each 16 hex of sha256.
// No remote URL in the identity: a renamed or mirrored remote would split one working copy's witness.
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createHash } from '../../../lazy-crypto';
import { inflateLoose, looseFile, rawLength, readObjectsLooseFirst, treeEntries } from '../../../git/loose-read';
import { packedRefs } from '../../../git/refs-read';
import { parseCommit, type BatchObject, type Storage } from '../../../git/storage';
import { localRecord, readCache, writeState } from '../../state/state-file';
import { namesIn } from '../../state/paths';
import { userStateDir } from '../../../user-dirs';
import { readTextOr } from '../../../read-file';

/** $XDG_STATE_HOME/git-handoff/witness, else ~/.local/state/git-handoff/witness. */
export const witnessHome = (env: NodeJS.ProcessEnv = process.env) => path.join(userStateDir(env), 'witness');

export interface Witness {
  /** the bare repository */
  dir: string;
  /** this clone's ref in it */
  ref: string;
  /** the clone's place: its worktree path (its git dir when bare) */
  where: string;
}

const hash16 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
/** <common>/handoff/witness.json: the identity and the record last written. */
const ID = localRecord('witness.json');
const readIdFile = (repo: Pick<Storage, 'commonDir'>): Record<string, unknown> | null => {
  const c = readCache(ID.at(repo.commonDir));
  return c && typeof c === 'object' ? c : null;
};

/** This clone's witness (null: no commit yet, or GIT_HANDOFF_WITNESS=0, the bench's baseline). */
export function witnessOf(repo: Storage): Witness | null {
  if (process.env.GIT_HANDOFF_WITNESS === '0') return null;
  const id = identityOf(repo);
  return id ? { dir: path.join(witnessHome(), id.project), ref: `refs/witness/${id.place}`, where: placeOf(repo) } : null;
}

/** <project> and <place>, worked out once (one rev-list) and kept in witness.json; null without a commit. */
export function identityOf(repo: Storage): { project: string; place: string } | null {
  const c = readIdFile(repo);
  if (typeof c?.project === 'string' && typeof c.place === 'string') return { project: c.project, place: c.place };
  const roots = repo.commits({ from: ['--max-parents=0', 'HEAD'], lenient: true }).sort();
  if (roots.length === 0) return null;
  const project = hash16(roots.join('\n'));
  const place = hash16(placeOf(repo));
  ID.cache(repo.commonDir, { project, place, roots });
  return { project, place };
}

/** The record commit git-handoff last wrote into the witness: one it holds otherwise was changed outside git-handoff. */
export function witnessWrote(repo: Pick<Storage, 'commonDir'>): string | null {
  const wrote = readIdFile(repo)?.wrote;
  return typeof wrote === 'string' && /^[0-9a-f]{40,64}$/.test(wrote) ? wrote : null;
}

function noteWrote(repo: Storage, commit: string): void {
  const c = readIdFile(repo);
  if (c && c.wrote !== commit) ID.cache(repo.commonDir, { ...c, wrote: commit });
}

/** Puts the witness's ref back at `commit`, keeping `foreign` under refs/witness-foreign/<place>/<seconds>; false without `commit`. */
export function restoreWitness(repo: Storage, w: Witness, commit: string, foreign: string): boolean {
  if (!repo.side(w.dir).hasCommit(commit)) return false;
  const kept = `refs/witness-foreign/${path.basename(w.ref)}/${Math.floor(Date.now() / 1000)}`;
  writeState(path.join(w.dir, kept), `${foreign}\n`, w.dir);
  writeState(path.join(w.dir, w.ref), `${commit}\n`, w.dir);
  return true;
}

/** The clone's place: its worktree path (its git dir when bare). */
export const placeOf = (repo: Pick<Storage, 'worktree' | 'commonDir'>) => path.resolve(repo.worktree ?? repo.commonDir);
const placeFile = (w: Witness) => path.join(w.dir, 'places', path.basename(w.ref));

/** The witness of the one clone of the project whose place is gone (cloned again elsewhere), else null. */
export function orphanOf(w: Witness): Witness | null {
  const gone = namesIn(path.join(w.dir, 'places')).flatMap((p) => {
    const where = `refs/witness/${p}` === w.ref ? null : readTextOr(path.join(w.dir, 'places', p));
    return where === null || existsSync(where) ? [] : [{ dir: w.dir, ref: `refs/witness/${p}`, where }];
  });
  return gone.length === 1 && witnessTip(gone[0]) ? gone[0] : null;
}

/** A predecessor's record taken in by a new clone: its ref and place leave the witness. */
export function retireWitness(w: Witness): void {
  rmSync(path.join(w.dir, w.ref), { force: true });
  rmSync(placeFile(w), { force: true });
}

/** The record commit the witness holds for this clone (null: no witness, or none for this clone), without git. */
export function witnessTip(w: Witness): string | null {
  return looseRefValue(path.join(w.dir, w.ref)) ?? packedRefs(w.dir, w.ref).get(w.ref) ?? null;
}

/** A loose ref file's value (null: no such file, or not a plain object id: git answers then). */
export function looseRefValue(file: string): string | null {
  const text = readTextOr(file);
  return text && /^[0-9a-f]{40}(?:[0-9a-f]{24})?\n$/.test(text) ? text.slice(0, -1) : null;
}

/**
 * Puts `commit` and what it reaches into the witness as this clone's ref: copied in this process (copyIn), else one
 * `git push`. Never fails the caller: the next record move or check writes it again.
 */
export function pushWitness(repo: Storage, commit: string, w: Witness | null = witnessOf(repo)): boolean {
  if (!w) return false;
  try {
    const side = repo.side(w.dir);
    if (!existsSync(path.join(w.dir, 'HEAD')) && !side.init()) return false;
    if (!existsSync(placeFile(w))) writeState(placeFile(w), w.where, w.dir);
    if (copyIn(repo, commit, w)) {
      noteWrote(repo, commit);
      // git's own estimates (gc.auto's 6,700 loose objects over 256 fan-out directories, gc.autoPackLimit's 50 packs)
      const fan = path.join(w.dir, 'objects', '17');
      if (namesIn(fan).length > 27 || packIndexes(w.dir).length > 50) side.gc({});
      return true;
    }
    const pushed = repo.pushRefs(w.dir, [`${commit}:${w.ref}`], { force: true, noHooks: true }).status === 0;
    if (pushed) noteWrote(repo, commit);
    return pushed;
  } catch {
    return false;
  }
}

/** After the record restarted (redact), the witness prunes what no clone's record in it reaches. */
export function pruneWitness(repo: Storage): void {
  const w = witnessOf(repo);
  if (w && existsSync(path.join(w.dir, 'HEAD'))) repo.side(w.dir).gc({ pruneNow: true, env: { GIT_HANDOFF_WITNESS: '0' } });
}

const objectFile = (dir: string, oid: string) => path.join(dir, 'objects', oid.slice(0, 2), oid.slice(2));
const packDir = (dir: string) => path.join(dir, 'objects', 'pack');
const packIndexes = (dir: string) => namesIn(packDir(dir)).flatMap((n) => (n.endsWith('.idx') ? [path.join(packDir(dir), n)] : []));

/** The pack files fetches of this process brought (fetchingPacks): the witness copies such a pack instead of a push of it. */
const fetchedPacks: string[] = [];

/** Runs `fetch`, noting the packs it added to the repository (a fetch of fewer than 100 objects leaves them loose). */
export function fetchingPacks<T>(repo: Pick<Storage, 'commonDir'>, fetch: () => T): T {
  const before = new Set(packIndexes(repo.commonDir));
  const out = fetch();
  fetchedPacks.push(...packIndexes(repo.commonDir).filter((f) => !before.has(f)));
  return out;
}

/** A pack index (version 2) open, with its fan-out table (entry b: how many ids start with a byte ≤ b) read once. */
interface PackIndex {
  file: string;
  fd: number;
  fanout: Buffer;
}

function openIndex(file: string): PackIndex {
  const fd = openSync(file, 'r');
  const fanout = Buffer.alloc(256 * 4);
  // after an 8-byte header
  readSync(fd, fanout, 0, fanout.length, 8);
  return { file, fd, fanout };
}

/**
 * Whether a pack index lists `oid`: the one bucket of sorted ids that can hold it, read from the file (an index grows
 * with its pack; a walk looks up what changed).
 */
function indexHas(idx: PackIndex, oid: string): boolean {
  const want = Buffer.from(oid, 'hex');
  const from = want[0] ? idx.fanout.readUInt32BE(4 * (want[0] - 1)) : 0;
  const bucket = Buffer.alloc((idx.fanout.readUInt32BE(4 * want[0]) - from) * want.length);
  readSync(idx.fd, bucket, 0, bucket.length, 8 + 256 * 4 + from * want.length);
  let lo = 0;
  let hi = bucket.length / want.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = bucket.compare(want, 0, want.length, mid * want.length, (mid + 1) * want.length);
    if (c === 0) return true;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/** An object of the clone, read loose in-process or by git. */
const readAny = (repo: Storage, oid: string) => readObjectsLooseFirst(repo, [oid])[0];

/**
 * The files of the previous record's tree, where the witness holds that record (an object there has its whole closure
 * there: each copy goes children first): a record rewrites the files of the branches it moved alone, so the walk
 * looks up only those, not every branch's.
 */
function previousFiles(repo: Storage, commit: string, holds: (oid: string) => boolean): string[] {
  const c = readAny(repo, commit);
  const previous = c?.type === 'commit' ? parseCommit(c.content).parents[0] : undefined;
  if (!previous || !holds(previous)) return [];
  const p = readAny(repo, previous);
  const tree = p?.type === 'commit' ? readAny(repo, parseCommit(p.content).tree) : null;
  return tree?.type === 'tree' ? (treeEntries(tree.content, rawLength(repo)) ?? []).map((e) => e.oid) : [];
}

/** The ids an object names (a commit's tree and parents, a tree's entries: its blobs noted); null for a tree cut short. */
function childrenOf(repo: Storage, o: { type: string; content: Buffer }, blobs: Set<string>): string[] | null {
  if (o.type === 'commit') {
    const c = parseCommit(o.content);
    return [c.tree, ...c.parents];
  }
  if (o.type !== 'tree') return [];
  // a submodule entry (mode 160000) names a commit of another repository: not an object of this one
  const entries = treeEntries(o.content, rawLength(repo))?.filter((e) => e.mode !== '160000');
  for (const e of entries ?? []) if (e.mode !== '40000') blobs.add(e.oid);
  return entries?.map((e) => e.oid) ?? null;
}

/**
 * The in-process copy of what the witness lacks, walked a level at a time: loose objects copied, a pack a fetch
 * brought copied whole (its objects read by one `cat-file` per level; a copy, not a link, so that nothing done to the
 * clone's file reaches the witness's). Packs go first, as the loose ones above them (the record's
 * commit) name them, and the loose ones children first, so a copy cut short leaves no closure incomplete; false when
 * an object is in neither.
 */
function copyIn(repo: Storage, commit: string, w: Witness): boolean {
  const held: PackIndex[] = [];
  const fetched: PackIndex[] = [];
  try {
    for (const f of packIndexes(w.dir)) held.push(openIndex(f));
    for (const f of fetchedPacks) if (existsSync(f)) fetched.push(openIndex(f));
    return walkIn(repo, commit, w, held, fetched);
  } finally {
    for (const { fd } of [...held, ...fetched]) closeSync(fd);
  }
}

/** copyIn's walk, the witness's pack indexes and those of this process's fetches open. */
function walkIn(repo: Storage, commit: string, w: Witness, held: PackIndex[], fetched: PackIndex[]): boolean {
  const loose: Array<{ oid: string; file: Buffer }> = [];
  const packs = new Set<string>();
  const holds = (oid: string) => held.some((idx) => indexHas(idx, oid)) || existsSync(objectFile(w.dir, oid));
  const seen = new Set<string>(previousFiles(repo, commit, holds));
  const blobs = new Set<string>();
  for (let level = [commit]; level.length; ) {
    const next: string[] = [];
    const packed: string[] = [];
    const read: Array<BatchObject | null> = [];
    for (const oid of level) {
      if (seen.has(oid)) continue;
      seen.add(oid);
      // the index lookups first: a stat or an open of each object's file costs more
      if (held.some((idx) => indexHas(idx, oid))) continue;
      const pack = fetched.find((idx) => indexHas(idx, oid));
      if (pack) {
        packs.add(pack.file);
        // a blob names nothing: not read
        if (!blobs.has(oid)) packed.push(oid);
        continue;
      }
      if (existsSync(objectFile(w.dir, oid))) continue;
      const file = looseFile(repo, oid);
      if (file) loose.push({ oid, file });
      read.push(file && inflateLoose(oid, file));
    }
    for (const o of [...read, ...repo.readObjects(packed)]) {
      const children = o && childrenOf(repo, o, blobs);
      if (!children) return false;
      next.push(...children);
    }
    level = next;
  }
  for (const idx of packs) {
    for (const file of [idx.replace(/\.idx$/, '.pack'), idx]) {
      const to = path.join(packDir(w.dir), path.basename(file));
      // one there already is the same pack (its name is its checksum)
      if (!existsSync(to)) writeState(to, readFileSync(file), w.dir);
    }
  }
  for (const { oid, file } of loose.reverse()) writeState(objectFile(w.dir, oid), file, w.dir);
  writeState(path.join(w.dir, w.ref), `${commit}\n`, w.dir);
  return true;
}

