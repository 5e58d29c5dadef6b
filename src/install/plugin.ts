// `install --agent claude --plugin` and `--agent gemini --extension`: the client's own install commands run for
// the user (uninstall reverses them); `doctor` reports what each client will load and which git-handoff it runs.
import { spawnSync } from '../process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';
import { probeCommand, WIRING } from './agents';
import { claudeConfigDir, claudePlugins, geminiEnabledFor, geminiExtensionDir } from '../clients/plugin-active';
import { CLAUDE_FOLDER, GEMINI_FOLDER, MARKETPLACE_NAME, PLUGIN_NAME } from './plugin-folders';
import { afterInstall, beforeInstall, dataRoot, forgetInstall, listOf, restoreAfterUninstall, untouchedSinceInstall } from './plugin-restore';
import { readJsonOr } from '../read-file';
import { userHome } from '../user-dirs';

type PluginAgent = 'claude' | 'gemini';
const PLUGIN_ID = `${PLUGIN_NAME}@${MARKETPLACE_NAME}`;

/** The folders the build wrote beside this bundle (dist/claude-plugin, dist/gemini-extension). */
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
 * Where the Claude Code marketplace is kept: a directory marketplace is read in place, so it lives in the user's
 * data folder, not in an npx cache or a checkout that may move.
 */
const claudeMarketplaceDir = (env: NodeJS.ProcessEnv = process.env) => path.join(env.XDG_DATA_HOME || path.join(userHome(env), '.local', 'share'), 'git-handoff', 'claude-marketplace');

function run(program: string, args: string[], input?: string, cwd?: string): string {
  const r = spawnSync(program, args, { input: input ?? '', cwd, encoding: 'utf8', timeout: 180_000, stdio: ['pipe', 'pipe', 'pipe'] });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new HandoffError('environment', 'client-missing', `\`${program}\` is not on PATH: install the client first, or use \`git handoff install --agent ${program === 'claude' ? 'claude' : 'gemini'}\` for this repository alone`);
  }
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.status !== 0) throw new HandoffError('environment', 'client-install-failed', `\`${program} ${args.join(' ')}\` failed (${r.error?.message ?? `exit ${r.status}`}): ${out.slice(0, 500)}`);
  return out.split('\n').filter(Boolean).pop() ?? '';
}

