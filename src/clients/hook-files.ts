// Every file a client reads its hooks or its trust from, at every scope and in every worktree, for the guard's
// perimeter: a write there must keep git-handoff's wiring (keepsWiring) and a trust file (keepsFile) as they are.
import path from 'node:path';
import type { ClientName } from './names';
import type { ClientPath } from './record';
import { GUARD_TEXT } from './wiring';
import { ALL_RECORDS, RECORDS } from './records';
import { placed } from './places';

/** A record's path of `client` (in the tables as the record has it; from hookFiles() absolute). */
export type HookFile = ClientPath & {
  client: ClientName;
  /** where the client keeps which folders (or hooks) it trusts: it may not change at all */
  trust?: true;
};

/** The rows of one kind of every record, the first client naming a file keeping it (VS Code reads Claude Code's). */
function rows(pick: (r: (typeof ALL_RECORDS)[number]) => readonly ClientPath[], trust?: true): HookFile[] {
  const seen = new Set<string>();
  return ALL_RECORDS.flatMap((r) => pick(r).map((f) => ({ client: r.name, ...f, ...(trust ? { trust } : {}) }))).filter((row) => {
    const key = `${row.scope === 'local' ? 'project' : row.scope}:${row.file}`;
    return !seen.has(key) && !!seen.add(key);
  });
}

/** The records' paths by kind (their meaning: ClientRecord's fields of those names), hook and trust files together. */
const readTables = () => ({
  files: [...rows((r) => r.hookFiles), ...rows((r) => r.trustFiles, true)],
  hookDirs: rows((r) => r.hookDirs),
  pluginDirs: rows((r) => r.pluginDirs),
});
type Tables = ReturnType<typeof readTables>;

// read from the records at first use: most calls write no such path, and a guard run's memory is bounded (docs/benchmarks.md)
let tables: Tables | undefined;
const TABLES = (): Tables => (tables ??= readTables());

/** Every hook configuration and trust file of every client, for each of `worktrees`, the user and the system. */
export function hookFiles(worktrees: readonly string[], home: string, env: NodeJS.ProcessEnv = process.env): { files: HookFile[]; dirs: HookFile[]; plugins: HookFile[] } {
  const resolve = (table: HookFile[]): HookFile[] => {
    const out = new Map<string, HookFile>();
    for (const r of table) {
      for (const wt of r.scope === 'project' || r.scope === 'local' ? worktrees : [null]) {
        const file = placed(r.client, r.file, r.scope, wt, env, home);
        if (file === null) continue;
        const had = out.get(file);
        // a file that is both (Codex's config.toml, Copilot's config.json) is a trust file of its hooks' client
        if (!had) out.set(file, { ...r, file });
        else if (r.trust) had.trust = true;
      }
    }
    return [...out.values()];
  };
  const t = TABLES();
  return { files: resolve(t.files), dirs: resolve(t.hookDirs), plugins: resolve(t.pluginDirs) };
}

/** What a client keeps in a file of the table, for the guard's reasons. */
export const keptThere = (h: HookFile): string => (h.trust ? `where ${h.client} keeps which folders it trusts (${h.scope} scope)` : `where ${h.client} reads its hooks (${h.scope} scope)`);

/** A text naming a file or directory of the table (its first part: `.claude`, `.gemini`, `opencode.json`, …), for lines the guard cannot read whole. */
let namesHookFile: RegExp | undefined;
const namesOf = ({ files }: Tables): RegExp =>
  new RegExp(
    [...new Set(files.map((r) => (r.file.startsWith('$') ? RECORDS[r.client].home!.dir : r.file.split('/').filter(Boolean)[path.isAbsolute(r.file) ? 1 : 0])))]
      .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
  );
export const NAMES_HOOK_FILE = { test: (text: string): boolean => (namesHookFile ??= namesOf(TABLES())).test(text) };

/** The guard's wiring in a hook file's text: the commands that start git-handoff's guard, or its plugin. */
const GUARD = new RegExp(`${GUARD_TEXT.source}|git-handoff plugin`);
/** Keys that switch hooks off, in any client's settings (disableAllHooks, hooksConfig.enabled, hooks.disabled, …), and Claude Code's sandbox, kept whole. */
const SWITCH = /disable|enable|^sandbox$/i;
/** Keys whose value becomes every later session's environment (Claude Code's `env`: `GIT_HANDOFF_BYPASS`, `PATH`, …). */
const ENVIRONMENT = /^env(ironment)?$/i;
/** Text in a new non-JSON hook file (Codex's TOML, a plugin) that could switch hooks or the guard: `[features] codex_hooks = false`. */
const HOOKISH = /hook|disable|enable|feature|guard|handoff|plugin/i;

/** JSON with every object's keys sorted and undefined ones left out (serde_json's canonical value, as Codex hashes it). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  return `{${keys.sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

/** What in a JSON text must stay: each guard entry where it is and whole, every switch of hooks, the sessions' environment. */
function anchors(value: unknown): { guard: string[]; switches: string[] } {
  const guard: string[] = [];
  const switches: string[] = [];
  const walk = (v: unknown, at: string, matcher: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, `${at}[]`, matcher));
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const m = typeof o.matcher === 'string' ? o.matcher : matcher;
      if (Object.values(o).some((x) => typeof x === 'string' && GUARD.test(x))) guard.push(`${at}|${m}|${canonical(o)}`);
      for (const [k, x] of Object.entries(o)) {
        if (SWITCH.test(k) || ENVIRONMENT.test(k)) switches.push(`${at}.${k}=${canonical(x)}`);
        if (typeof x !== 'string') walk(x, `${at}.${k}`, m);
      }
      return;
    }
    if (typeof v === 'string' && GUARD.test(v)) guard.push(`${at}|${matcher}|${v}`);
  };
  walk(value, '', '');
  return { guard: guard.sort(), switches: switches.sort() };
}

/** Whether a hook file written from `before` (null: absent) to `after` keeps the guard wired; a non-JSON one may not change. */
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

/** Whether writing a file of the table from `before` to `after` keeps what the guard stands on: a trust file unchanged (as JSON, when it is JSON), a hook file's wiring (keepsWiring). */
export function keepsFile(h: HookFile, before: string | null, after: string): boolean {
  if (!h.trust) return keepsWiring(h.file, before, after);
  if (before === after) return true;
  try {
    return before !== null && canonical(JSON.parse(before)) === canonical(JSON.parse(after));
  } catch {
    return false;
  }
}
