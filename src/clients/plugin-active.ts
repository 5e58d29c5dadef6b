// Never twice: with the plugin (extension) enabled here, its folder and launcher present, a project's hook defers to it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../terminal-text';
import { projectDir, projectFiles, userDir } from './places';
import { readJsonOr } from '../read-file';

export const PLUGIN_FLAG = '--plugin';
/** The plugin's (extension's) name, and its marketplace's in Claude Code: `git-handoff@git-handoff`. */
export const PLUGIN_NAME = 'git-handoff';

type Env = NodeJS.ProcessEnv;

const runnable = (dir: unknown): dir is string => typeof dir === 'string' && existsSync(path.join(dir, 'bin', 'git-handoff')) && existsSync(path.join(dir, 'dist', 'guard.cjs'));

/** `dir` and its parents, nearest first. */
export function upFrom(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

export const claudeConfigDir = (env: Env) => userDir('claude-code', env);

/** The project folder Claude Code reads settings from: the nearest folder up from cwd with a .claude/settings*.json. */
function claudeProject(cwd: string, env: Env): string | null {
  const config = path.resolve(claudeConfigDir(env));
  for (const d of upFrom(cwd)) {
    if (path.join(d, projectDir('claude-code')) === config) continue;
    if (projectFiles('claude-code', d).some((f) => existsSync(f))) return d;
  }
  return null;
}

/** An installed copy of the git-handoff plugin (extension) as its client sees it from a folder. */
export interface PluginCopy {
  /** Claude Code's id and scope of the install (it may have several) */
  id?: string;
  scope?: string;
  /** the folder the client loads it from: a directory marketplace's own folder (read in place), else its copy */
  folder: string | null;
  enabled: boolean;
  /** the folder and its launcher are there */
  present: boolean;
  /** where the client's installer took it from */
  source?: string;
  /** the client's command that enables it */
  enable: string;
}

/** A directory marketplace's plugins load in place from its folder (moved away, they silently fail to load). */
function liveFolder(config: string, id: string, installPath: unknown): string | null {
  const market = readJsonOr(path.join(config, 'plugins', 'known_marketplaces.json'))?.[id.split('@')[1] ?? ''];
  if (market?.source?.source !== 'directory') return typeof installPath === 'string' ? installPath : null;
  const root = String(market.installLocation ?? market.source.path ?? '');
  const listed = readJsonOr(path.join(root, '.claude-plugin', 'marketplace.json'))?.plugins?.find((p: any) => p?.name === PLUGIN_NAME);
  return typeof listed?.source === 'string' ? path.resolve(root, listed.source) : null;
}

/** The git-handoff plugin as Claude Code sees it from `cwd`: installed (any marketplace), enabled, its folder. */
export function claudePlugins(cwd: string, env: Env = process.env): PluginCopy[] {
  const config = claudeConfigDir(env);
  const installed = readJsonOr(path.join(config, 'plugins', 'installed_plugins.json'))?.plugins;
  if (!installed || typeof installed !== 'object') return [];
  const project = claudeProject(cwd, env);
  // user, then project, then local settings: a later layer's value wins
  const layers = [path.join(config, 'settings.json'), ...(project ? projectFiles('claude-code', project) : [])];
  const enabled: Record<string, boolean> = {};
  for (const f of layers) {
    const e = readJsonOr(f)?.enabledPlugins;
    if (e && typeof e === 'object') for (const [k, v] of Object.entries(e)) enabled[k] = v === true;
  }
  const out: PluginCopy[] = [];
  for (const [id, entries] of Object.entries(installed)) {
    if (id.split('@')[0] !== PLUGIN_NAME || !Array.isArray(entries)) continue;
    for (const x of entries as any[]) {
      // a project- or local-scope install belongs to its own project only
      if (x?.scope !== 'user' && x?.projectPath && (!project || path.resolve(x.projectPath) !== path.resolve(project))) continue;
      const folder = liveFolder(config, id, x?.installPath);
      out.push({ id, scope: String(x?.scope ?? 'user'), folder, enabled: enabled[id] === true, present: runnable(folder), enable: `claude plugin enable ${id}` });
    }
  }
  return out;
}

export const geminiExtensionDir = (env: Env) => path.join(userDir('gemini-cli', env), 'extensions', PLUGIN_NAME);

/** Whether Gemini CLI's enablement overrides leave the extension on for `cwd` (the last matching override wins). */
export function geminiEnabledFor(cwd: string, env: Env = process.env): boolean {
  const overrides = readJsonOr(path.join(userDir('gemini-cli', env), 'extensions', 'extension-enablement.json'))?.[PLUGIN_NAME]?.overrides;
  let on = true;
  if (!Array.isArray(overrides)) return on;
  const here = path.resolve(cwd) + '/';
  for (const o of overrides) {
    if (typeof o !== 'string') continue;
    const neg = o.startsWith('!');
    const base = (neg ? o.slice(1) : o).replace(/\*$/, '');
    if (base.endsWith('/') ? here.startsWith(base) : here === base + '/') on = !neg;
  }
  return on;
}

/** The copies of the git-handoff plugin (extension) `client` has installed, as it sees them from `cwd`. */
export function pluginCopies(client: string, cwd: string, env: Env = process.env): PluginCopy[] {
  if (client === 'claude-code') return claudePlugins(cwd, env);
  const ext = geminiExtensionDir(env);
  if (client !== 'gemini-cli' || !existsSync(ext)) return [];
  const source = readJsonOr(path.join(ext, '.gemini-extension-install.json'))?.source;
  return [{ folder: ext, enabled: geminiEnabledFor(cwd, env), present: runnable(ext), source, enable: `gemini extensions enable ${PLUGIN_NAME}` }];
}

/** Whether a plugin or extension hook of this client answers this event, so the project's hook must not. */
export function pluginAnswers(client: string, cwd: string, env: Env = process.env): boolean {
  try {
    return pluginCopies(client, cwd, env).some((p) => p.enabled && p.present);
  } catch {
    /* unsure: answer ourselves */
  }
  return false;
}

/** This guard run (of `client`, as its wiring names it or its payload shows) is a project hook that a plugin or extension hook duplicates. */
export function deferToPlugin(argv: readonly string[], client: string, cwd: string, env: Env = process.env): boolean {
  return !argv.includes(PLUGIN_FLAG) && pluginAnswers(client, cwd, env);
}

/** Gemini CLI puts no extension folder on its shell's PATH: a `git handoff` command the extension checks gets its bin/ first. */
export function pluginPathPrefix(client: string, env: Env, argv: string[] = process.argv, binDir = path.resolve(__dirname, '..', 'bin')): string | null {
  if (client !== 'gemini-cli' || !argv.includes(PLUGIN_FLAG) || !existsSync(path.join(binDir, 'git-handoff'))) return null;
  if ((env.PATH ?? '').split(path.delimiter).includes(binDir)) return null;
  return `export PATH=${shellQuote(binDir)}:"$PATH";`;
}
