// `install --agent <agent> --plugin` (`--extension`, ClientRecord.plugin): the client's own install commands run for
// the user (uninstall reverses them); `doctor` reports what each client will load and which git-handoff it runs.
// What the install changed in HOME is kept so `uninstall` can give it back: the bytes of each client file the client's own
// installer rewrites (saved before it runs), and the files and folders the install created (their fingerprint when it
// finished). Uninstall restores a file byte for byte when, without git-handoff's own entries, it is still as it was; it
// deletes what the install created and nobody changed since; and it says which of the two it did, or why it left something.
import { spawnSync } from '../process';
import { createHash } from '../lazy-crypto';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';
import { probeCommand, wiredHere } from './agents';
import { valueAt } from './native';
import { claudeConfigDir, PLUGIN_NAME, pluginCopies } from '../clients/plugin-active';
import { readJsonOr } from '../read-file';
import { userCacheDir, userDataDir, userHome } from '../user-dirs';
import { AGENT_CLIENT, type Agent } from '../clients/names';
import { PLUGIN_AGENTS, pluginOf, WIRING } from '../clients/records';
import type { RewrittenFile } from '../clients/record';
import { userDir } from '../clients/places';
import { canonical } from '../clients/hook-files';

/** Claude Code's id of the plugin: in a marketplace of its own name. */
const PLUGIN_ID = `${PLUGIN_NAME}@${PLUGIN_NAME}`;

/** A folder the build wrote beside this bundle (dist/<ClientRecord.plugin.folder>). */
function built(folder: string): string {
  const dir = path.resolve(__dirname, folder);
  if (!existsSync(path.join(dir, 'bin', 'git-handoff'))) {
    throw new HandoffError('environment', 'plugin-not-built', `${dir} is missing: this git-handoff was not built with its plugin folders (run \`npm run build\` in its checkout, or install the npm package)`);
  }
  return dir;
}

/**
 * A complete copy of a built folder at `to`. The npm package ships the bundles once, in dist/ (not again in each
 * folder): the copy gets every bundle from beside this one that it lacks.
 */
function assemble(folder: string, to: string): string {
  const from = built(folder);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  const into = path.join(to, 'dist');
  mkdirSync(into, { recursive: true });
  for (const f of readdirSync(__dirname)) if (f.endsWith('.cjs') && !existsSync(path.join(into, f))) copyFileSync(path.join(__dirname, f), path.join(into, f));
  return to;
}

/**
 * Where a client installs the package from, in the user's data folder, not in an npx cache or a checkout that may
 * move: a directory marketplace is read in place; an extension's installer records where it came from.
 */
const sourceOf = (agent: Agent) => path.join(userDataDir(), pluginOf(agent).source);

function run(program: string, args: string[], input?: string, cwd?: string): string {
  const r = spawnSync(program, args, { input: input ?? '', cwd, encoding: 'utf8', timeout: 180_000, stdio: ['pipe', 'pipe', 'pipe'] });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new HandoffError('environment', 'client-missing', `\`${program}\` is not on PATH: install the client first, or use \`git handoff install --agent ${program}\` for this repository alone`);
  }
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.status !== 0) throw new HandoffError('environment', 'client-install-failed', `\`${program} ${args.join(' ')}\` failed (${r.error?.message ?? `exit ${r.status}`}): ${out.slice(0, 500)}`);
  return out.split('\n').filter(Boolean).pop() ?? '';
}

/** Whether the repository's own wiring for the agent's client is there. */
const wiredInRepo = (repo: Repo | null, agent: Agent) => !!repo?.worktree && wiredHere(WIRING[agent], repo.worktree);

const twiceNote = (repo: Repo | null, agent: Agent) =>
  wiredInRepo(repo, agent) ? [`${WIRING[agent].settings} wires the guard too: those project hooks defer to the ${pluginOf(agent).word}, so each event is answered once`] : [];

/** Whether the client has a copy of the package installed (for anyone: enabled here or not). */
const hasCopy = (agent: Agent) => pluginCopies(AGENT_CLIENT[agent], process.cwd()).length > 0;

export function installPlugin(repo: Repo | null, agent: Agent): string[] {
  // what HOME holds before the client's installer runs (kept from the first install when one is on record)
  const earlier = recorded(agent);
  const { file, snap, fp } = earlier ?? saveSnapshot(agent);
  try {
    const msgs = installThrough(repo, agent);
    const created = newEntries(snap, fp, new Set([file, ...PLUGIN_AGENTS.map(sourceOf)]));
    writeFileSync(file, JSON.stringify({ ...snap, created: Object.fromEntries(created.map((q) => [q, fingerprint(q)])) }));
    return msgs;
  } catch (e) {
    // an install that failed before the client changed anything: its snapshot, and the empty folders it made, go
    if (!earlier) {
      unlinkSync(file);
      removeEmptyCreated(snap, fp);
    }
    throw e;
  }
}

