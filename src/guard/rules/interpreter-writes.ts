// Interpreter code given on the command line or stdin (`python3 -c`, `node -e`, `python3 - <<EOF`): the paths it may
// write, read from its text as the interpreter resolves them (handoff files and strings it names, from the home or the
// environment, the words given after it); code whose paths cannot be read so is refused where it could reach the
// perimeter (rules/pre-tool.ts). Apart from files.ts, so that the first file's bundle stays small.
import path from 'node:path';
import { programName, type SimpleCommand } from '../shell/command';
import type { WriteTarget } from '../shell/writes';
import { codeOption, runsUnreadCode } from './refs';

const HANDOFF_FILE = /handoff-[A-Za-z0-9._-]+\.md/g;
const PATH_CHAR = /[^\s'"`()=,;]/;
const PATH_MAX = 4096;
/** A string the shell would expand against the filesystem: a glob or a brace list. */
const PATTERN = /[*?[{]/;
// no nested quantifiers: a fuzzed megabyte of code must stay linear
const WRITES_IN_CODE = /write|append|extract|unpack|copytree|\bfile\s*=|['"][wax]b?\+?['"]|rename|replace|copy|move|unlink|remove|delete|erase|rmtree|rmdir|rmSync|\brm\b|\brm_|truncate|symlink|link\(|system|exec|spawn|popen|subprocess|>/;
/** Code that removes, moves or copies whole trees: a directory it names may lose (or get) every file under it. */
const TREE_IN_CODE = /rmtree|rmdir|rmSync|remove|unlink|delete|erase|\brm\b|\brm_|rename|move|copytree|cp_r|copy|extract|unpack|system|exec|spawn|popen|subprocess/;
/** Perl's open modes before a file name in a two-argument open (`">file"`, `"+<file"`, `">>file"`, `"| cmd"`). */
const OPEN_MODE = /^\s*(\+?[<>]{1,2}|\|)\s*/;

/** Where the home is read in code: every spelling of the interpreters the guard knows, at its first use. */
const HOME_READS = [
  /os\.path\.expanduser\(\s*(['"])~\1\s*\)/g,
  /(?:pathlib\.)?Path\.home\(\s*\)/g,
  /(?:pathlib\.)?Path\(\s*(['"])~\1\s*\)\.expanduser\(\s*\)/g,
  /(?:require\(\s*(['"])(?:node:)?os\1\s*\)|\bos)\.homedir\(\s*\)/g,
  /(?:require\(\s*(['"])(?:node:)?os\1\s*\)|\bos)\.userInfo\(\s*\)\.homedir/g,
  /\bDir\.home\b/g,
  /File\.expand_path\(\s*(['"])~\1\s*\)/g,
  /\bhomedir\(\s*\)/g,
];
/** Where a variable of the environment is read, with its brackets (`os.environ['X']`, `$ENV{X}`): group 2 (or 3) is its name. */
const ENV_READS =
  /(?:os\.environ(?:\.get)?[[(]|os\.getenv\(|\bgetenv\(|process\.env\[|\bENV(?:\.fetch)?[[(]|\bENVIRON\[|\$_(?:SERVER|ENV)\[|\$ENV\{)\s*(['"]?)([A-Za-z_]\w*)\1\s*[\]})]?|process\.env\.([A-Za-z_]\w*)/g;
/** A path made at run time from something other than strings of the code: characters, decoding, reversing, running code. */
const BUILT =
  /\bchr\b|\bchar\(|fromCharCode|b64decode|base64|atob\(|fromhex|unhexlify|codecs\.|rot.?13|\[::-1\]|\.reverse\(|\bpack\(|\bsprintf\(\s*['"]%c|\beval\b|\bexec\(|compile\(|__import__|getattr\(/;
/** Code reading its input: a path may come from there. */
const READS_INPUT = /\binput\(|stdin|<STDIN>|<>|\bgets\b|readline|readFileSync\(\s*(0|['"]\/dev\/stdin['"])/;
/** A marker for the home in the code's text, once read (a character no code holds). */
const HOME = '\u0001';

interface InterpreterReach {
  targets: WriteTarget[];
  /** why the code's writes cannot be resolved, or null */
  unresolved: string | null;
  /** the code starts paths from the home or the environment (so an unresolved one can land anywhere there) */
  fromBase: boolean;
  /** the code's strings, for whether it names a part of the perimeter (src/guard/perimeter.ts, namesPerimeterPart) */
  strings: string[];
}

const NONE: InterpreterReach = { targets: [], unresolved: null, fromBase: false, strings: [] };

/** The paths an interpreter's unread code may write, when that code writes at all (`env`: the call's environment, for HOME and other variables). */
export function interpreterWrites(cmd: SimpleCommand, whole: string, judged: Set<string | null>, env: NodeJS.ProcessEnv): InterpreterReach {
  if (!runsUnreadCode(cmd)) return NONE;
  const seen = namedFiles(whole, env);
  // the names come from the whole line: once per directory of this line is enough, however many calls it makes
  if (judged.has(cmd.cwd)) return { ...NONE, targets: givenWords(cmd, seen) };
  judged.add(cmd.cwd);
  // a directory the code names may lose what is under it; a pattern is expanded as the shell would (`**`: any depth)
  const deep = seen.dirs.filter((p) => p.includes('**')).map((p): WriteTarget => {
    const parts = p.split('/');
    const first = parts.findIndex((x) => PATTERN.test(x));
    return { path: parts.slice(0, first).join('/') || (p.startsWith('/') ? '/' : '.'), kind: 'delete', cwd: cmd.cwd, names: [parts[parts.length - 1] || '*'] };
  });
  const kind = seen.tree ? 'delete' : 'write';
  const targets = [
    ...seen.paths.map((p): WriteTarget => ({ path: p, kind: 'write', cwd: cmd.cwd })),
    ...seen.dirs.map((p): WriteTarget => ({ path: p, kind, cwd: cmd.cwd })),
    ...deep,
    ...seen.rooted.map((p): WriteTarget => ({ path: p, kind, cwd: cmd.cwd })),
    ...givenWords(cmd, seen),
  ];
  const unseenInput = READS_INPUT.test(whole) && (cmd.stdinFrom !== undefined || cmd.redirects.some((r) => r.op === '<')) ? 'reads a path from input the guard does not see' : null;
  return { targets, unresolved: seen.writes ? (seen.unresolved ?? unseenInput) : null, fromBase: seen.fromBase, strings: seen.strings };
}

/** The words the code is given after it (`sys.argv`, `@ARGV`) and what a here-document or here-string feeds it, as written paths. */
function givenWords(cmd: SimpleCommand, seen: Seen): WriteTarget[] {
  if (!seen.writes) return [];
  const words: string[] = [];
  const args = cmd.argv.slice(1);
  // after the code (the interpreter's code option, refs.ts INTERPRETERS): the rest are the code's arguments
  const code = codeOption(programName(cmd.argv));
  const codeAt = code ? args.findIndex((_, i) => i > 0 && code.test(args[i - 1])) : -1;
  if (codeAt >= 0) words.push(...args.slice(codeAt + 1).filter((a) => !a.startsWith('-')));
  for (const r of cmd.redirects) if (r.op === '<<' || r.op === '<<<') words.push(...`${r.target} ${r.body ?? ''}`.split(/\s+/));
  return words.filter((w) => w !== '' && w.length < PATH_MAX && !/[\n();'"<>|&]/.test(w)).map((w): WriteTarget => ({ path: w, kind: seen.tree ? 'delete' : 'write', cwd: cmd.cwd }));
}

// A line of many interpreter calls reads its text once, not once per call.
interface Seen {
  whole: string;
  writes: boolean;
  tree: boolean;
  paths: string[];
  /** quoted strings of the code that could name a directory */
  dirs: string[];
  /** paths resolved from the home or a variable of the environment, absolute */
  rooted: string[];
  /** the code builds a path the guard cannot read (a variable not set, characters, decoding), said how; or null */
  unresolved: string | null;
  fromBase: boolean;
  strings: string[];
}
let last: { seen: Seen; home: string | undefined } | null = null;

/** `'a' + 'b'`, `"a" . "b"`, `'a' 'b'`: strings glued into one, as the interpreter does. */
function glued(code: string): string {
  let out = code;
  for (let i = 0; i < 8; i++) {
    const next = out.replace(/(['"])([^'"\n]{0,1024})\1\s*[+.]?\s*(['"])([^'"\n]{0,1024})\3/g, (_m, q, a, _q2, b) => `${q}${a}${b}${q}`);
    if (next === out) break;
    out = next;
  }
  return out;
}

function namedFiles(whole: string, env: NodeJS.ProcessEnv): Seen {
  const home = env.HOME;
  if (last?.seen.whole === whole && last.home === home) return last.seen;
  const empty: Seen = { whole, writes: false, tree: false, paths: [], dirs: [], rooted: [], unresolved: null, fromBase: false, strings: [] };
  if (!WRITES_IN_CODE.test(whole)) return (last = { seen: empty, home }).seen;
  const paths = new Set<string>();
  for (const m of whole.matchAll(HANDOFF_FILE)) {
    // the path the name ends: back to the quote, space or bracket before it
    let start = m.index;
    const floor = Math.max(0, m.index - PATH_MAX);
    while (start > floor && PATH_CHAR.test(whole[start - 1])) start--;
    paths.add(whole.slice(start, m.index + m[0].length).replace(OPEN_MODE, ''));
  }
  const dirs = new Set<string>();
  // an archive unpacked with no directory given (`ZipFile(…).extractall()`, `shutil.unpack_archive('x.zip')`) lands here
  if (/extractall\(\s*\)|unpack_archive\(\s*[^,()]*\)/.test(whole)) dirs.add('.');
  // a pattern counts when it holds a name's letters too ('*' alone, '.*' are not paths, and are common in code)
  // glued as the interpreter glues them (`'src/' + 'a.ts'`), and as written
  for (const m of `${whole}\n${glued(whole)}`.matchAll(/(["'])([\w./~+*?[\]{},-]{1,1024})\1/g)) {
    const pattern = PATTERN.test(m[2]);
    if ((/handoff-[^/]*\.md$/.test(m[2]) && !pattern) || /^[wax]b?\+?$/.test(m[2]) || (pattern && !/\w/.test(m[2]))) continue;
    dirs.add(m[2]);
  }
  // `os.path.join('src', 'a.ts')`, `path.resolve('src', 'a.ts')`: two to four literal parts joined as the call joins them
  for (const m of whole.matchAll(/\b(?:join|resolve)\(/g)) {
    const args = whole.slice(m.index + m[0].length, m.index + m[0].length + PATH_MAX);
    const parts = [...args.slice(0, Math.max(0, args.indexOf(')'))).matchAll(/(["'])([\w./~+-]{0,1024})\1/g)].map((x) => x[2]);
    if (parts.length >= 2 && parts.length <= 4) dirs.add(path.join(...parts));
  }
  // the home and the environment, read as the interpreter would
  let code = whole;
  for (const re of HOME_READS) code = code.replace(re, HOME);
  const unset: string[] = [];
  const bases = new Map<string, string>();
  code = code.replace(ENV_READS, (_m, _q, a, b) => {
    const name = a ?? b;
    if (name === 'HOME') return HOME;
    const value = env[name];
    if (value === undefined || value === '' || !path.isAbsolute(value)) {
      unset.push(name);
      return _m;
    }
    const mark = String.fromCharCode(2 + bases.size);
    if (bases.size < 16) bases.set(mark, value);
    return bases.size <= 16 ? mark : _m;
  });
  // an interpolation around a read (`#{Dir.home}`, `${os.homedir()}`, f"{Path.home()}") is the read itself
  code = code.replace(/[#$]?\{\s*([\u0001-\u0011])\s*\}/g, '$1');
  const rooted = new Set<string>();
  const homeRead = code.includes(HOME) || /(['"])~(\/[^'"\n]*)?\1/.test(code);
  // a string holding a command line (`os.system('echo x >> ~/.gitconfig')`) is read word by word too
  const strings = [...glued(code).matchAll(/(['"`])([^'"`\n]{0,1024})\1/g)]
    .flatMap((m) => [m[2], ...(/\s/.test(m[2]) ? m[2].split(/[\s<>|;&]+/) : [])])
    .map((s) => s.replace(OPEN_MODE, ''))
    .filter((s) => s !== '' && !/^[wax]b?\+?$/.test(s));
  const rootOf = (s: string): string | null => {
    // the last read in a string is where its path starts (`"$ENV{HOME}/.gitconfig"`, `'~/.gitconfig'`)
    const at = Math.max(...[HOME, ...bases.keys()].map((k) => s.lastIndexOf(k)));
    if (at >= 0) {
      const base = s[at] === HOME ? home : bases.get(s[at]);
      return base ? path.join(base, s.slice(at + 1)) : null;
    }
    if (s === '~' || s.startsWith('~/')) return home ? path.join(home, s.slice(1)) : null;
    return null;
  };
  const starts = [...(homeRead && home ? [home] : []), ...bases.values()];
  for (const [i, s] of strings.entries()) {
    const own = rootOf(s);
    if (own !== null) rooted.add(own);
    // a read outside the strings (`os.path.join(Path.home(), '.gitconfig')`, `ENV['HOME'] + '/.gitconfig'`): each
    // string, and up to four in a row joined as one path, from each place the code starts from
    if (own !== null) continue;
    for (const start of starts) {
      for (let n = 1; n <= 4 && i + n <= strings.length; n++) {
        const run = strings.slice(i, i + n);
        if (run.some((r, k) => k > 0 && rootOf(r) !== null)) break;
        rooted.add(path.join(start, ...run));
      }
    }
  }
  const built = BUILT.exec(code);
  const unresolved = unset.length
    ? `builds a path from ${unset.slice(0, 3).map((n) => `$${n}`).join(', ')}, which this environment does not hold`
    : built
      ? `builds a name at run time (\`${built[0]}\`) the guard cannot read`
      : null;
  const fromBase = starts.length > 0 || unset.length > 0 || homeRead;
  const seen: Seen = { whole, writes: true, tree: TREE_IN_CODE.test(whole), paths: [...paths], dirs: [...dirs].slice(0, 256), rooted: [...rooted].slice(0, 1024), unresolved, fromBase, strings: strings.slice(0, 256) };
  return (last = { seen, home }).seen;
}
