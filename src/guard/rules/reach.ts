// What a shell word reaches on disk once expanded: variables, brace lists, globs, handoff files under a directory, hard
// links. Every walk is bounded, and a bound reached throws Bound: the call is refused, never decided on a cut list.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { expands } from '../shell/lex';
import path from 'node:path';
import { globMatch, isGlob } from '../glob';
import { walkUp } from '../locate';

/** A bound of the guard's reading was reached: the call is refused (it may touch what it protects). */
export class Bound extends Error {}

export const MAX_ALTERNATIVES = 1024;
export const MAX_ENTRIES = 500_000;
export const MAX_DEPTH = 24;
/** The time one decision may spend reading the filesystem, well under every client's hook timeout (60 s and up). */
export const DECISION_MS = process.env.GIT_HANDOFF_GUARD_DECISION_MS && Number(process.env.GIT_HANDOFF_GUARD_DECISION_MS) >= 0 ? Number(process.env.GIT_HANDOFF_GUARD_DECISION_MS) : 4_000;

export class Budget {
  entries = 0;
  constructor(readonly deadline = Date.now() + DECISION_MS) {}
  /** Counts `n` entries read and checks the clock. */
  spend(n = 1): void {
    this.entries += n;
    if (this.entries > MAX_ENTRIES) throw new Bound(`it would read more than ${MAX_ENTRIES} directory entries`);
    if (Date.now() >= this.deadline) throw new Bound(`reading the files it may reach took longer than ${DECISION_MS} ms`);
  }
}

/** `a{b,c}d` → `abd`, `acd` (nested and several groups); text without a brace list as it is. Past the bound: Bound. */
export function braces(word: string, budget = { n: MAX_ALTERNATIVES }): string[] {
  const open = word.indexOf('{');
  if (open < 0) return [word];
  let depth = 0;
  const cuts: number[] = [];
  let close = -1;
  for (let i = open; i < word.length && close < 0; i++) {
    const c = word[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) close = i;
    else if (c === ',' && depth === 1) cuts.push(i);
  }
  // a sequence ({a..z}, {1..10}, {01..20..2}) expands as bash expands it, within the same bound
  const seq = close >= 0 && cuts.length === 0 ? sequence(word.slice(open + 1, close)) : null;
  if (seq === null && (close < 0 || cuts.length === 0)) {
    // not a list: keep the brace as text and expand what follows
    return braces(word.slice(open + 1), budget).map((t) => word.slice(0, open + 1) + t);
  }
  const parts: string[] = seq ?? [];
  let from = open + 1;
  if (seq === null) {
    for (const c of [...cuts, close]) {
      parts.push(word.slice(from, c));
      from = c + 1;
    }
  }
  const out: string[] = [];
  for (const part of parts) {
    for (const t of braces(word.slice(0, open) + part + word.slice(close + 1), budget)) {
      if (--budget.n < 0) throw new Bound(`a brace list expands to more than ${MAX_ALTERNATIVES} words`);
      out.push(t);
    }
  }
  return out;
}

/** The words of a brace sequence `a..z`, `1..10`, `-3..3..2`, `01..10` (zero-padded); null when it is not one. */
function sequence(body: string): string[] | null {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return null;
  const numeric = /\d/.test(m[1]);
  if (numeric !== /\d/.test(m[2])) return null;
  const from = numeric ? Number(m[1]) : m[1].charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2].charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_ALTERNATIVES) throw new Bound(`a brace list expands to more than ${MAX_ALTERNATIVES} words`);
  const padded = numeric && (/^-?0\d/.test(m[1]) || /^-?0\d/.test(m[2]));
  const width = padded ? Math.max(m[1].replace('-', '').length, m[2].replace('-', '').length) : 0;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) out.push(numeric ? (v < 0 ? '-' : '') + String(Math.abs(v)).padStart(width, '0') : String.fromCharCode(v));
  return out;
}

const readDir = (dir: string, budget: Budget): Dirent[] => {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  budget.spend(entries.length);
  return entries;
};

/** Whether a word is a pattern the shell expands against the filesystem (a glob or an extglob group). */
export const isPattern = (s: string) => isGlob(s) || /[?*+@!]\(/.test(s);

/** The files a word names once expanded (the word first, glob matches after), or null when that cannot be known. */
export function expandWord(word: string, vars: Record<string, string>, cwd: string | null, budget: Budget): string[] | null {
  // the directory it runs in ($PWD, $(pwd), ~+) and the worktree's top ($(git rev-parse --show-toplevel)) are known
  const known: Record<string, string> = { ...(cwd !== null ? { PWD: cwd } : {}), ...(process.env.HOME ? { HOME: process.env.HOME } : {}), ...vars };
  let split = false;
  const t = knownDirs(word, cwd).replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a, b) => {
    if (!Object.hasOwn(known, a ?? b)) return m;
    const v = known[a ?? b];
    if (/\s/.test(v) || (vars.IFS !== undefined && [...vars.IFS].some((ch) => v.includes(ch)))) split = true;
    return v;
  });
  if (expands(t) || (cwd === null && !path.isAbsolute(t))) return null;
  // unquoted, a value is split into words (on IFS) and each globbed: the word whole and each of its parts are judged
  const fields = split ? [t, ...t.split(new RegExp(`[\\s${(vars.IFS ?? '').replace(/[\\\]^-]/g, '\\$&')}]+`)).filter(Boolean)] : [t];
  const out: string[] = [];
  for (const f of fields) {
    if (cwd === null && !path.isAbsolute(f)) return null;
    for (const alt of braces(f)) {
      out.push(alt);
      if (isPattern(alt)) out.push(...globFiles(alt, cwd ?? '/', budget));
    }
  }
  return out;
}

