// What `install --agent <agent> --plugin` (`--extension`) changed in HOME, so `uninstall` can give
// it back: the bytes of each client file the client's own installer rewrites (saved before it runs), and the
// files and folders the install created (their fingerprint when it finished). Uninstall restores a file byte for
// byte when, without git-handoff's own entries, it is still as it was; it deletes what the install created and
// nobody changed since; and it says which of the two it did, or why it left something.
import { createHash } from '../lazy-crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pluginOf } from '../clients/records';
import type { RewrittenFile } from '../clients/record';
import { PLUGIN_NAME } from '../clients/plugin-active';
import { AGENT_CLIENT, type Agent } from '../clients/names';
import { userCacheDir, userDataDir, userHome } from '../user-dirs';
import { userDir } from '../clients/places';
import { canonical } from '../clients/hook-files';

/** The folders whose direct entries an install may create (in HOME, only the client's own), and the client files it rewrites (absolute). */
interface Footprint {
  parents: string[];
  only: Record<string, string[]>;
  files: RewrittenFile[];
  /** git-handoff's own cache folder: new since the first install, it goes whatever it holds (a cache, refilled on use) */
  cache: string;
}

const snapshotFile = (agent: Agent) => path.join(userDataDir(), `before-${agent}-install.json`);

function footprint(agent: Agent): Footprint {
  const data = path.dirname(userDataDir());
  const cache = userCacheDir();
  const cacheRoot = path.dirname(cache);
  // the cache root is a parent too (only its git-handoff entry), so a ~/.cache the install made goes when emptied
  const dataParents = [path.dirname(data), data, userDataDir(), cacheRoot];
  const plugin = pluginOf(agent);
  const dir = userDir(AGENT_CLIENT[agent]);
  const src = path.join(userDataDir(), plugin.source);
  return {
    parents: [userHome(), dir, ...plugin.folders.map((f) => path.join(dir, f)), ...dataParents],
    only: { [userHome()]: [...(plugin.homeFiles ?? []), path.basename(dir), path.relative(userHome(), dataParents[0])], [cacheRoot]: ['git-handoff'] },
    files: plugin.rewrites(PLUGIN_NAME, src).map((f) => ({ ...f, file: path.join(dir, f.file) })),
    cache,
  };
}

interface Snapshot {
  /** entries of each parent folder before the first install (null: the folder did not exist) */
  entries: Record<string, string[] | null>;
  /** each client file's bytes before the first install, base64 (null: absent) */
  files: Record<string, string | null>;
  /** what the install created, with its fingerprint when it finished */
  created: Record<string, string>;
}

/** A folder's entries, sorted; null where there is no folder. */
export const listOf = (dir: string): string[] | null => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return null;
  }
};

/** A path's content: every file's bytes and every folder's names, recursively (symlinks by target). */
function fingerprint(p: string): string {
  const h = createHash('sha256');
  const walk = (q: string, rel: string) => {
    const st = lstatSync(q);
    if (st.isDirectory()) {
      h.update(`d ${rel}\n`);
      for (const n of readdirSync(q).sort()) walk(path.join(q, n), `${rel}/${n}`);
    } else h.update(`f ${rel} ${st.size}\n`).update(st.isSymbolicLink() ? 'link' : readFileSync(q));
  };
  try {
    walk(p, '.');
  } catch {
    return 'absent';
  }
  return h.digest('hex');
}

/** Before the client's installer runs: what HOME holds now (kept from the first install when one is on record). */
export function beforeInstall(agent: Agent): boolean {
  const file = snapshotFile(agent);
  if (existsSync(file)) return false;
  const fp = footprint(agent);
  const snap: Snapshot = { entries: {}, files: {}, created: {} };
  for (const p of fp.parents) snap.entries[p] = listOf(p);
  for (const f of fp.files) snap.files[f.file] = existsSync(f.file) ? readFileSync(f.file).toString('base64') : null;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(snap));
  return true;
}

/** The paths in the parents that were not there before the first install (the snapshot itself aside). */
function newEntries(snap: Snapshot, fp: Footprint, skip: Set<string>): string[] {
  const out: string[] = [];
  for (const p of fp.parents) {
    const before = new Set(snap.entries[p] ?? []);
    for (const n of listOf(p) ?? []) {
      const q = path.join(p, n);
      if (fp.only[p] && !fp.only[p].includes(n)) continue;
      if (!before.has(n) && !skip.has(q) && !fp.parents.includes(q) && !fp.files.some((f) => f.file === q)) out.push(q);
    }
  }
  return out;
}

/** The snapshot on record for the agent's install, its file and the footprint; null where there is none. */
function recorded(agent: Agent): { file: string; snap: Snapshot; fp: Footprint } | null {
  const file = snapshotFile(agent);
  return existsSync(file) ? { file, snap: JSON.parse(readFileSync(file, 'utf8')), fp: footprint(agent) } : null;
}

/** The folders the install created and left empty, removed deepest first. */
function removeEmptyCreated(snap: Snapshot, fp: Footprint): string[] {
  // each in turn: a folder is empty once the one inside it went
  const removed: string[] = [];
  for (const p of [...fp.parents].reverse()) {
    if (snap.entries[p] !== null || listOf(p)?.length !== 0) continue;
    rmdirSync(p);
    removed.push(p);
  }
  return removed;
}

