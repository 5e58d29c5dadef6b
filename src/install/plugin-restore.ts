// What `install --agent claude --plugin` / `--agent gemini --extension` changed in HOME, so `uninstall` can give
// it back: the bytes of each client file the client's own installer rewrites (saved before it runs), and the
// files and folders the install created (their fingerprint when it finished). Uninstall restores a file byte for
// byte when, without git-handoff's own entries, it is still as it was; it deletes what the install created and
// nobody changed since; and it says which of the two it did, or why it left something.
import { createHash } from '../lazy-crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MARKETPLACE_NAME, PLUGIN_NAME } from './plugin-folders';
import { userCacheDir, userDataDir, userHome } from '../user-dirs';
import { trustFile, userDir } from '../clients/places';
import { canonical } from '../clients/codex-trust';

type Env = NodeJS.ProcessEnv;
type RestoreAgent = 'claude' | 'gemini';

/** A client file and the entries git-handoff's install adds to it (paths of keys in its JSON). */
interface ClientFile {
  file: string;
  ours: string[][];
}

/** The folders whose direct entries an install may create (in HOME, only the client's own), and the client files it rewrites. */
interface Footprint {
  parents: string[];
  only: Record<string, string[]>;
  files: ClientFile[];
  /** git-handoff's own cache folder: new since the first install, it goes whatever it holds (a cache, refilled on use) */
  cache: string;
}

const home = userHome;
export const dataRoot = (env: Env = process.env) => userDataDir(env);
const snapshotFile = (agent: RestoreAgent, env: Env) => path.join(dataRoot(env), `before-${agent}-install.json`);

