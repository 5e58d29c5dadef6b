// The OpenCode plugin in the user's folder (`install --agent opencode --plugin`), and the empty folders an uninstall leaves.
import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPENCODE_PLUGIN_MARK, opencodePlugin, userPluginFile } from './opencode';
import { readTextOr } from '../read-file';
import { userHome } from '../user-dirs';

/** Removes each folder from `dir` up to (not including) `root` that is empty; the folders removed. */
export function removeEmptyUp(dir: string, root: string): string[] {
  const removed: string[] = [];
  for (let d = dir; d !== root && d.startsWith(root + path.sep); d = path.dirname(d)) {
    try {
      if (readdirSync(d).length) break;
      rmdirSync(d);
      removed.push(d);
    } catch {
      break;
    }
  }
  return removed;
}

/** `install --agent opencode --plugin`: the plugin in the user's folder, for every repository OpenCode opens. */
function installUserOpencode(command: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = userPluginFile(env);
  const text = opencodePlugin(command);
  const now = readTextOr(file);
  if (now === text) return [`${file}: the git-handoff plugin already there`];
  if (now !== null && !now.includes(OPENCODE_PLUGIN_MARK)) return [`${file}: left alone (a file of that name that is not git-handoff's is there)`];
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return [`${file}: the git-handoff plugin for every repository OpenCode opens, running \`${command}\` (a repository's own copy then stands aside)`];
}

function uninstallUserOpencode(env: NodeJS.ProcessEnv = process.env): string[] {
  const file = userPluginFile(env);
  if (!readTextOr(file)?.includes(OPENCODE_PLUGIN_MARK)) return ['the git-handoff plugin is not in your OpenCode plugin folder'];
  rmSync(file);
  // the folders left empty on the way up to the config folder (install made them with the file), HOME never
  const top = path.dirname(path.dirname(path.dirname(file)));
  const emptied = removeEmptyUp(path.dirname(file), top === userHome(env) ? top : path.dirname(top));
  return [`${file}: removed`, ...emptied.map((dir) => `${dir}: removed (an empty folder)`)];
}

/** The client whose plugin module `install --agent <agent> --plugin` puts in the user's own folder (OpenCode). */
export const USER_PLUGIN = { agent: 'opencode', title: 'OpenCode', file: userPluginFile, install: installUserOpencode, uninstall: uninstallUserOpencode } as const;


