// `install --agent <agent> --plugin` (`--extension`, ClientRecord.plugin): the client's own install commands run for
// the user (uninstall reverses them); `doctor` reports what each client will load and which git-handoff it runs.
import { spawnSync } from '../process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';
import { probeCommand, wiredHere, WIRING } from './agents';
import { claudeConfigDir, PLUGIN_NAME, pluginCopies } from '../clients/plugin-active';
import { afterInstall, beforeInstall, forgetInstall, listOf, restoreAfterUninstall, untouchedSinceInstall } from './plugin-restore';
import { readJsonOr } from '../read-file';
import { userDataDir } from '../user-dirs';
import { AGENT_CLIENT, type Agent } from '../clients/names';
import { PLUGIN_AGENTS, pluginOf } from '../clients/records';

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
  const fresh = beforeInstall(agent);
  try {
    const msgs = installThrough(repo, agent);
    afterInstall(agent, PLUGIN_AGENTS.map(sourceOf));
    return msgs;
  } catch (e) {
    if (fresh) forgetInstall(agent);
    throw e;
  }
}

// the client's program is its install --agent name
function installThrough(repo: Repo | null, agent: Agent): string[] {
  const source = sourceOf(agent);
  if (pluginOf(agent).word === 'plugin') {
    const market = source;
    rmSync(market, { recursive: true, force: true });
    mkdirSync(path.join(market, '.claude-plugin'), { recursive: true });
    assemble(pluginOf(agent).folder, path.join(market, PLUGIN_NAME));
    const plugin = JSON.parse(readFileSync(path.join(market, PLUGIN_NAME, '.claude-plugin', 'plugin.json'), 'utf8'));
    const manifest = { name: PLUGIN_NAME, owner: plugin.author, description: `git-handoff, installed by \`git handoff install --agent ${agent} --plugin\``, plugins: [{ name: PLUGIN_NAME, source: `./${PLUGIN_NAME}`, description: plugin.description, version: plugin.version }] };
    writeFileSync(path.join(market, '.claude-plugin', 'marketplace.json'), JSON.stringify(manifest, null, 2) + '\n');
    let added: string;
    try {
      added = run(agent, ['plugin', 'marketplace', 'add', market]);
    } catch (e) {
      // nothing left behind when Claude Code could not take it
      rmSync(market, { recursive: true, force: true });
      throw e;
    }
    return [
      `${market}: the git-handoff ${plugin.version} plugin and its marketplace`,
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
  const pre = untouchedSinceInstall(agent);
  const msgs = uninstallThrough(agent);
  const restored = restoreAfterUninstall(agent, pre);
  // git-handoff's own data folder, emptied (an install with no record of what it made: a refused one of an older build)
  const data = userDataDir();
  if (listOf(data)?.length === 0) {
    rmdirSync(data);
    restored.push(`${data}: removed (git-handoff's data folder, left empty)`);
  }
  return msgs.length || restored.length ? [...msgs, ...restored] : [`the git-handoff ${pluginOf(agent).word} is not installed in ${pluginOf(agent).title}`];
}

function uninstallThrough(agent: Agent): string[] {
  const source = sourceOf(agent);
  if (pluginOf(agent).word === 'plugin') {
    const msgs: string[] = [];
    if (hasCopy(agent)) msgs.push(`${agent} plugin uninstall: ${run(agent, ['plugin', 'uninstall', PLUGIN_ID, '--scope', 'user'])}`);
    const known = readJsonOr(path.join(claudeConfigDir(process.env), 'plugins', 'known_marketplaces.json'));
    if (known?.[PLUGIN_NAME]) msgs.push(`${agent} plugin marketplace remove: ${run(agent, ['plugin', 'marketplace', 'remove', PLUGIN_NAME])}`);
    if (existsSync(source)) {
      rmSync(source, { recursive: true, force: true });
      msgs.push(`${source}: removed`);
    }
    // Claude Code keeps a copy of each installed plugin, marked orphaned on uninstall: ours goes now
    const cache = path.join(claudeConfigDir(process.env), 'plugins', 'cache', PLUGIN_NAME);
    if (existsSync(cache)) {
      rmSync(cache, { recursive: true, force: true });
      msgs.push(`${cache}: removed (Claude Code's copy of the plugin)`);
    }
    return msgs;
  }
  const msgs: string[] = [];
  if (hasCopy(agent)) msgs.push(`${agent} extensions uninstall: ${run(agent, ['extensions', 'uninstall', PLUGIN_NAME], '', existsSync(source) ? source : undefined)}`);
  if (existsSync(source)) {
    rmSync(source, { recursive: true, force: true });
    msgs.push(`${source}: removed (the copy the extension was installed from)`);
  }
  return msgs;
}

/** The guard command a plugin folder's hooks.json runs, with the client's root variable filled in. */
function folderGuard(folder: string, variable: string): string | null {
  const hooks = readJsonOr(path.join(folder, 'hooks', 'hooks.json'))?.hooks;
  const first = hooks && (Object.values(hooks)[0] as any[])?.[0]?.hooks?.[0]?.command;
  return typeof first === 'string' ? first.split(variable).join(folder) : null;
}

/** The version in a git-handoff folder's package.json (this one's: beside dist/). */
const versionIn = (folder: string): string | null => readJsonOr(path.join(folder, 'package.json'))?.version ?? null;

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
