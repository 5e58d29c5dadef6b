// Interpreters given code on the command line or stdin (`python3 -c`, `node -e`, `python3 - <<EOF`): what the code
// does cannot be read, so a handoff file it names, where the code writes at all, counts as written by the shell.
// Apart from files.ts, which the guard's first file bundles, so that bundle stays small.
import type { SimpleCommand, WriteTarget } from '../shell';
import { runsUnreadCode } from './refs';

const HANDOFF_FILE = /handoff-[A-Za-z0-9._-]+\.md/g;
const PATH_CHAR = /[^\s'"`()=,;]/;
const PATH_MAX = 4096;
/** A string the shell would expand against the filesystem: a glob or a brace list. */
const PATTERN = /[*?[{]/;
// no nested quantifiers: a fuzzed megabyte of code must stay linear
const WRITES_IN_CODE = /write|append|\bfile\s*=|['"][wax]b?\+?['"]|rename|replace|copy|move|unlink|remove|delete|erase|rmtree|rmdir|rmSync|\brm\b|\brm_|truncate|symlink|link\(|system|exec|spawn|popen|subprocess|>/;

/** The handoff files an interpreter's unread code names, when that code writes at all. */
export function interpreterWrites(cmd: SimpleCommand, whole: string, shells: Set<string>, judged: Set<string | null>): WriteTarget[] {
  if (!runsUnreadCode(cmd, shells)) return [];
  const seen = namedFiles(whole);
  // the names come from the whole line: once per directory of this line is enough, however many calls it makes
  if (judged.has(cmd.cwd)) return [];
  judged.add(cmd.cwd);
  // a directory the code names in a string (`shutil.rmtree("memory")`): the handoff files under it may go; a pattern
  // (`glob.glob("memory/h*")`, perl's `glob "memory/*"`, ruby's `Dir["memory/*"]`) is expanded as the shell would, and
  // `**` (any depth) takes every file under the directory before it whose name the last part matches
  const deep = seen.dirs.filter((p) => p.includes('**')).map((p): WriteTarget => {
    const parts = p.split('/');
    const first = parts.findIndex((x) => PATTERN.test(x));
    return { path: parts.slice(0, first).join('/') || (p.startsWith('/') ? '/' : '.'), kind: 'delete', cwd: cmd.cwd, names: [parts[parts.length - 1] || '*'] };
  });
  return [...seen.paths.map((p): WriteTarget => ({ path: p, kind: 'write', cwd: cmd.cwd })), ...seen.dirs.map((p): WriteTarget => ({ path: p, kind: 'delete', cwd: cmd.cwd })), ...deep];
}

// A line of many interpreter calls reads its text once, not once per call.
interface Seen {
  whole: string;
  paths: string[];
  /** quoted strings of the code that could name a directory */
  dirs: string[];
}
let last: Seen | null = null;

function namedFiles(whole: string): Seen {
  if (last?.whole === whole) return last;
  const paths = new Set<string>();
  if (!WRITES_IN_CODE.test(whole)) return (last = { whole, paths: [], dirs: [] });
  for (const m of whole.matchAll(HANDOFF_FILE)) {
    // the path the name ends: back to the quote, space or bracket before it
    let start = m.index;
    const floor = Math.max(0, m.index - PATH_MAX);
    while (start > floor && PATH_CHAR.test(whole[start - 1])) start--;
    paths.add(whole.slice(start, m.index + m[0].length));
  }
  const dirs = new Set<string>();
  // a pattern counts when it holds a name's letters too ('*' alone, '.*' are not paths, and are common in code)
  for (const m of whole.matchAll(/(["'])([\w./~+*?[\]{},-]{1,1024})\1/g)) {
    const pattern = PATTERN.test(m[2]);
    if ((/handoff-[^/]*\.md$/.test(m[2]) && !pattern) || /^[wax]b?\+?$/.test(m[2]) || (pattern && !/\w/.test(m[2]))) continue;
    dirs.add(m[2]);
  }
  return (last = { whole, paths: [...paths], dirs: [...dirs].slice(0, 256) });
}
