// The wiring that is a whole hooks file of git-handoff's own (Copilot CLI's `.github/hooks/git-handoff.json`), and the
// OpenCode plugin in the user's folder: written, removed and checked here for src/install/agents.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installWrite, restoreOriginal } from '../handoff/state/install-record';
import { OPENCODE_PLUGIN_MARK, opencodePlugin, userPluginFile } from './opencode';
import { GUARD_TEXT, hookCommand, type Wiring } from './wiring';
import { userHome } from '../user-dirs';

/** The text of a whole-file wiring running `command`. */
function ownFileText(w: Wiring, command: string): string {
  const hooks: Record<string, unknown[]> = {};
  for (const event of Object.keys(w.events)) hooks[event] = [{ type: 'command', bash: hookCommand(w, command), timeoutSec: w.timeout }];
  return JSON.stringify({ version: 1, hooks }, null, 2) + '\n';
}


/** Writes the wiring's file in `root` unless another file of that name, not ours, is there. */
export function installOwnFile(w: Wiring, root: string, command: string, commonDir: string): string {
  const file = path.join(root, w.settings);
  const text = ownFileText(w, command);
  const now = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (now === text) return `${w.settings}: already wired (${w.client})`;
  if (now !== null && !GUARD_TEXT.test(now)) return `${w.settings}: left alone (a file of that name that is not git-handoff's is there); nothing wired for ${w.client}`;
  installWrite(commonDir, file, text);
  return `${w.settings}: wired \`${command}\` for ${Object.keys(w.events).join(', ')}`;
}

/** Removes a whole-file wiring from `root` (and the folders it leaves empty there). */
export function uninstallOwnFile(w: Wiring, root: string, commonDir: string): string | null {
  const file = path.join(root, w.settings);
  const restored = restoreOriginal(commonDir, file, (t) => !GUARD_TEXT.test(t));
  if (!restored) {
    if (!existsSync(file) || !GUARD_TEXT.test(readFileSync(file, 'utf8'))) return null;
    rmSync(file);
  }
  removeEmptyUp(path.dirname(file), root);
  return `${w.settings}: removed`;
}

/** Removes each folder from `dir` up to (not including) `root` that is empty. */
export function removeEmptyUp(dir: string, root: string): void {
  for (let d = dir; d !== root && d.startsWith(root + path.sep); d = path.dirname(d)) {
    try {
      if (readdirSync(d).length) return;
      rmdirSync(d);
    } catch {
      return;
    }
  }
}

/** What a whole hooks file wires: the events the guard runs for, the guard's command (the before-tool hook's), the timeouts it sets. */
export function ownFileWiring(w: Wiring, text: string): { events: string[]; command: string | null; timeouts: unknown[] } {
  try {
    const hooks = JSON.parse(text)?.hooks ?? {};
    const ours = (event: string): any[] => (Array.isArray(hooks[event]) ? hooks[event].filter((h: any) => typeof h?.bash === 'string' && GUARD_TEXT.test(h.bash)) : []);
    return { events: Object.keys(w.events).filter((ev) => ours(ev).length), command: hooks.preToolUse?.find?.((x: any) => typeof x?.bash === 'string')?.bash ?? null, timeouts: Object.keys(hooks).flatMap(ours).map((h) => h.timeoutSec) };
  } catch {
    return { events: [], command: null, timeouts: [] };
  }
}

/** `install --agent opencode --plugin`: the plugin in the user's folder, for every repository OpenCode opens. */
function installUserOpencode(command: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = userPluginFile(env);
  const text = opencodePlugin(command);
  const now = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (now === text) return [`${file}: the git-handoff plugin already there`];
  if (now !== null && !now.includes(OPENCODE_PLUGIN_MARK)) return [`${file}: left alone (a file of that name that is not git-handoff's is there)`];
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return [`${file}: the git-handoff plugin for every repository OpenCode opens, running \`${command}\` (a repository's own copy then stands aside)`];
}

function uninstallUserOpencode(env: NodeJS.ProcessEnv = process.env): string[] {
  const file = userPluginFile(env);
  if (!existsSync(file) || !readFileSync(file, 'utf8').includes(OPENCODE_PLUGIN_MARK)) return ['the git-handoff plugin is not in your OpenCode plugin folder'];
  rmSync(file);
  // the folders left empty on the way up to the config folder (install made them with the file), HOME never
  const msgs = [`${file}: removed`];
  const top = path.dirname(path.dirname(path.dirname(file)));
  for (let dir = path.dirname(file); dir.length >= top.length && dir !== userHome(env); dir = path.dirname(dir)) {
    try {
      if (readdirSync(dir).length) break;
      rmdirSync(dir);
      msgs.push(`${dir}: removed (an empty folder)`);
    } catch {
      break;
    }
  }
  return msgs;
}

/** The client whose plugin module `install --agent <agent> --plugin` puts in the user's own folder (OpenCode). */
export const USER_PLUGIN = { agent: 'opencode', title: 'OpenCode', file: userPluginFile, install: installUserOpencode, uninstall: uninstallUserOpencode } as const;


