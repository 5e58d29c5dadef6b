// Every file a supported client reads its hook configuration from, in each scope (project, local, user, system): one
// table, for the guard's perimeter (src/guard/perimeter.ts). A session that rewrites one of them can turn the guard
// off for every later session, so a write there must keep git-handoff's wiring as it is (keepsWiring).
import path from 'node:path';
import type { ClientName } from '../client-names';

export type HookScope = 'project' | 'local' | 'user' | 'system';

export interface HookFile {
  client: ClientName;
  scope: HookScope;
  /** absolute */
  file: string;
}

interface Row {
  client: ClientName;
  scope: HookScope;
  /** relative to the worktree (project, local), to the user's home (user), or absolute (system); `$VAR/…` when a variable moves it */
  file: string;
}

/** The table: per client, per scope, where it reads hooks from (VS Code's agent reads Claude Code's and Copilot's files). */
export const HOOK_FILES: Row[] = [
  { client: 'claude-code', scope: 'project', file: '.claude/settings.json' },
  { client: 'claude-code', scope: 'local', file: '.claude/settings.local.json' },
  { client: 'claude-code', scope: 'user', file: '$CLAUDE_CONFIG_DIR/settings.json' },
  { client: 'claude-code', scope: 'user', file: '$CLAUDE_CONFIG_DIR/settings.local.json' },
  { client: 'claude-code', scope: 'system', file: '/etc/claude-code/managed-settings.json' },
  { client: 'gemini-cli', scope: 'project', file: '.gemini/settings.json' },
  { client: 'gemini-cli', scope: 'user', file: '.gemini/settings.json' },
  { client: 'gemini-cli', scope: 'system', file: '/etc/gemini-cli/settings.json' },
  { client: 'codex', scope: 'project', file: '.codex/hooks.json' },
  { client: 'codex', scope: 'project', file: '.codex/config.toml' },
  { client: 'codex', scope: 'user', file: '$CODEX_HOME/hooks.json' },
  { client: 'codex', scope: 'user', file: '$CODEX_HOME/config.toml' },
  { client: 'copilot', scope: 'project', file: '.github/hooks/git-handoff.json' },
  { client: 'copilot', scope: 'user', file: '.copilot/config.json' },
  { client: 'qwen-code', scope: 'project', file: '.qwen/settings.json' },
  { client: 'qwen-code', scope: 'user', file: '.qwen/settings.json' },
  { client: 'qwen-code', scope: 'system', file: '/etc/qwen-code/settings.json' },
  { client: 'opencode', scope: 'project', file: '.opencode/plugin/git-handoff.js' },
  { client: 'opencode', scope: 'project', file: 'opencode.json' },
  { client: 'opencode', scope: 'user', file: '$XDG_CONFIG_HOME/opencode/plugin/git-handoff.js' },
  { client: 'opencode', scope: 'user', file: '$XDG_CONFIG_HOME/opencode/opencode.json' },
  { client: 'cursor', scope: 'project', file: '.cursor/hooks.json' },
  { client: 'cursor', scope: 'user', file: '.cursor/hooks.json' },
];

/** Directories any JSON file of which a client reads hooks from (Copilot CLI and VS Code: `.github/hooks/*.json`). */
export const HOOK_DIRS: Row[] = [{ client: 'copilot', scope: 'project', file: '.github/hooks' }];

/**
 * Directories every module of which a client loads around its tools (OpenCode's plugins): a module written there runs
 * in a later session beside git-handoff's and may rewrite a call after the guard judged it.
 */
export const PLUGIN_DIRS: Row[] = [
  { client: 'opencode', scope: 'project', file: '.opencode/plugin' },
  { client: 'opencode', scope: 'project', file: '.opencode/plugins' },
  { client: 'opencode', scope: 'user', file: '$XDG_CONFIG_HOME/opencode/plugin' },
  { client: 'opencode', scope: 'user', file: '$XDG_CONFIG_HOME/opencode/plugins' },
];

const DEFAULT_DIRS: Record<string, (home: string) => string> = {
  CLAUDE_CONFIG_DIR: (home) => path.join(home, '.claude'),
  CODEX_HOME: (home) => path.join(home, '.codex'),
  XDG_CONFIG_HOME: (home) => path.join(home, '.config'),
};

function where(row: Row, worktree: string | null, home: string, env: NodeJS.ProcessEnv): string | null {
  const m = /^\$([A-Z_]+)\/(.*)$/.exec(row.file);
  if (m) return path.join(env[m[1]] || DEFAULT_DIRS[m[1]](home), m[2]);
  if (path.isAbsolute(row.file)) return row.file;
  if (row.scope === 'user') return path.join(home, row.file);
  return worktree === null ? null : path.join(worktree, row.file);
}