/** After the client's installer: the fingerprint of everything the install created. */
export function afterInstall(agent: Agent, keep: string[]): void {
  const { file, snap, fp } = recorded(agent)!;
  snap.created = {};
  for (const q of newEntries(snap, fp, new Set([file, ...keep]))) snap.created[q] = fingerprint(q);
  writeFileSync(file, JSON.stringify(snap));
}

const tilde = (p: string) => (p.startsWith(userHome() + path.sep) ? `~${p.slice(userHome().length)}` : p);

function parse(bytes: Buffer | null): unknown {
  if (bytes === null) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return Symbol('unparsable');
  }
}

/** The JSON without git-handoff's entries, and without objects left empty that `before` did not have. */
function withoutOurs(value: unknown, ours: string[][], before: unknown): unknown {
  if (value === undefined || typeof value !== 'object' || value === null) return value;
  const copy = JSON.parse(JSON.stringify(value));
  for (const keys of ours) {
    let o = copy;
    for (const k of keys.slice(0, -1)) o = o && typeof o === 'object' ? o[k] : undefined;
    if (o && typeof o === 'object') delete o[keys[keys.length - 1]];
    const top = keys[0];
    const had = before && typeof before === 'object' && top in (before as object);
    if (keys.length > 1 && !had && copy[top] && typeof copy[top] === 'object' && Object.keys(copy[top]).length === 0) delete copy[top];
  }
  return copy;
}

/** For comparison: objects emptied (of our entries, by the client) count as absent, and an absent file as `{}`. */
function pruned(v: unknown): unknown {
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const p = pruned(x);
    if (!(p && typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0 && typeof x === 'object')) out[k] = p;
  }
  return out;
}

/** Before the client's uninstall: which created paths are still as the install left them. */
export function untouchedSinceInstall(agent: Agent): { untouched: Set<string>; present: Set<string> } | null {
  const r = recorded(agent);
  if (!r) return null;
  const { file, snap, fp } = r;
  const untouched = new Set(Object.entries(snap.created).filter(([q, f]) => fingerprint(q) === f).map(([q]) => q));
  return { untouched, present: new Set(newEntries(snap, fp, new Set([file]))) };
}

/**
 * After the client's uninstall: each client file back as it was before the first install (byte for byte when it
 * is unchanged but for git-handoff's entries), what the install (or this uninstall) created and nobody changed
 * removed, and a message for each.
 */
export function restoreAfterUninstall(agent: Agent, pre: ReturnType<typeof untouchedSinceInstall>): string[] {
  const r = recorded(agent);
  if (!pre || !r) return [];
  const { file, snap, fp } = r;
  const msgs: string[] = [];
  for (const f of fp.files) {
    const saved = snap.files[f.file] === null || snap.files[f.file] === undefined ? null : Buffer.from(snap.files[f.file]!, 'base64');
    const now = existsSync(f.file) ? readFileSync(f.file) : null;
    if (now === null && saved === null) continue;
    if (now !== null && saved !== null && now.equals(saved)) continue;
    const before = parse(saved);
    if (canonical(pruned(withoutOurs(parse(now), f.ours, before))) === canonical(pruned(withoutOurs(before, f.ours, before)))) {
      if (saved === null) {
        unlinkSync(f.file);
        msgs.push(`${tilde(f.file)}: deleted (install created it; nothing else is in it)`);
      } else {
        writeFileSync(f.file, saved);
        msgs.push(`${tilde(f.file)}: restored byte for byte from the copy saved before install`);
      }
    } else {
      msgs.push(`${tilde(f.file)}: changed since install, so left as it is${f.changedBy ? ` (${f.changedBy})` : ''}`);
    }
  }
  const left: string[] = [];
  for (const q of newEntries(snap, fp, new Set([file]))) {
    // created by the install and unchanged, or by the client while uninstalling; anything else is the user's
    if (q === fp.cache) {
      rmSync(q, { recursive: true, force: true });
      // and this run does not write its code cache back into it at exit (load.ts)
      process.env.GIT_HANDOFF_CODE_CACHE = '0';
      msgs.push(`${tilde(q)}: removed (git-handoff's cache, new since install)`);
    } else if (q in snap.created ? pre.untouched.has(q) : !pre.present.has(q)) {
      rmSync(q, { recursive: true, force: true });
      msgs.push(`${tilde(q)}: removed (${q in snap.created ? 'created by install, unchanged since' : 'created by the client while uninstalling'})`);
    } else if (q in snap.created) left.push(q);
  }
  unlinkSync(file);
  for (const p of removeEmptyCreated(snap, fp)) msgs.push(`${tilde(p)}: removed (an empty folder install created)`);
  const kept = left.filter((q) => existsSync(q));
  if (kept.length) msgs.push(`left, as they changed after install: ${kept.map((q) => tilde(q)).join(', ')}`);
  return msgs;
}

/** An install that failed before the client changed anything: its snapshot, and the empty folders it made, go. */
export function forgetInstall(agent: Agent): void {
  const r = recorded(agent);
  if (!r) return;
  unlinkSync(r.file);
  removeEmptyCreated(r.snap, r.fp);
}
