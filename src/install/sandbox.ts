// Where a client has an OS sandbox, the kernel holds the perimeter too. Claude Code's sandbox, once on,
// keeps .claude/, .git/hooks, .git/config and everything outside the project read-only for the Bash tool, but not
// the other clients' wiring in the worktree, git-handoff's state under the git directory or the handoff files:
// its `install --agent` adds those to its `sandbox.filesystem.denyWrite` (what git-handoff itself never writes
// from inside it: `git handoff write` and a commit through the hooks still work, test/clients/sandbox.clients.test.ts),
// `uninstall` takes them out again, and doctor says whether the sandbox is on, what it holds, and recommends it.
// Codex's sandbox is set in the user's configuration only (a project's cannot change permissions): nothing to add.
import { spawnSync } from '../process';
import path from 'node:path';
import { placed } from '../clients/places';
import { ALL_RECORDS } from '../clients/records';
import { DEFAULT_PROTECT } from '../guard/context';
import { handoffDir } from '../handoff/state/paths';
import type { DoctorItem } from '../wiring';
import { readJsonOr } from '../read-file';
import { dropEmpty, eventsAt, valueAt } from './native';

/** The client with an OS sandbox a project's settings turn on (ClientRecord.sandbox), and its settings' keys. */
const SANDBOXED = ALL_RECORDS.find((r) => r.sandbox)!;
const SANDBOX = SANDBOXED.sandbox!;

/**
 * What the sandbox should keep read-only, relative to the worktree: every client's project hook files and folders
 * (from the records), git-handoff's state under the git directory (when the worktree holds it), and the folders of
 * the protected handoff files (their pattern's fixed part: `memory`; globs are not honoured on Linux).
 */
export const sandboxDenies = (worktree: string, commonDir: string): string[] => Object.values(denyParts(worktree, commonDir)).flat();

/** sandboxDenies in two, none in both: the clients' wiring, and git-handoff's own state and handoff folders. */
function denyParts(worktree: string, commonDir: string): { wiring: string[]; own: string[] } {
  const wiring = ALL_RECORDS.flatMap((r) => [...r.hookFiles, ...(r.hookDirs ?? []), ...(r.pluginDirs ?? [])].filter((f) => f.scope === 'project' || f.scope === 'local').map((f) => f.file));
  const state = path.relative(worktree, handoffDir(commonDir));
  const handoffs = DEFAULT_PROTECT.map((p) => p.replace(/^(\*\*\/)+/, '').split('/').slice(0, -1).join('/')).filter((d) => d && !/[*?[{]/.test(d));
  return { wiring: [...new Set(wiring)], own: [...new Set([...(state.startsWith('..') || path.isAbsolute(state) ? [] : [state]), ...handoffs])].filter((d) => !wiring.includes(d)) };
}

/**
 * What install says of the denyWrite entries it added to `settings`: git-handoff's own by name, the clients' wiring by
 * count (most are for clients this user does not have; the settings file lists them), in lines a terminal keeps whole.
 */
export function sandboxNote(settings: string, worktree: string, commonDir: string): string {
  const { wiring, own } = denyParts(worktree, commonDir);
  return [
    `${settings}: its sandbox (when on) keeps ${own.join(', ').replace(/, ([^,]*)$/, ' and $1')} read-only too,`,
    `  and the ${wiring.length} paths of every client's wiring (listed in its sandbox.filesystem.denyWrite);`,
    '  git handoff doctor says whether the sandbox is on',
  ].join('\n');
}

type Json = Record<string, any>;

/** Adds `entries` to Claude Code's settings' denyWrite (kept in order, none twice); whether anything was added. */
export function addDenies(settings: Json, entries: string[]): boolean {
  const list = valueAt(settings, SANDBOX.denyWrite);
  const had: unknown[] = Array.isArray(list) ? list : [];
  const missing = entries.filter((e) => !had.includes(e));
  if (missing.length) eventsAt(settings, SANDBOX.denyWrite.slice(0, -1), true)![SANDBOX.denyWrite[2]] = [...had, ...missing];
  return missing.length > 0;
}

/** Takes `entries` out of denyWrite, and the objects that leaves empty; how many were taken. */
export function removeDenies(settings: Json, entries: string[]): number {
  const parent = eventsAt(settings, SANDBOX.denyWrite.slice(0, -1), false);
  const key = SANDBOX.denyWrite[2];
  if (!Array.isArray(parent?.[key])) return 0;
  const kept = parent[key].filter((e: unknown) => !entries.includes(e as string));
  const n = parent[key].length - kept.length;
  if (kept.length) parent[key] = kept;
  else delete parent[key];
  dropEmpty(settings, SANDBOX.denyWrite.slice(0, -1));
  return n;
}

/** Whether `program` is on PATH. */
const onPath = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;

/** doctor's row: Claude Code's sandbox on or off here (its settings, the last layer that says wins), what it holds. */
export function sandboxItem(worktree: string, commonDir: string): DoctorItem {
  const r = SANDBOXED;
  // user, project, local, then managed settings: a later layer's value wins
  const order = ['user', 'project', 'local', 'system'] as const;
  const files = order.flatMap((scope) => r.hookFiles.filter((f) => f.scope === scope).map((f) => placed(r.name, f.file, scope, worktree, process.env)));
  const layers = files.map((f): Json | null => (f ? readJsonOr(f) : null)).filter((j): j is Json => j !== null);
  const enabled = layers.reduce<boolean>((on, j) => (typeof valueAt(j, SANDBOX.enabled) === 'boolean' ? valueAt(j, SANDBOX.enabled) : on), false);
  const denied = new Set(layers.flatMap((j) => (Array.isArray(valueAt(j, SANDBOX.denyWrite)) ? valueAt(j, SANDBOX.denyWrite) : [])));
  const wanted = sandboxDenies(worktree, commonDir);
  const missing = wanted.filter((e) => !denied.has(e));
  const component = `agent ${r.agent} sandbox`;
  const tools = ['bwrap', 'socat'].filter((p) => !onPath(p));
  const needs = tools.length ? ` (on Linux it needs ${tools.join(' and ')}: apt-get install bubblewrap socat)` : '';
  if (!enabled) {
    return {
      component,
      status: 'info',
      detail: `Claude Code's sandbox is off: a script the session writes and runs can write anything the user can. Recommended: "sandbox": {"enabled": true} in ${r.hookFiles.find((f) => f.scope === 'local')!.file} or your user settings${needs}; it keeps .claude/, .git/hooks, .git/config and all outside the project read-only, and with git-handoff's denyWrite entries ${missing.length ? `(git handoff install --agent ${r.agent} adds them) ` : ''}the other clients' wiring, git-handoff's state and the handoff files too`,
    };
  }
  if (missing.length) return { component, status: 'info', detail: `Claude Code's sandbox is on, but its denyWrite lacks ${missing.join(', ')}: a script run in it can still write those; run git handoff install --agent ${r.agent} again${needs}` };
  return { component, status: 'ok', detail: `Claude Code's sandbox is on: the Bash tool cannot write .claude/, .git/hooks, .git/config, anything outside the project, nor ${wanted.join(', ')}${needs}` };
}
