// The wirings whose files a client record lists (`Wiring.files`): git-handoff's own files
// (a hook script, a plugin module) written whole, and entries merged into a client's JSON hooks file next to the
// person's. Uninstall gives every file back byte for byte while it is as install left it (install-record), and
// otherwise takes out only git-handoff's entries.
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { installWrite, restoreOriginal } from '../handoff/state/install-record';
import { removeEmptyUp } from '../clients/own-files';
import { readTextOr } from '../read-file';
import { GUARD_TEXT, type JsonHooks, type WiredFile, type Wiring } from '../clients/wiring';

/** Whether a value (an entry, a hook, a string) holds the guard's command: what makes a hook git-handoff's. */
export const holdsGuard = (v: unknown): boolean => firstGuard(v) !== null;

/** A JSON file's object (null: no file; {} an empty one); one that is not a JSON object stops install with the way on. */
export const readObject = (file: string): Record<string, any> | null => (existsSync(file) ? objectIn(file, readFileSync(file, 'utf8')) : null);

/** The JSON object in `file`'s `text` (readObject). */
function objectIn(file: string, text: string): Record<string, any> {
  if (text.trim() === '') return {};
  try {
    const j = JSON.parse(text);
    if (j && typeof j === 'object' && !Array.isArray(j)) return j;
  } catch {
    /* reported below */
  }
  throw notAnObject(file);
}

/** What stops install at a configuration that is not a JSON object, with the way on. */
export const notAnObject = (file: string) => new HandoffError('usage', 'unreadable-settings', `${file} is not a JSON object; fix or move it, then run install again (nothing was changed)`, { file });

/** The value at the key path `keys` in a JSON value, or undefined where something on the way is not an object. */
export const valueAt = (value: unknown, keys: readonly string[]): any => keys.reduce<any>((v, k) => (v && typeof v === 'object' ? v[k] : undefined), value);

/** The object at `at` in a JSON value (made on the way when `make`), or null. */
export function eventsAt(value: Record<string, any>, at: readonly string[], make: boolean): Record<string, any> | null {
  let o = value;
  for (const k of at) {
    if (!o[k] || typeof o[k] !== 'object' || Array.isArray(o[k])) {
      if (!make) return null;
      o[k] = {};
    }
    o = o[k];
  }
  return o;
}

/**
 * Takes git-handoff's entries out of a hooks file's events (an entry holding the guard, or, in Claude Code's groups,
 * each such hook of a group, and the group once emptied so), then each event and object left empty by that; how many.
 */
export function strip(value: Record<string, any>, at: string[]): number {
  const events = eventsAt(value, at, false);
  if (!events) return 0;
  let removed = 0;
  for (const [event, list] of Object.entries(events)) {
    if (!Array.isArray(list)) continue;
    const kept: unknown[] = [];
    for (const entry of list) {
      if (entry && typeof entry === 'object' && Array.isArray((entry as any).hooks)) {
        const hooks = (entry as any).hooks as unknown[];
        const rest = hooks.filter((h) => !holdsGuard(h));
        removed += hooks.length - rest.length;
        if (rest.length || hooks.length === 0) kept.push({ ...(entry as object), hooks: rest });
      } else if (holdsGuard(entry)) removed++;
      else kept.push(entry);
    }
    if (kept.length) events[event] = kept;
    else delete events[event];
  }
  dropEmpty(value, at);
  return removed;
}

/** The objects on the way to `at` that are empty go, deepest first (the root stays). */
export function dropEmpty(value: Record<string, any>, at: readonly string[]): void {
  for (let i = at.length; i > 0; i--) {
    const parent = eventsAt(value, at.slice(0, i - 1), false);
    if (parent && parent[at[i - 1]] && Object.keys(parent[at[i - 1]]).length === 0) delete parent[at[i - 1]];
  }
}

/**
 * A hooks file's value with git-handoff's entries as `json` says (any earlier ones taken out first), its keys where
 * they were: installing again changes nothing.
 */
export function merged(current: Record<string, any> | null, json: JsonHooks): Record<string, any> {
  // what the format needs (Cursor's version) is added where missing; a value already there stays where it is
  const value = current === null ? structuredClone(json.base ?? {}) : structuredClone(current);
  for (const [k, v] of Object.entries(json.base ?? {})) if (!(k in value)) value[k] = structuredClone(v);
  strip(value, json.at);
  const events = eventsAt(value, json.at, true)!;
  for (const [event, entries] of Object.entries(json.entries)) events[event] = [...(Array.isArray(events[event]) ? events[event] : []), ...entries];
  keepKeyOrder(value, Object.keys(current ?? {}));
  return value;
}

/** Puts `o`'s keys named in `order` first, in that order (the rest after, as they were). */
function keepKeyOrder(o: Record<string, unknown>, order: string[]): void {
  const all = [...order.filter((k) => Object.hasOwn(o, k)), ...Object.keys(o).filter((k) => !order.includes(k))];
  const values = all.map((k) => [k, o[k]] as const);
  for (const k of Object.keys(o)) delete o[k];
  for (const [k, v] of values) o[k] = v;
}

/** A JSON file's text as install writes it: two-space indent, one final newline. */
export const jsonText = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** git-handoff's own whole file (a hook script, a plugin module, the skill), written unless a file of that name that is not `ours` is there. */
export function writeOwnFile(commonDir: string, file: string, text: string, ours: (now: string) => boolean): 'same' | 'foreign' | 'written' {
  const now = readTextOr(file);
  if (now === text) return 'same';
  if (now !== null && !ours(now)) return 'foreign';
  installWrite(commonDir, file, text);
  return 'written';
}

