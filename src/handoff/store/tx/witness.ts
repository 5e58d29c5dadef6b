// The record's witness outside the store (issue 36): every record commit the product writes is also pushed into a
// small bare repository under the user's state directory, which deleting or relocating `.git` does not reach. The
// next full check compares the store's record with it; a record that vanished or went back is taken back from it
// (objects and all), so the usual loss report names what is missing and `recover` restores it. A witness deleted
// alone is rebuilt from the record without a word.
//
// Identity: <state>/git-handoff/witness/<project>/ is one bare repository per project, <project> the first 16 hex of
// sha256 over the sorted root commits of HEAD (the same in every clone of the project, after `.git` is deleted and
// cloned again, and after the git dir moves); inside it one ref per clone, refs/witness/<place>, <place> the first 16
// hex of sha256 over the clone's worktree path (its git dir when bare): two clones of one project keep two records,
// and a clone made again at the same place finds the record of the one it replaces. No remote URL in it: a remote
// renamed, added later or a mirror used for the clone would split the witness of one working copy.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from '../../../lazy-crypto';
import { inflateLoose, looseFile } from '../../../git/loose-read';
import { readPackedRefs } from '../../../git/packed-refs';
import type { Storage } from '../../../git/storage';
import { handoffDir } from '../../state/paths';
import { writeState } from '../../state/state-file';
import { userStateDir } from '../../../user-dirs';

/** Where witnesses live: $XDG_STATE_HOME/git-handoff/witness, else ~/.local/state/git-handoff/witness. */
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
const idFile = (repo: Pick<Storage, 'commonDir'>) => path.join(handoffDir(repo.commonDir), 'witness.json');
/** What <common>/handoff/witness.json keeps (the identity, the record last written), or null: not yet, or wiped. */
const readIdFile = (repo: Pick<Storage, 'commonDir'>): Record<string, unknown> | null => {
  try {
    const c = JSON.parse(readFileSync(idFile(repo), 'utf8'));
    return c && typeof c === 'object' ? c : null;
  } catch {
    return null;
  }
};

/**
 * This clone's witness (null: no commit yet, so no identity; or GIT_HANDOFF_WITNESS=0, the bench's baseline). The identity is kept in <common>/handoff/witness.json
 * (one rev-list the first time; a wiped state costs that again, nothing more).
 */
export function witnessOf(repo: Storage): Witness | null {
  if (process.env.GIT_HANDOFF_WITNESS === '0') return null;
  const id = identityOf(repo);
  return id ? { dir: path.join(witnessHome(), id.project), ref: `refs/witness/${id.place}`, where: placeOf(repo) } : null;
}

/**
 * The clone's identity: <project> (its root commits) and <place> (its path), each 16 hex; null without a commit. The
 * one place both are worked out: the witness's ref and the record's ref on a handoff remote (refs/handoff-records/<place>) use it.
 */
export function identityOf(repo: Storage): { project: string; place: string } | null {
  const c = readIdFile(repo);
  if (typeof c?.project === 'string' && typeof c.place === 'string') return { project: c.project, place: c.place };
  const roots = repo.roots().sort();
  if (roots.length === 0) return null;
  const project = hash16(roots.join('\n'));
  const place = hash16(placeOf(repo));
  try {
    writeState(idFile(repo), JSON.stringify({ project, place, roots }), repo.commonDir);
  } catch {
    // a cache: worked out again next time
  }
  return { project, place };
}

/**
 * The record commit git-handoff last wrote into this clone's witness, as this clone keeps it (beside the identity in
 * <common>/handoff/witness.json), or null. The check trusts the witness for that commit (or the record it last
 * verified) only: a witness that holds another was changed outside git-handoff (record-check.ts, fromWitness).
 */
export function witnessWrote(repo: Pick<Storage, 'commonDir'>): string | null {
  const wrote = readIdFile(repo)?.wrote;
  return typeof wrote === 'string' && /^[0-9a-f]{40,64}$/.test(wrote) ? wrote : null;
}

function noteWrote(repo: Storage, commit: string): void {
  // no identity kept (the witness works it out again) or none written: the check then trusts the record it verified
  const c = readIdFile(repo);
  try {
    if (c && c.wrote !== commit) writeState(idFile(repo), JSON.stringify({ ...c, wrote: commit }), repo.commonDir);
  } catch {
    // as above
  }
}

/**
 * Puts the witness's ref back at `commit` (a record git-handoff wrote there, or the store's record) after it was
 * changed outside git-handoff; what was there is kept under refs/witness-foreign/<place>/<seconds> in the witness
 * (evidence, reachable). False when the witness does not hold `commit` loose or packed.
 */
export function restoreWitness(repo: Storage, w: Witness, commit: string, foreign: string): boolean {
  if (!repo.side(w.dir).hasCommit(commit)) return false;
  const kept = `refs/witness-foreign/${path.basename(w.ref)}/${Math.floor(Date.now() / 1000)}`;
  // the witness's refs are its own files, written whole as every witness write is (no git process, no hook)
  writeWhole(path.join(w.dir, kept), `${foreign}\n`);
  writeWhole(path.join(w.dir, w.ref), `${commit}\n`);
  return true;
}