// the client's program is its install --agent name
function installThrough(repo: Repo | null, agent: Agent): string[] {
  const source = sourceOf(agent);
  if (pluginOf(agent).word === 'plugin') {
    rmSync(source, { recursive: true, force: true });
    mkdirSync(path.join(source, '.claude-plugin'), { recursive: true });
    assemble(pluginOf(agent).folder, path.join(source, PLUGIN_NAME));
    const plugin = JSON.parse(readFileSync(path.join(source, PLUGIN_NAME, '.claude-plugin', 'plugin.json'), 'utf8'));
    const manifest = { name: PLUGIN_NAME, owner: plugin.author, description: `git-handoff, installed by \`git handoff install --agent ${agent} --plugin\``, plugins: [{ name: PLUGIN_NAME, source: `./${PLUGIN_NAME}`, description: plugin.description, version: plugin.version }] };
    writeFileSync(path.join(source, '.claude-plugin', 'marketplace.json'), JSON.stringify(manifest, null, 2) + '\n');
    let added: string;
    try {
      added = run(agent, ['plugin', 'marketplace', 'add', source]);
    } catch (e) {
      // nothing left behind when Claude Code could not take it
      rmSync(source, { recursive: true, force: true });
      throw e;
    }
    return [
      `${source}: the git-handoff ${plugin.version} plugin and its marketplace`,
      `${agent} plugin marketplace add: ${added}`,
      `${agent} plugin install: ${run(agent, ['plugin', 'install', PLUGIN_ID, '--scope', 'user'])}`,
      ...twiceNote(repo, agent),
    ];
  }
  // installed from a complete copy in the user's data folder (Gemini CLI records where it came from)
  assemble(pluginOf(agent).folder, source);
  const msgs: string[] = [];
  try {
    // an installed copy is replaced by this version's
    if (hasCopy(agent)) msgs.push(`${agent} extensions uninstall: ${run(agent, ['extensions', 'uninstall', PLUGIN_NAME], '', source)}`);
    // `install` asks whether to trust the folder it runs in (the user asked for this install): run in our own copy,
    // so no other folder (the repository the command was typed in) becomes trusted
    msgs.push(`${agent} extensions install: ${run(agent, ['extensions', 'install', source, '--consent'], 'y\n', source)}`);
  } catch (e) {
    // nothing left behind when Gemini CLI is missing or could not take it (Gemini CLI keeps its own copy of an installed extension)
    rmSync(source, { recursive: true, force: true });
    throw e;
  }
  return [...msgs, ...twiceNote(repo, agent)];
}

export function uninstallPlugin(agent: Agent): string[] {
  const r = recorded(agent);
  // before the client's uninstall: which created paths are still as the install left them
  const untouched = new Set(Object.entries(r?.snap.created ?? {}).filter(([q, f]) => fingerprint(q) === f).map(([q]) => q));
  const present = new Set(r ? newEntries(r.snap, r.fp, new Set([r.file])) : []);
  const msgs = uninstallThrough(agent);
  const restored = r ? restoreAfterUninstall(r, untouched, present) : [];
  // git-handoff's own data folder, emptied (an install with no record of what it made: a refused one of an older build)
  const data = userDataDir();
  if (listOf(data)?.length === 0) {
    rmdirSync(data);
    restored.push(`${data}: removed (git-handoff's data folder, left empty)`);
  }
  return msgs.length || restored.length ? [...msgs, ...restored] : [`the git-handoff ${pluginOf(agent).word} is not installed in ${pluginOf(agent).title}`];
}

const removed = (p: string, why = ''): string[] => (existsSync(p) ? (rmSync(p, { recursive: true, force: true }), [`${p}: removed${why}`]) : []);

function uninstallThrough(agent: Agent): string[] {
  const source = sourceOf(agent);
  const msgs: string[] = [];
  if (pluginOf(agent).word === 'plugin') {
    if (hasCopy(agent)) msgs.push(`${agent} plugin uninstall: ${run(agent, ['plugin', 'uninstall', PLUGIN_ID, '--scope', 'user'])}`);
    const known = readJsonOr(path.join(claudeConfigDir(process.env), 'plugins', 'known_marketplaces.json'));
    if (known?.[PLUGIN_NAME]) msgs.push(`${agent} plugin marketplace remove: ${run(agent, ['plugin', 'marketplace', 'remove', PLUGIN_NAME])}`);
    // Claude Code keeps a copy of each installed plugin, marked orphaned on uninstall: ours goes now
    const cache = path.join(claudeConfigDir(process.env), 'plugins', 'cache', PLUGIN_NAME);
    return [...msgs, ...removed(source), ...removed(cache, " (Claude Code's copy of the plugin)")];
  }
  if (hasCopy(agent)) msgs.push(`${agent} extensions uninstall: ${run(agent, ['extensions', 'uninstall', PLUGIN_NAME], '', existsSync(source) ? source : undefined)}`);
  return [...msgs, ...removed(source, ' (the copy the extension was installed from)')];
}