/** `install --agent` for a wiring of files: writes each file; what it did, one message each. */
export const installFiles = (w: Wiring, root: string, command: string, commonDir: string): string[] => w.files!(command, root).map((f) => installFile(root, f, commonDir, w.client, command));

/** Writes one file of a wiring; what it did. */
function installFile(root: string, f: WiredFile, commonDir: string, client: string, command: string): string {
  const file = path.join(root, f.file);
  if (f.text !== undefined) {
    const done = writeOwnFile(commonDir, file, f.text, (t) => GUARD_TEXT.test(t));
    if (done === 'foreign') return `${f.file}: left alone (a file of that name that is not git-handoff's is there); nothing wired there for ${client}`;
    if (f.mode !== undefined) chmodSync(file, f.mode);
    return done === 'same' ? `${f.file}: already wired (${client})` : `${f.file}: wired \`${command}\` (${client})`;
  }
  const current = readObject(file);
  const next = merged(current, f.json!);
  if (current !== null && JSON.stringify(next) === JSON.stringify(current)) return `${f.file}: already wired (${client})`;
  installWrite(commonDir, file, jsonText(next));
  return `${f.file}: wired \`${command}\` for ${Object.keys(f.json!.entries).join(', ')} (${client})`;
}

/** A file's text with git-handoff's part taken out ('': nothing else is left) and what that did; null: nothing of ours there. */
type Unwired = [text: string, said: string] | null;

/**
 * Uninstall of a file install wired: back byte for byte while it is as install left it, else `without` takes git-handoff's
 * part out of it as it is now (`ours`: what holds git-handoff's part); the folders install made go once empty. What it did, or null.
 */
export function unwireFile(root: string, shown: string, commonDir: string, without: (text: string) => Unwired, ours = (t: string) => GUARD_TEXT.test(t)): string | null {
  // `shown`: the file's path from the worktree's top, or an absolute one (a client's configuration outside it)
  const file = path.resolve(root, shown);
  const undone = restoreOriginal(commonDir, file, (t) => !ours(t));
  const text = undone ? null : readTextOr(file);
  const unwired = text === null ? null : without(text);
  if (unwired && unwired[0].trim() === '') rmSync(file);
  else if (unwired && unwired[0] !== text) writeFileSync(file, unwired[0]);
  const back = undone === 'deleted' ? 'deleted (install created it)' : 'restored as it was before install (byte for byte)';
  const m = undone ? `${shown}: ${back}` : unwired && `${shown}: ${unwired[1]}`;
  if (m) removeEmptyUp(path.dirname(file), root);
  return m;
}

/** unwireFile's `without` for a JSON file: git-handoff's entries taken out (`take`: how many it took), the rest kept. */
export const jsonWithout =
  (file: string, take: (value: Record<string, any>) => number) =>
  (text: string): Unwired => {
    let value: Record<string, any>;
    try {
      value = objectIn(file, text);
    } catch (e) {
      return [text, `left as it is (${(e as Error).message})`];
    }
    const n = take(value);
    return n ? [Object.keys(value).length ? jsonText(value) : '', `removed ${n} git-handoff hook(s)`] : null;
  };

/** `uninstall --agent` for a wiring of files: each file back as it was, or git-handoff's part of it taken out. */
export function uninstallFiles(w: Wiring, root: string, commonDir: string): string[] {
  return w.files!('', root).flatMap((f) => {
    // git-handoff's own file (a hook script, a plugin module) goes whole; a hooks file keeps the person's entries
    const without = f.json ? jsonWithout(path.join(root, f.file), (value) => strip(value, f.json!.at)) : (t: string): Unwired => (GUARD_TEXT.test(t) ? ['', 'removed'] : null);
    return unwireFile(root, f.file, commonDir, without) ?? [];
  });
}

/** What a wiring's files say of it: each file with the guard wired for every event it should have, and the command wired. */
export function wiredFiles(w: Wiring, root: string): { present: string[]; missing: string[]; command: string | null; timeouts: unknown[] } {
  const present: string[] = [];
  const missing: string[] = [];
  const timeouts: unknown[] = [];
  let command: string | null = null;
  for (const f of w.files!('', root)) {
    const text = readTextOr(path.join(root, f.file));
    if (text === null || !GUARD_TEXT.test(text)) {
      missing.push(f.file);
      continue;
    }
    if (f.json) {
      let events: Record<string, any> | null = null;
      try {
        events = eventsAt(JSON.parse(text), f.json.at, false);
      } catch {
        /* not JSON */
      }
      const lacking = Object.keys(f.json.entries).filter((e) => !holdsGuard(events?.[e]));
      if (lacking.length) {
        missing.push(`${f.file} (${lacking.join(', ')})`);
        continue;
      }
      command ??= firstGuard(events![Object.keys(f.json.entries)[0]]);
      // the timeout each of git-handoff's entries sets, under its client's key for it (timeout, timeoutSec)
      const hooks = Object.values(events!).flat().filter(holdsGuard).flatMap((e) => [e, ...(Array.isArray(e?.hooks) ? e.hooks : [])]);
      for (const hook of hooks) timeouts.push(...Object.entries(hook).filter(([k]) => /^timeout/i.test(k)).map(([, t]) => t));
    } else command ??= /^const GUARD = (".*")$/m.test(text) ? JSON.parse(/^const GUARD = (".*")$/m.exec(text)![1]) : (/^exec (.*)$/m.exec(text)?.[1] ?? null);
    present.push(f.file);
  }
  return { present, missing, command, timeouts };
}

/** The first string in a value that holds the guard's command. */
function firstGuard(v: unknown): string | null {
  if (typeof v === 'string') return GUARD_TEXT.test(v) ? v : null;
  for (const x of Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : []) {
    const found = firstGuard(x);
    if (found) return found;
  }
  return null;
}