/** `$(pwd)`, `` `pwd` ``, `$(git rev-parse --show-toplevel)` as `${PWD}` or the top they name (null: left as they are). */
export function knownDirs(word: string, cwd: string | null): string {
  if (!expands(word)) return word;
  let t = word.replace(/\$\(\s*pwd(\s+-[LP])?\s*\)|`\s*pwd(\s+-[LP])?\s*`/g, '${PWD}');
  const top = /\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`/g;
  if (top.test(t)) {
    const dir = cwd === null ? undefined : walkUp(cwd)?.worktree;
    if (dir !== undefined) t = t.replace(top, dir);
  }
  return t;
}

/** The paths a glob matches, each directory level matched in turn (so a pattern in a directory part is read too). */
function globFiles(pattern: string, cwd: string, budget: Budget): string[] {
  const abs = path.isAbsolute(pattern);
  const parts = pattern.split('/').filter((p, i) => p !== '' || i === 0);
  let found: string[] = [abs ? '/' : ''];
  for (const [i, part] of parts.entries()) {
    if (abs && i === 0) continue;
    const next: string[] = [];
    for (const base of found) {
      if (!isPattern(part)) {
        next.push(base ? path.join(base, part) : part);
        continue;
      }
      for (const e of readDir(path.resolve(cwd, base || '.'), budget)) {
        // a leading dot is matched only by a pattern that starts with one (as the shell does without dotglob)
        if (e.name.startsWith('.') && !part.startsWith('.')) continue;
        if (globMatch(part, e.name)) next.push(base ? path.join(base, e.name) : e.name);
      }
    }
    found = next;
    if (found.length === 0) break;
  }
  return found.filter((f) => f !== '' && f !== '/');
}

// Directories a walk for handoff files skips: git's own (its records are guarded as the ref store) and installed
// packages (no session writes its notes there, and another session's file cannot be moved there: a move is judged).
const SKIPPED = new Set(['.git', 'node_modules']);

/** The entries under `dir` that `take` takes, descending into the directories it does not take and `descend` allows. */
function walk(dir: string, budget: Budget, take: (p: string, e: Dirent) => boolean, descend: (e: Dirent) => boolean, depth = 0): string[] {
  if (depth > MAX_DEPTH) throw new Bound(`${dir} is nested more than ${MAX_DEPTH} directories deep`);
  return readDir(dir, budget).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (take(p, e)) return [p];
    return e.isDirectory() && descend(e) ? walk(p, budget, take, descend, depth + 1) : [];
  });
}

const isHandoffFile = (e: Dirent) => e.isFile() && /^handoff-.*\.md$/i.test(e.name);

/** Handoff files (the default pattern's name, handoff-*.md) under a directory; nothing for a file or a missing path. */
export const handoffFilesUnder = (dir: string, budget: Budget): string[] => walk(dir, budget, (_, e) => isHandoffFile(e), (e) => !SKIPPED.has(e.name));

/** Whether `f` under `root` goes with a find narrowed by names (`\0i`: -iname): a name matched on the way down takes all under it. */
export function namesReach(names: string[] | undefined, root: string, f: string): boolean {
  // a pathspec's pattern (`<pattern>\0path`) is pathspecCovers's to match (rules/git-files.ts)
  const globs = names?.filter((n) => !n.endsWith('\0path'));
  if (!globs?.length) return true;
  const rel = path.relative(root, f);
  const parts = [path.basename(root), ...(rel && !rel.startsWith('..') ? rel.split(path.sep) : [path.basename(f)])];
  return parts.some((part) => globs.some((g) => (g.endsWith('\0i') ? globMatch(g.slice(0, -2).toLowerCase(), part.toLowerCase()) : globMatch(g, part))));
}

/** The entries under a protected directory a find narrowed by names takes (`-name refs` reaches .git/refs); none without names. */
export function namedUnder(dir: string, names: string[] | undefined, budget: Budget): string[] {
  const globs = names?.filter((n) => !n.endsWith('\0path'));
  return globs?.length ? walk(dir, budget, (p) => namesReach(globs, path.dirname(p), p), () => true) : [];
}

/** Handoff files directly in a directory (a program the guard does not know, given the directory, may write them). */
export const handoffFilesIn = (dir: string, budget: Budget): string[] =>
  readDir(dir, budget)
    .filter(isHandoffFile)
    .map((e) => path.join(dir, e.name));

/** A regular file with more than one name (a hard link), as dev:ino; null for anything else. */
export function linkedInode(abs: string): string | null {
  try {
    const st = lstatSync(abs);
    return st.isFile() && st.nlink > 1 ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/** The handoff files of a worktree that share inode `inode`. */
export const handoffFilesWithInode = (worktree: string, inode: string, budget: Budget): string[] => handoffFilesUnder(worktree, budget).filter((p) => linkedInode(p) === inode);
