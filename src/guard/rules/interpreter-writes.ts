// Interpreters given code on the command line or stdin (`python3 -c`, `node -e`, `python3 - <<EOF`): what the code
// does cannot be read, so a handoff file it names, where the code writes at all, counts as written by the shell.
// Apart from files.ts, which the guard's first file bundles, so that bundle stays small.
import type { SimpleCommand, WriteTarget } from '../shell';
import { runsUnreadCode } from './refs';

const HANDOFF_FILE = /handoff-[A-Za-z0-9._-]+\.md/g;
const PATH_CHAR = /[^\s'"`()=,;]/;
const PATH_MAX = 4096;
// no nested quantifiers: a fuzzed megabyte of code must stay linear
const WRITES_IN_CODE = /write|append|\bfile\s*=|['"][wax]b?\+?['"]|rename|replace|copy|move|unlink|remove|truncate|symlink|link\(|>/;

/** The handoff files an interpreter's unread code names, when that code writes at all. */
export function interpreterWrites(cmd: SimpleCommand, whole: string, shells: Set<string>): WriteTarget[] {
  if (!runsUnreadCode(cmd, shells)) return [];
  const seen = namedFiles(whole);
  // the names come from the whole line: once per directory is enough, however many calls the line makes
  if (seen.cwds.has(cmd.cwd)) return [];
  seen.cwds.add(cmd.cwd);
  return seen.paths.map((p) => ({ path: p, kind: 'write', cwd: cmd.cwd }));
}

// A line of many interpreter calls reads its text once, not once per call.
interface Seen {
  whole: string;
  paths: string[];
  cwds: Set<string | null>;
}
let last: Seen | null = null;

function namedFiles(whole: string): Seen {
  if (last?.whole === whole) return last;
  const paths = new Set<string>();
  if (!WRITES_IN_CODE.test(whole)) return (last = { whole, paths: [], cwds: new Set() });
  for (const m of whole.matchAll(HANDOFF_FILE)) {
    // the path the name ends: back to the quote, space or bracket before it
    let start = m.index;
    const floor = Math.max(0, m.index - PATH_MAX);
    while (start > floor && PATH_CHAR.test(whole[start - 1])) start--;
    paths.add(whole.slice(start, m.index + m[0].length));
  }
  return (last = { whole, paths: [...paths], cwds: new Set() });
}
