// The record's witness outside `.git` (SPEC 9): every record commit is also written into a bare repository under the
// user's state directory, <project> (its root commits) / refs/witness/<place> (the clone's path), each 16 hex of sha256.
// No remote URL in the identity: a renamed or mirrored remote would split one working copy's witness.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createHash } from '../../../lazy-crypto';
import { inflateLoose, looseFile, rawLength, treeEntries } from '../../../git/loose-read';
import { packedRefs } from '../../../git/refs-read';
import { parseCommit, type Storage } from '../../../git/storage';
import { localRecord, readCache, writeState } from '../../state/state-file';
import { userStateDir } from '../../../user-dirs';

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
  let names: string[];
  try {
    names = readdirSync(path.join(w.dir, 'places'));
  } catch {
    return null;
  }
  const gone = names.flatMap((p) => {
    if (`refs/witness/${p}` === w.ref) return [];
    try {
      const where = readFileSync(path.join(w.dir, 'places', p), 'utf8');
      return existsSync(where) ? [] : [{ dir: w.dir, ref: `refs/witness/${p}`, where }];
    } catch {
      return [];
    }
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
  try {
    const text = readFileSync(file, 'latin1');
    return /^[0-9a-f]{40}(?:[0-9a-f]{24})?\n$/.test(text) ? text.slice(0, -1) : null;
  } catch {
    return null;
  }
}

/**
 * Puts `commit` and what it reaches into the witness as this clone's ref: loose files copied in this process, else
 * one `git push`. Never fails the caller: the next record move or check writes it again.
 */
export function pushWitness(repo: Storage, commit: string, w: Witness | null = witnessOf(repo)): boolean {
  if (!w) return false;
  try {
    const side = repo.side(w.dir);
    if (!existsSync(path.join(w.dir, 'HEAD')) && !side.init()) return false;
    if (!existsSync(placeFile(w))) writeState(placeFile(w), w.where, w.dir);
    if (copyLoose(repo, commit, w)) {
      noteWrote(repo, commit);
      // git's own estimate of loose objects (gc.auto's 6,700 over 256 fan-out directories): packed when past it
      const fan = path.join(w.dir, 'objects', '17');
      if (existsSync(fan) && readdirSync(fan).length > 27) side.gc({});
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

/** The in-process copy, children first (a copy cut short leaves no closure incomplete); false when an object is not loose here. */
function copyLoose(repo: Storage, commit: string, w: Witness): boolean {
  const order: Array<{ oid: string; file: Buffer }> = [];
  const seen = new Set<string>();
  const stack = [commit];
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    if (existsSync(objectFile(w.dir, oid))) continue;
    const file = looseFile(repo, oid);
    const o = file && inflateLoose(oid, file);
    if (!o) return false;
    order.push({ oid, file: file! });
    if (o.type === 'commit') {
      const c = parseCommit(o.content);
      stack.push(c.tree, ...c.parents);
    } else if (o.type === 'tree') {
      const entries = treeEntries(o.content, rawLength(repo));
      if (!entries) return false;
      // a submodule entry (mode 160000) names a commit of another repository: not an object of this one
      for (const e of entries) if (e.mode !== '160000') stack.push(e.oid);
    }
  }
  for (const { oid, file } of order.reverse()) writeState(objectFile(w.dir, oid), file, w.dir);
  writeState(path.join(w.dir, w.ref), `${commit}\n`, w.dir);
  return true;
}