function footprint(agent: RestoreAgent, env: Env, source?: string): Footprint {
  const data = path.dirname(dataRoot(env));
  const cache = userCacheDir(env);
  const cacheRoot = path.dirname(cache);
  // the cache root is a parent too (only its git-handoff entry), so a ~/.cache the install made goes when emptied
  const dataParents = [path.dirname(data), data, dataRoot(env), cacheRoot];
  const only = (names: string[]) => ({ [home(env)]: [...names, path.relative(home(env), dataParents[0])], [cacheRoot]: ['git-handoff'] });
  if (agent === 'claude') {
    const dir = userDir('claude-code', env);
    const plugin = `${PLUGIN_NAME}@${MARKETPLACE_NAME}`;
    return {
      parents: [home(env), dir, path.join(dir, 'plugins'), path.join(dir, 'plugins', 'cache'), path.join(dir, 'plugins', 'marketplaces'), ...dataParents],
      only: only(['.claude.json', path.basename(dir)]),
      files: [
        { file: path.join(dir, 'settings.json'), ours: [['enabledPlugins', plugin], ['extraKnownMarketplaces', MARKETPLACE_NAME]] },
        { file: path.join(dir, 'plugins', 'known_marketplaces.json'), ours: [[MARKETPLACE_NAME]] },
        { file: path.join(dir, 'plugins', 'installed_plugins.json'), ours: [['plugins', plugin], ['version']] },
      ],
      cache,
    };
  }
  const dir = userDir('gemini-cli', env);
  const src = source ?? path.join(dataRoot(env), 'gemini-extension');
  return {
    parents: [home(env), dir, path.join(dir, 'extensions'), path.join(dir, 'history'), path.join(dir, 'tmp'), ...dataParents],
    only: only([path.basename(dir)]),
    files: [
      { file: trustFile('gemini-cli', env), ours: [[src]] },
      // its top-level signature covers the store: restored with the bytes, ignored in the comparison
      { file: path.join(dir, 'extension_integrity.json'), ours: [['store', PLUGIN_NAME], ['signature']] },
      { file: path.join(dir, 'extensions', 'extension-enablement.json'), ours: [[PLUGIN_NAME]] },
      { file: path.join(dir, 'projects.json'), ours: [['projects', src]] },
    ],
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
export function beforeInstall(agent: RestoreAgent, env: Env = process.env, source?: string): boolean {
  const file = snapshotFile(agent, env);
  if (existsSync(file)) return false;
  const fp = footprint(agent, env, source);
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

/** After the client's installer: the fingerprint of everything the install created. */
export function afterInstall(agent: RestoreAgent, keep: string[], env: Env = process.env, source?: string): void {
  const file = snapshotFile(agent, env);
  const snap: Snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const fp = footprint(agent, env, source);
  snap.created = {};
  for (const q of newEntries(snap, fp, new Set([file, ...keep]))) snap.created[q] = fingerprint(q);
  writeFileSync(file, JSON.stringify(snap));
}

const tilde = (p: string, env: Env) => (p.startsWith(home(env) + path.sep) ? `~${p.slice(home(env).length)}` : p);

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
export function untouchedSinceInstall(agent: RestoreAgent, env: Env = process.env): { untouched: Set<string>; present: Set<string> } | null {
  const file = snapshotFile(agent, env);
  if (!existsSync(file)) return null;
  const snap: Snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const fp = footprint(agent, env);
  const untouched = new Set(Object.entries(snap.created).filter(([q, f]) => fingerprint(q) === f).map(([q]) => q));
  return { untouched, present: new Set(newEntries(snap, fp, new Set([file]))) };
}

/**
 * After the client's uninstall: each client file back as it was before the first install (byte for byte when it
 * is unchanged but for git-handoff's entries), what the install (or this uninstall) created and nobody changed
 * removed, and a message for each.
 */
export function restoreAfterUninstall(agent: RestoreAgent, pre: ReturnType<typeof untouchedSinceInstall>, env: Env = process.env, source?: string): string[] {
  const file = snapshotFile(agent, env);
  if (!pre || !existsSync(file)) return [];
  const snap: Snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const fp = footprint(agent, env, source);
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
        msgs.push(`${tilde(f.file, env)}: deleted (install created it; nothing else is in it)`);
      } else {
        writeFileSync(f.file, saved);
        msgs.push(`${tilde(f.file, env)}: restored byte for byte from the copy saved before install`);
      }
    } else {
      msgs.push(`${tilde(f.file, env)}: changed since install, so left as it is${agent === 'claude' && f.file.endsWith('settings.json') ? ' (Claude Code removed the plugin from it)' : ''}`);
    }
  }
  const left: string[] = [];
  for (const q of newEntries(snap, fp, new Set([file]))) {
    // created by the install and unchanged, or by the client while uninstalling; anything else is the user's
    if (q === fp.cache) {
      rmSync(q, { recursive: true, force: true });
      // and this run does not write its code cache back into it at exit (load.ts)
      env.GIT_HANDOFF_CODE_CACHE = '0';
      msgs.push(`${tilde(q, env)}: removed (git-handoff's cache, new since install)`);
    } else if (q in snap.created ? pre.untouched.has(q) : !pre.present.has(q)) {
      rmSync(q, { recursive: true, force: true });
      msgs.push(`${tilde(q, env)}: removed (${q in snap.created ? 'created by install, unchanged since' : 'created by the client while uninstalling'})`);
    } else if (q in snap.created) left.push(q);
  }
  unlinkSync(file);
  // folders the install created, left empty (deepest first)
  for (const p of [...fp.parents].reverse()) {
    if (snap.entries[p] === null && listOf(p)?.length === 0) {
      rmdirSync(p);
      msgs.push(`${tilde(p, env)}: removed (an empty folder install created)`);
    }
  }
  const kept = left.filter((q) => existsSync(q));
  if (kept.length) msgs.push(`left, as they changed after install: ${kept.map((q) => tilde(q, env)).join(', ')}`);
  return msgs;
}

/** An install that failed before the client changed anything: its snapshot, and the empty folders it made, go. */
export function forgetInstall(agent: RestoreAgent, env: Env = process.env): void {
  const file = snapshotFile(agent, env);
  if (!existsSync(file)) return;
  const snap: Snapshot = JSON.parse(readFileSync(file, 'utf8'));
  unlinkSync(file);
  for (const p of [...footprint(agent, env).parents].reverse()) if (snap.entries[p] === null && listOf(p)?.length === 0) rmdirSync(p);
}
