// Reads the git configuration a command needs in one process: handoff.* settings and the identity keys.
import path from 'node:path';
import { readConfigInProcess } from './config-read';
import type { Config } from './storage';
import type { Repo } from './run';

export type { Config } from './storage';
export { configBool, configValue } from './config-values';

// the configuration read last for each repository: what src/git/loose.ts needs to write objects as git would
const known = new WeakMap<Repo, Config>();
export const knownConfig = (repo: Repo): Config | undefined => known.get(repo);

export function readConfig(repo: Repo): Config {
  // in this process where the files are plain (config-read.ts), exactly as git would print them
  const own = readConfigInProcess(repo, SETTINGS);
  if (own) {
    known.set(repo, own);
    return own;
  }
  // core., commit. and i18n. for the objects this process writes itself (src/git/loose.ts)
  const r = repo.git(['config', '-z', '--get-regexp', SETTINGS.source], { allowFail: true });
  const map: Config = new Map();
  for (const entry of r.stdout.split('\0')) {
    if (!entry) continue;
    const [key, value] = keyValue(entry);
    (map.get(key) ?? map.set(key, []).get(key)!).push(value);
  }
  if (r.status === 0 || r.status === 1) known.set(repo, map);
  return map;
}

const SETTINGS = /^(handoff|user|author|committer|core|commit|i18n)\./;

/** A `git config -z` entry: its key (lower case) and value (a key alone, a boolean set, is "true"). */
function keyValue(entry: string): [string, string] {
  const nl = entry.indexOf('\n');
  return nl === -1 ? [entry.toLowerCase(), 'true'] : [entry.slice(0, nl).toLowerCase(), entry.slice(nl + 1)];
}

/**
 * readConfig's settings and every configuration file git read or would read for them (the files entries came from,
 * and every include.path / includeIf.*.path target, found or not), in the one process readConfig starts.
 */
export function readConfigFiles(repo: Repo, home: string): { config: Config; files: string[] } {
  const r = repo.git(['config', '-z', '--list', '--show-origin'], { allowFail: true });
  const map: Config = new Map();
  const files = new Set<string>();
  const parts = r.stdout.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const origin = parts[i];
    const entry = parts[i + 1];
    const file = origin.startsWith('file:') ? path.resolve(repo.cwd, origin.slice(5)) : null;
    if (file) files.add(file);
    const [key, value] = keyValue(entry);
    if (/^(include\.path|includeif\..+\.path)$/.test(key) && value) {
      const target = value.replace(/^~(?=\/|$)/, home);
      files.add(path.isAbsolute(target) ? target : path.resolve(file ? path.dirname(file) : repo.cwd, target));
    }
    if (!SETTINGS.test(key)) continue;
    (map.get(key) ?? map.set(key, []).get(key)!).push(value);
  }
  if (r.status === 0 || r.status === 1) known.set(repo, map);
  return { config: map, files: [...files] };
}

/** Names of the configured remotes, from one `git remote`. */
export function remoteNames(repo: Repo): string[] {
  return repo.out(['remote']).split('\n').filter(Boolean);
}