/** The guard command a plugin folder's hooks.json runs, with the client's root variable filled in. */
function folderGuard(folder: string, variable: string): string | null {
  const hooks = readJsonOr(path.join(folder, 'hooks', 'hooks.json'))?.hooks;
  const first = hooks && (Object.values(hooks)[0] as any[])?.[0]?.hooks?.[0]?.command;
  return typeof first === 'string' ? first.split(variable).join(folder) : null;
}

/** The version in a git-handoff folder's package.json (this one's: beside dist/). */
export const versionIn = (folder: string): string | null => readJsonOr(path.join(folder, 'package.json'))?.version ?? null;

const runsWhat = (folder: string) => `runs ${path.join(folder, 'bin', 'git-handoff')} (git-handoff ${versionIn(folder) ?? '?'})`;

/** Whether dotted version `a` is older than `b` (numeric parts; anything unreadable is not older). */
function older(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  const x = a.split(/[.+-]/).map(Number);
  const y = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return !Number.isNaN(x[i]) && !Number.isNaN(y[i]) && (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

/** "…; older than this git-handoff (0.2.0): run … again", when the copy a client loads is behind the CLI (doctor: broken). */
function staleNote(folder: string, agent: Agent): string[] {
  const mine = versionIn(path.join(__dirname, '..'));
  return older(versionIn(folder), mine) ? [`older than this git-handoff (${mine}), so the client runs a guard without this build's checks: install again with git handoff install --agent ${agent} --${pluginOf(agent).word}`] : [];
}

export function doctorPlugins(repo: Repo): DoctorItem[] {
  const cwd = repo.worktree ?? process.cwd();
  return PLUGIN_AGENTS.flatMap((agent) => {
    const { word, title } = pluginOf(agent);
    const again = `git handoff install --agent ${agent} --${word}`;
    const copies = pluginCopies(AGENT_CLIENT[agent], cwd);
    if (!copies.length) {
      // the plugin (extension) and the repository's own wiring are two ways to the same hooks: either one is enough
      if (!wiredInRepo(repo, agent)) return [{ component: `${word} ${agent}`, status: 'missing', detail: `the git-handoff ${word} is not installed in ${title} (${again})` }];
      const detail = `not installed; not needed here: this repository is wired for ${title} (agent ${agent} above). It is the other way, for every repository: ${again}`;
      return [{ component: `${word} ${agent}`, status: 'info', detail }];
    }
    return copies.map((c): DoctorItem => {
      const component = c.id ? `${word} ${agent} (${c.id}, ${c.scope})` : `${word} ${agent}`;
      const installed = `installed${c.source ? ` from ${c.source}` : ''}`;
      if (!c.present) return { component, status: c.enabled ? 'broken' : 'info', detail: `${installed}, ${c.enabled ? 'enabled' : 'disabled'}, but its folder ${c.folder ?? '(unknown)'} is missing or incomplete, so ${title} loads nothing: run ${again} again` };
      if (!c.enabled) return { component, status: 'info', detail: `${installed} but disabled here (${c.enable}); ${runsWhat(c.folder!)}` };
      return probed(component, repo, agent, c.folder!, installed);
    });
  });
}

function probed(component: string, repo: Repo, agent: Agent, folder: string, installed: string): DoctorItem {
  const command = folderGuard(folder, pluginOf(agent).root);
  if (!command) return { component, status: 'broken', detail: `${folder}/hooks/hooks.json has no guard hook: install it again` };
  const probe = probeCommand(repo.worktree ?? process.cwd(), agent, command);
  const stale = staleNote(folder, agent);
  // an older copy answers the probe, yet lacks what this build checks: not ok until it is installed again
  return { component, status: probe.ok && !stale.length ? 'ok' : 'broken', detail: [`${installed}, enabled, ${runsWhat(folder)}`, ...stale, probe.detail, ...twiceNote(repo, agent)].join('; ') };
}

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

const listOf = (dir: string): string[] | null => {
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

/** What HOME holds now, saved before the client's installer runs. */
function saveSnapshot(agent: Agent): Recorded {
  const file = snapshotFile(agent);
  const fp = footprint(agent);
  const snap: Snapshot = { entries: {}, files: {}, created: {} };
  for (const p of fp.parents) snap.entries[p] = listOf(p);
  for (const f of fp.files) snap.files[f.file] = existsSync(f.file) ? readFileSync(f.file).toString('base64') : null;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(snap));
  return { file, snap, fp };
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
type Recorded = { file: string; snap: Snapshot; fp: Footprint };
function recorded(agent: Agent): Recorded | null {
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
    const o = valueAt(copy, keys.slice(0, -1));
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

/**
 * After the client's uninstall: each client file back as it was before the first install (byte for byte when it
 * is unchanged but for git-handoff's entries), what the install (or this uninstall) created and nobody changed
 * removed, and a message for each.
 */
function restoreAfterUninstall({ file, snap, fp }: Recorded, untouched: Set<string>, present: Set<string>): string[] {
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
    } else if (q in snap.created ? untouched.has(q) : !present.has(q)) {
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