/** Every hook configuration file of every client for a worktree (null: none) and user. */
export function hookFiles(worktree: string | null, home: string, env: NodeJS.ProcessEnv = process.env): { files: HookFile[]; dirs: HookFile[]; plugins: HookFile[] } {
  const resolve = (rows: Row[]) => rows.flatMap((r) => {
    const file = where(r, worktree, home, env);
    return file === null ? [] : [{ client: r.client, scope: r.scope, file }];
  });
  return { files: resolve(HOOK_FILES), dirs: resolve(HOOK_DIRS), plugins: resolve(PLUGIN_DIRS) };
}

/** A text naming a file or directory of the table (its first part: `.claude`, `.gemini`, `opencode.json`, …), for lines the guard cannot read whole. */
export const NAMES_HOOK_FILE = new RegExp(
  [...new Set(HOOK_FILES.map((r) => (r.file.startsWith('$') ? DEFAULT_DIRS[r.file.slice(1, r.file.indexOf('/'))]('').split('/')[0] : r.file.split('/').filter(Boolean)[path.isAbsolute(r.file) ? 1 : 0])))]
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

/** The guard's wiring in a hook file's text: the commands that start git-handoff's guard. */
const GUARD = /git[- ]handoff(-guard|(\.cmd|\.exe)?["']?\s+guard)|git-handoff plugin/;
/** Keys that switch hooks off, in any client's settings (disableAllHooks, hooksConfig.enabled, hooks.disabled, …). */
const SWITCH = /disable|enable/i;
/** Keys whose value becomes every later session's environment (Claude Code's `env`: `GIT_HANDOFF_BYPASS`, `PATH`, …). */
const ENVIRONMENT = /^env(ironment)?$/i;
/** Text in a new non-JSON hook file (Codex's TOML, a plugin) that could switch hooks or the guard: `[features] codex_hooks = false`. */
const HOOKISH = /hook|disable|enable|feature|guard|handoff|plugin/i;

/** A JSON value with its object keys in order, so that two texts holding the same value compare equal. */
const stable = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(stable).join(',')}]` : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}` : JSON.stringify(v);

type Leaf = string;

/**
 * What in a JSON text must stay: each guard entry where it is (path, matcher) and whole (its type, timeout and every
 * other field: `"timeout": 0` or `"type": "prompt"` unwires it as surely as another command), every switch of hooks,
 * and the environment the client gives its sessions (`"env": {"GIT_HANDOFF_BYPASS": "1"}` switches the checks off).
 */
function anchors(value: unknown): { guard: Leaf[]; switches: Leaf[] } {
  const guard: Leaf[] = [];
  const switches: Leaf[] = [];
  const walk = (v: unknown, at: string, matcher: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, `${at}[]`, matcher));
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const m = typeof o.matcher === 'string' ? o.matcher : matcher;
      if (Object.values(o).some((x) => typeof x === 'string' && GUARD.test(x))) guard.push(`${at}|${m}|${stable(o)}`);
      for (const [k, x] of Object.entries(o)) {
        if (SWITCH.test(k) || ENVIRONMENT.test(k)) switches.push(`${at}.${k}=${stable(x)}`);
        if (typeof x !== 'string') walk(x, `${at}.${k}`, m);
      }
      return;
    }
    if (typeof v === 'string' && GUARD.test(v)) guard.push(`${at}|${matcher}|${v}`);
  };
  walk(value, '', '');
  return { guard: guard.sort(), switches: switches.sort() };
}

/**
 * Whether a hook file written from `before` (null: absent) to `after` keeps git-handoff's guard wired as it was and
 * switches no hooks off: a JSON settings file may change anything else (a permission added); any other file (the
 * OpenCode plugin, Codex's TOML) may not change at all.
 */
export function keepsWiring(file: string, before: string | null, after: string): boolean {
  if (!file.endsWith('.json')) return before === after || (before === null && !HOOKISH.test(after));
  let now: unknown;
  let was: unknown = {};
  try {
    now = JSON.parse(after);
    if (before !== null && before.trim() !== '') was = JSON.parse(before);
  } catch {
    // not JSON: the client would not read the wiring (or, for the old text, the guard cannot tell what it held)
    return false;
  }
  const a = anchors(was);
  const b = anchors(now);
  const kept = a.guard.every((g) => b.guard.includes(g));
  return kept && a.switches.join('\n') === b.switches.join('\n');
}