const projectWired = (repo: Repo | null, agent: PluginAgent): boolean => {
  if (!repo?.worktree) return false;
  try {
    return /git[- ]handoff\S*["']?\s+guard/.test(readFileSync(path.join(repo.worktree, WIRING[agent].settings), 'utf8'));
  } catch {
    return false;
  }
};

const twiceNote = (repo: Repo | null, agent: PluginAgent, what: string) =>
  projectWired(repo, agent) ? [`${WIRING[agent].settings} wires the guard too: those project hooks defer to the ${what}, so each event is answered once`] : [];

export function installPlugin(repo: Repo | null, agent: PluginAgent): string[] {
  const fresh = beforeInstall(agent);
  try {
    const msgs = installThrough(repo, agent);
    afterInstall(agent, [claudeMarketplaceDir(), geminiSource()]);
    return msgs;
  } catch (e) {
    if (fresh) forgetInstall(agent);
    throw e;
  }
}

/** Where the extension Gemini CLI installs from is assembled (it records that folder as the source). */
const geminiSource = () => path.join(path.dirname(claudeMarketplaceDir()), 'gemini-extension');

function installThrough(repo: Repo | null, agent: PluginAgent): string[] {
  if (agent === 'claude') {
    const market = claudeMarketplaceDir();
    rmSync(market, { recursive: true, force: true });
    mkdirSync(path.join(market, '.claude-plugin'), { recursive: true });
    assemble(CLAUDE_FOLDER, path.join(market, PLUGIN_NAME));
    const plugin = JSON.parse(readFileSync(path.join(market, PLUGIN_NAME, '.claude-plugin', 'plugin.json'), 'utf8'));
    const manifest = { name: MARKETPLACE_NAME, owner: plugin.author, description: 'git-handoff, installed by `git handoff install --agent claude --plugin`', plugins: [{ name: PLUGIN_NAME, source: `./${PLUGIN_NAME}`, description: plugin.description, version: plugin.version }] };
    writeFileSync(path.join(market, '.claude-plugin', 'marketplace.json'), JSON.stringify(manifest, null, 2) + '\n');
    let added: string;
    try {
      added = run('claude', ['plugin', 'marketplace', 'add', market]);
    } catch (e) {
      // nothing left behind when Claude Code could not take it
      rmSync(market, { recursive: true, force: true });
      throw e;
    }
    return [
      `${market}: the git-handoff ${plugin.version} plugin and its marketplace`,
      `claude plugin marketplace add: ${added}`,
      `claude plugin install: ${run('claude', ['plugin', 'install', PLUGIN_ID, '--scope', 'user'])}`,
      ...twiceNote(repo, agent, 'plugin'),
    ];
  }
  // installed from a complete copy in the user's data folder (Gemini CLI records where it came from)
  const source = assemble(GEMINI_FOLDER, geminiSource());
  const msgs: string[] = [];
  try {
    // an installed copy is replaced by this version's
    if (existsSync(geminiExtensionDir(process.env))) msgs.push(`gemini extensions uninstall: ${run('gemini', ['extensions', 'uninstall', PLUGIN_NAME], '', source)}`);
    // `install` asks whether to trust the folder it runs in (the user asked for this install): run in our own copy,
    // so no other folder (the repository the command was typed in) becomes trusted
    msgs.push(`gemini extensions install: ${run('gemini', ['extensions', 'install', source, '--consent'], 'y\n', source)}`);
  } catch (e) {
    // nothing left behind when Gemini CLI is missing or could not take it (Gemini CLI keeps its own copy of an installed extension)
    rmSync(source, { recursive: true, force: true });
    throw e;
  }
  return [...msgs, ...twiceNote(repo, agent, 'extension')];
}

export function uninstallPlugin(agent: PluginAgent): string[] {
  const pre = untouchedSinceInstall(agent);
  const msgs = uninstallThrough(agent);
  const restored = restoreAfterUninstall(agent, pre);
  // git-handoff's own data folder, emptied (an install with no record of what it made: a refused one of an older build)
  const data = dataRoot();
  if (listOf(data)?.length === 0) {
    rmdirSync(data);
    restored.push(`${data}: removed (git-handoff's data folder, left empty)`);
  }
  return msgs.length || restored.length ? [...msgs, ...restored] : [`the git-handoff ${agent === 'claude' ? 'plugin is not installed in Claude Code' : 'extension is not installed in Gemini CLI'}`];
}

function uninstallThrough(agent: PluginAgent): string[] {
  if (agent === 'claude') {
    const msgs: string[] = [];
    if (claudePlugins(process.cwd()).length) msgs.push(`claude plugin uninstall: ${run('claude', ['plugin', 'uninstall', PLUGIN_ID, '--scope', 'user'])}`);
    const known = readJsonOr(path.join(claudeConfigDir(process.env), 'plugins', 'known_marketplaces.json'));
    if (known?.[MARKETPLACE_NAME]) msgs.push(`claude plugin marketplace remove: ${run('claude', ['plugin', 'marketplace', 'remove', MARKETPLACE_NAME])}`);
    const market = claudeMarketplaceDir();
    if (existsSync(market)) {
      rmSync(market, { recursive: true, force: true });
      msgs.push(`${market}: removed`);
    }
    // Claude Code keeps a copy of each installed plugin, marked orphaned on uninstall: ours goes now
    const cache = path.join(claudeConfigDir(process.env), 'plugins', 'cache', MARKETPLACE_NAME);
    if (existsSync(cache)) {
      rmSync(cache, { recursive: true, force: true });
      msgs.push(`${cache}: removed (Claude Code's copy of the plugin)`);
    }
    return msgs;
  }
  const msgs: string[] = [];
  if (existsSync(geminiExtensionDir(process.env))) msgs.push(`gemini extensions uninstall: ${run('gemini', ['extensions', 'uninstall', PLUGIN_NAME], '', existsSync(geminiSource()) ? geminiSource() : undefined)}`);
  if (existsSync(geminiSource())) {
    rmSync(geminiSource(), { recursive: true, force: true });
    msgs.push(`${geminiSource()}: removed (the copy the extension was installed from)`);
  }
  return msgs;
}

/** The guard command a plugin folder's hooks.json runs, with the client's root variable filled in. */
function folderGuard(folder: string, variable: string): string | null {
  const hooks = readJsonOr(path.join(folder, 'hooks', 'hooks.json'))?.hooks;
  const first = hooks && (Object.values(hooks)[0] as any[])?.[0]?.hooks?.[0]?.command;
  return typeof first === 'string' ? first.split(variable).join(folder) : null;
}

function runsWhat(folder: string): string {
  const version = readJsonOr(path.join(folder, 'package.json'))?.version ?? '?';
  return `runs ${path.join(folder, 'bin', 'git-handoff')} (git-handoff ${version})`;
}

/** This git-handoff's version (package.json beside dist/). */
const ownVersion = (): string | null => readJsonOr(path.join(__dirname, '..', 'package.json'))?.version ?? null;

/** Whether dotted version `a` is older than `b` (numeric parts; anything unreadable is not older). */
function older(a: string | undefined, b: string | null): boolean {
  if (!a || !b) return false;
  const x = a.split(/[.+-]/).map(Number);
  const y = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return !Number.isNaN(x[i]) && !Number.isNaN(y[i]) && (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

/** "…; older than this git-handoff (0.2.0): run … again", when the copy a client loads is behind the CLI (doctor: broken). */
function staleNote(folder: string, agent: PluginAgent): string[] {
  const copy = readJsonOr(path.join(folder, 'package.json'))?.version;
  const mine = ownVersion();
  return older(copy, mine) ? [`older than this git-handoff (${mine}), so the client runs a guard without this build's checks: install again with git handoff install --agent ${agent} ${agent === 'gemini' ? '--extension' : '--plugin'}`] : [];
}

export function doctorPlugins(repo: Repo): DoctorItem[] {
  const cwd = repo.worktree ?? process.cwd();
  const items: DoctorItem[] = [];
  const plugins = claudePlugins(cwd);
  if (plugins.length === 0) items.push({ component: 'plugin claude', status: 'missing', detail: 'the git-handoff plugin is not installed in Claude Code (git handoff install --agent claude --plugin)' });
  for (const p of plugins) {
    const component = `plugin claude (${p.id}, ${p.scope})`;
    if (!p.present) items.push({ component, status: p.enabled ? 'broken' : 'info', detail: `installed, ${p.enabled ? 'enabled' : 'disabled'}, but its folder ${p.folder ?? '(unknown)'} is missing or incomplete, so Claude Code loads nothing: run git handoff install --agent claude --plugin again` });
    else if (!p.enabled) items.push({ component, status: 'info', detail: `installed but disabled (claude plugin enable ${p.id}); ${runsWhat(p.folder!)}` });
    else items.push(probed(component, cwd, 'claude', p.folder!, '${CLAUDE_PLUGIN_ROOT}', twiceNote(repo, 'claude', 'plugin')));
  }
  const ext = geminiExtensionDir(process.env);
  if (!existsSync(ext)) items.push({ component: 'extension gemini', status: 'missing', detail: 'the git-handoff extension is not installed in Gemini CLI (git handoff install --agent gemini --extension)' });
  else {
    const on = geminiEnabledFor(cwd);
    const source = readJsonOr(path.join(ext, '.gemini-extension-install.json'))?.source;
    const from = source ? ` (installed from ${source})` : '';
    if (!existsSync(path.join(ext, 'bin', 'git-handoff'))) items.push({ component: 'extension gemini', status: on ? 'broken' : 'info', detail: `${ext}${from} lacks bin/git-handoff: run git handoff install --agent gemini --extension again` });
    else if (!on) items.push({ component: 'extension gemini', status: 'info', detail: `installed${from} but disabled here (gemini extensions enable ${PLUGIN_NAME}); ${runsWhat(ext)}` });
    else items.push(probed('extension gemini', cwd, 'gemini', ext, '${extensionPath}', twiceNote(repo, 'gemini', 'extension'), from));
  }
  return items;
}

function probed(component: string, cwd: string, agent: PluginAgent, folder: string, variable: string, notes: string[], from = ''): DoctorItem {
  const command = folderGuard(folder, variable);
  if (!command) return { component, status: 'broken', detail: `${folder}/hooks/hooks.json has no guard hook: install it again` };
  const probe = probeCommand(cwd, agent, command);
  const stale = staleNote(folder, agent);
  // an older copy answers the probe, yet lacks what this build checks: not ok until it is installed again
  return { component, status: probe.ok && !stale.length ? 'ok' : 'broken', detail: [`installed${from}, enabled, ${runsWhat(folder)}`, ...stale, probe.detail, ...notes].join('; ') };
}
