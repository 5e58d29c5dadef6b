// Reads the git configuration a command needs in one process: handoff.* settings and the identity keys.
import path from 'node:path';
import { configFiles } from './config-files';
import { fileStamp } from '../read-file';
import { configFile, readConfigInProcess } from './config-read';
import { userHome } from '../user-dirs';
import { addValue } from './config-values';
import type { Config } from './storage';
import type { Repo } from './run';

export type { Config } from './storage';
export { addValue, configBool, configValue, handoffRemoteOf } from './config-values';

// the configuration read last for each repository: what src/git/loose.ts needs to write objects as git would
const known = new WeakMap<Repo, Config>();
export const knownConfig = (repo: Repo): Config | undefined => known.get(repo);

/** One read per fact per process: the configuration and remote names, read again once a file's stamp changed (none kept across includes). */
const kept = new Map<string, { key: string; config?: Config; remotes?: string[] }>();
function keptFor(repo: Repo): { key: string; config?: Config; remotes?: string[] } | null {
  const files = configFiles(repo, process.env);
  const key = [...files.map(fileStamp), process.env.GIT_CONFIG_PARAMETERS, process.env.GIT_CONFIG_COUNT].join('|');
  const where = `${repo.commonDir}\0${repo.gitDir}`;
  const k = kept.get(where);
  if (k?.key === key) return k;
  const fresh = { key };
  if (files.some((f) => /include/i.test(configFile(f).text ?? ''))) return null;
  kept.set(where, fresh);
  return fresh;
}

export function readConfig(repo: Repo): Config {
  const k = keptFor(repo);
  if (!k?.config) return readConfigFiles(repo).config;
  known.set(repo, k.config);
  return k.config;
}

const SETTINGS = /^(handoff|user|author|committer|core|commit|i18n)\./;

/** A `git config -z` entry: its key (as git prints it, or in lower case) and value (a key alone, a boolean set, is "true"). */
export function keyValue(entry: string, lower = false): [string, string] {
  const nl = entry.indexOf('\n');
  const key = nl === -1 ? entry : entry.slice(0, nl);
  return [lower ? key.toLowerCase() : key, nl === -1 ? 'true' : entry.slice(nl + 1)];
}

/**
 * handoff.* settings, the identity keys, and core., commit. and i18n. for the objects this process writes itself
 * (src/git/loose.ts), with every configuration file git read or would read for them (includes' targets too).
 */
export function readConfigFiles(repo: Repo, home = userHome()): { config: Config; files: string[] } {
  // plain files (config-read.ts: none includes another) are read in this process: git would read no other file
  const own = readConfigInProcess(repo, SETTINGS);
  if (own) return { config: keepRead(repo, own), files: configFiles(repo, process.env) };
  const r = repo.git(['config', '-z', '--list', '--show-origin'], { allowFail: true });
  const map: Config = new Map();
  const files = new Set<string>();
  const parts = r.stdout.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const origin = parts[i];
    const entry = parts[i + 1];
    const file = origin.startsWith('file:') ? path.resolve(repo.cwd, origin.slice(5)) : null;
    if (file) files.add(file);
    const [key, value] = keyValue(entry, true);
    if (/^(include\.path|includeif\..+\.path)$/.test(key) && value) {
      const target = value.replace(/^~(?=\/|$)/, home);
      files.add(path.isAbsolute(target) ? target : path.resolve(file ? path.dirname(file) : repo.cwd, target));
    }
    if (SETTINGS.test(key)) addValue(map, key, value);
  }
  return { config: r.status === 0 || r.status === 1 ? keepRead(repo, map) : map, files: [...files] };
}

/** The configuration read whole: known for this repository, and kept for the process while its files stay as they are. */
function keepRead(repo: Repo, config: Config): Config {
  known.set(repo, config);
  const k = keptFor(repo);
  if (k) k.config = config;
  return config;
}

/** Names of the configured remotes as `git remote` prints them: each `remote.<name>.*` section, sorted; git answers where the files are not plain. */
export function remoteNames(repo: Repo): string[] {
  const k = keptFor(repo);
  if (k?.remotes) return [...k.remotes];
  const own = readConfigInProcess(repo, /^remote\..*\./, process.env, true);
  const names = own ? [...new Set([...own.keys()].map((key) => key.slice('remote.'.length, key.lastIndexOf('.'))))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))) : repo.out(['remote']).split('\n').filter(Boolean);
  if (k) k.remotes = names;
  return [...names];
}