/** The clone's place: its worktree path (its git dir when bare). */
export const placeOf = (repo: Pick<Storage, 'worktree' | 'commonDir'>) => path.resolve(repo.worktree ?? repo.commonDir);
const placeFile = (w: Witness) => path.join(w.dir, 'places', path.basename(w.ref));

/**
 * For a clone the witness holds no record of yet: the record of the one clone of the project whose place is gone
 * (deleted, and the project cloned again elsewhere), else null. Two such clones are no single predecessor: none.
 */
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

/** A predecessor's record taken in by a new clone: its ref and place leave the witness (the new clone's record holds it now). */
export function retireWitness(w: Witness): void {
  rmSync(path.join(w.dir, w.ref), { force: true });
  rmSync(placeFile(w), { force: true });
}

/** The record commit the witness holds for this clone (null: no witness, or none for this clone), without git. */
export function witnessTip(w: Witness): string | null {
  try {
    const t = readFileSync(path.join(w.dir, w.ref), 'latin1');
    if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?\n$/.test(t)) return t.slice(0, -1);
  } catch {
    // packed (a gc in the witness) or absent
  }
  return readPackedRefs(w.dir, w.ref).get(w.ref) ?? null;
}

/**
 * Puts `commit` (a record commit) and everything it reaches into the witness, as this clone's ref. In this process
 * while the objects it lacks are loose here (each write leaves its own loose): their files are copied as they are,
 * each after everything it names, then the ref file; else one `git push` (the first time also a `git init --bare`).
 * Never fails the caller: a witness that could not be written is rewritten by the next record move or check.
 */
export function pushWitness(repo: Storage, commit: string, w: Witness | null = witnessOf(repo)): boolean {
  if (!w) return false;
  try {
    const side = repo.side(w.dir);
    if (!existsSync(path.join(w.dir, 'HEAD')) && !side.init()) return false;
    if (!existsSync(placeFile(w))) writeWhole(placeFile(w), w.where);
    if (copyLoose(repo, commit, w)) {
      noteWrote(repo, commit);
      // git's own estimate of loose objects (gc.auto's 6,700 over 256 fan-out directories): packed when past it
      if (looseIn(w.dir, '17') > 27) side.gc({});
      return true;
    }
    const pushed = repo.pushRefs(w.dir, [`${commit}:${w.ref}`], { force: true, noHooks: true }).status === 0;
    if (pushed) noteWrote(repo, commit);
    return pushed;
  } catch {
    return false;
  }
}

const looseIn = (dir: string, fan: string): number => {
  try {
    return readdirSync(path.join(dir, 'objects', fan)).length;
  } catch {
    return 0;
  }
};

/**
 * After the record restarted (redact: the old chain dropped so that the redacted versions can go), the witness lets
 * them go too: what no clone's record in it reaches is pruned now.
 */
export function pruneWitness(repo: Storage): void {
  const w = witnessOf(repo);
  if (w && existsSync(path.join(w.dir, 'HEAD'))) repo.side(w.dir).gc({ pruneNow: true, env: { GIT_HANDOFF_WITNESS: '0' } });
}

const objectFile = (dir: string, oid: string) => path.join(dir, 'objects', oid.slice(0, 2), oid.slice(2));

/** Writes `data` to `file` by a rename (a reader sees the old file or the new one, whole); its directory made on first use. */
function writeWhole(file: string, data: Buffer | string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    try {
      writeFileSync(tmp, data);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(tmp, data);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * The in-process copy: walks from `commit` through objects the witness does not hold loose; false (nothing of the
 * ref moved) when one of them is not loose here. Objects land children first, so a copy cut short leaves no object
 * whose closure is incomplete.
 */
function copyLoose(repo: Storage, commit: string, w: Witness): boolean {
  const raw = repo.objectFormat === 'sha256' ? 32 : 20;
  const order: Array<{ oid: string; file: Buffer }> = [];
  const seen = new Set<string>();
  const stack = [commit];
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    if (existsSync(objectFile(w.dir, oid))) continue;
    // the file as it is, read once: inflated here to find what it names, copied unchanged
    const file = looseFile(repo, oid);
    const o = file && inflateLoose(oid, file);
    if (!o) return false;
    order.push({ oid, file: file! });
    if (o.type === 'commit') {
      const head = o.content.toString('latin1', 0, o.content.indexOf('\n\n') < 0 ? o.content.length : o.content.indexOf('\n\n'));
      for (const m of head.matchAll(/^(?:tree|parent) ([0-9a-f]+)$/gm)) stack.push(m[1]);
    } else if (o.type === 'tree') {
      for (let at = 0; at < o.content.length; ) {
        const nul = o.content.indexOf(0, at);
        if (nul < 0) return false;
        // a submodule entry (mode 160000) names a commit of another repository: not an object of this one
        if (!o.content.toString('latin1', at, nul).startsWith('160000 ')) stack.push(o.content.subarray(nul + 1, nul + 1 + raw).toString('hex'));
        at = nul + 1 + raw;
      }
    }
  }
  for (const { oid, file } of order.reverse()) writeWhole(objectFile(w.dir, oid), file);
  writeWhole(path.join(w.dir, w.ref), `${commit}\n`);
  return true;
}

/** Brings the witness's record commit and what it reaches into this repository (no ref moves); false when it could not. */
export function fetchWitness(repo: Storage, w: Witness): boolean {
  return repo.fetchRefs(w.dir, [w.ref], { noHooks: true }).status === 0;
}
