// A shell command line as the simple commands it runs: tokenized by shell-quote, with nested `sh -c`,
// wrappers (env, sudo, xargs, timeout…), `cd` tracking, subshells and $(…) / `…`, heredoc bodies skipped.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { own } from '../clients/event';
import { expands, lex, LexBound, splitWords, type Token } from './lex';
import { printedTexts } from './printed';
import { persistentSetting, RUNNING_KEYS, runningKey } from './rules/git-config';
import { knownDirs } from './rules/reach';

export interface Redirect {
  op: string;
  target: string;
  /** a here-document's or here-string's text (op `<<`) */
  body?: string;
}

export interface SimpleCommand {
  /** program and arguments, wrappers and VAR=value assignments removed */
  argv: string[];
  /** VAR=value assignments in front of the command */
  assigns: Record<string, string>;
  /** the directory it runs in, when known (after `cd` steps of the same line) */
  cwd: string | null;
  redirects: Redirect[];
  /** arguments are also read from stdin (xargs) */
  xargs: boolean;
  /** xargs's own options, as given (how it reads its input: -0, -d, -a; src/guard/rules/untracked.ts) */
  xargsArgs?: string[];
  /** xargs was given only wrappers (`xargs env`, `xargs sudo`): the program itself comes from its input */
  fromInput?: true;
  /** the command of the same line whose output this one reads (a pipe) */
  stdinFrom?: SimpleCommand;
  /** run by a value (a configuration key or a variable, named here) whose text holds an expansion the guard cannot see */
  unseen?: string;
  /** a shell (or `source`) that runs a script the guard cannot read: from its input, a process substitution, an expansion */
  unread?: string;
  /** of `unread`: the script is made on this line by the program piping it (`echo <base64> | base64 -d | sh`): its text
   *  is on the line, in a form only that program shows; refused whatever the line names */
  builtBy?: string;
  /** an argument names a file written earlier on the same line (`echo '<code>' > s.py; python3 s.py`: the code is on the line) */
  writtenArg?: true;
}

const SEPARATORS = new Set([';', '&&', '||', '|', '|&', '&', '(', ')', ';;', '<(', '>(']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
// Words that open or close a compound command; the simple command follows them (`{ git …; }`, `then git …`).
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
const MAX_DEPTH = 4;
// Producers that hand a shell a script made elsewhere, unchanged (a file, a download): `cat s.sh | sh` is `sh s.sh`, a
// script written in an earlier call (out of reach by design, SECURITY.md). Any other producer may make the script from
// this line's own text (`base64 -d`, `xxd -r`, `rev`, `tr`, `sed`, `gzip -d`, …): not a list of decoders, a list of these.
const PASSES_ON = new Set(['cat', 'curl', 'wget']);

/** The simple commands a script runs, in order (src/guard/lex.ts reads it as the shell does). */
export function parseShell(script: string, cwd: string | null = null, depth = 0): SimpleCommand[] {
  const entries: Token[] = lex(script, process.env.HOME ?? null);
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: Redirect[] = [];
  let pending: string | null = null;
  let dir = cwd;
  // the command whose output the next one reads (after `|`)
  let piped: SimpleCommand | null = null;
  let last: SimpleCommand | null = null;
  // variables set earlier on the line (`X=1;`, `export X=1 &&`), for the values that run commands
  const vars: Record<string, string> = {};
  // the directory before each open subshell `( … )`, and pushd's stack
  const subshells: Array<string | null> = [];
  const pushed: Array<string | null> = [];
  // files this line writes, with their text when it is known (`echo '<script>' > s.sh`), for a later step running one
  const written = new Map<string, string | null>();
  // of those whose text is not known, the program that wrote each (`base64 -d … > s.sh`: it made the script)
  const makers = new Map<string, string>();
  const flush = (op: string | null = null) => {
    if (words.length || redirects.length) {
      const cmds = unwrap(words, redirects, dir, depth, vars);
      const before = dir;
      for (const c of cmds) {
        // `echo 'rm …' > /tmp/s.sh; . /tmp/s.sh` (source, sh, bash, ./s.sh): the script written on this line is read
        const ran = writtenScriptRun(c, written, makers);
        if (ran !== null) {
          if (ran.text !== null && depth < MAX_DEPTH) out.push(...parseShell(ran.text, c.cwd, depth + 1));
          else {
            c.unread = `\`${ran.shown}\` (a script written on this line by a command whose output the guard cannot read)`;
            if (ran.maker !== undefined && !PASSES_ON.has(ran.maker)) c.builtBy = ran.maker;
          }
        }
        if (ran === null && written.size && c.argv.slice(1).some((a) => { const at = pathAt(a, c.cwd); return at !== null && written.has(at); })) c.writtenArg = true;
        recordWrites(c, written, makers);
        // what its configuration values and environment variables run, read as `sh -c '<value>'` (runValueCommands, below)
        out.push(...runValueCommands(c, vars, depth));
        Object.assign(vars, setsForLine(c));
        if (piped) c.stdinFrom = piped;
        // `echo '<script>' | sh`: the script is the producer's literal words, read as the shell will
        if (c.unread && piped) {
          // `echo '<script>' > s.sh; cat s.sh | sh`: a file written on this line, read back whole
          const catted = piped.argv[0] === 'cat' && piped.argv.length === 2 && !Object.keys(piped.assigns).length ? written.get(pathAt(piped.argv[1], piped.cwd) ?? '') : undefined;
          const scripts = typeof catted === 'string' ? [catted] : literalOutput(piped);
          if (scripts !== null && depth < MAX_DEPTH) {
            for (const script of scripts) out.push(...parseShell(script, dir, depth + 1).map((n) => ({ ...n, xargs: n.xargs || c.xargs })));
            delete c.unread;
          } else if (!PASSES_ON.has(piped.argv[0] ?? '')) c.builtBy = piped.argv[0] ?? 'a command';
        }
        out.push(c);
        if (c.argv.length) last = c;
        if (c.argv[0] === 'cd' || c.argv[0] === 'pushd') {
          if (c.argv[0] === 'pushd') pushed.push(dir);
          dir = changeDir(dir, dirOperand(c.argv));
        } else if (c.argv[0] === 'popd') dir = pushed.length ? pushed.pop()! : null;
      }
      // a step of a pipeline runs in a subshell (bash; zsh runs the last one here): where it ends up is not known
      if (dir !== before && (piped !== null || op === '|' || op === '|&')) dir = null;
      // in the background it runs in a subshell: nothing changes here
      else if (op === '&') dir = before;
    }
    if (op === '(') subshells.push(dir);
    else if (op === ')' && subshells.length) dir = subshells.pop()!;
    if (op !== null) piped = op === '|' || op === '|&' ? last : null;
    words = [];
    redirects = [];
  };
  for (const e of entries) {
    if (typeof e === 'string') {
      if (pending) {
        redirects.push({ op: pending, target: e });
        pending = null;
      } else words.push(e);
      continue;
    }
    if (e.op === '<<' && 'body' in e) {
      redirects.push({ op: '<<', target: '', body: e.body });
      continue;
    }
    if ('pattern' in e) {
      if (pending) {
        redirects.push({ op: pending, target: e.pattern });
        pending = null;
      } else words.push(e.pattern);
      continue;
    }
    const op = e.op;
    if (SEPARATORS.has(op)) {
      pending = null;
      flush(op);
      continue;
    }
    pending = op;
  }
  flush();
  return out;
}

/** cd's or pushd's operand: options (-P, -L, -e, -@, -n) and `--` skipped; `+N`/`-N` (the stack) is not a directory. */
function dirOperand(argv: string[]): string | undefined {
  let i = 1;
  while (i < argv.length && /^-[PLe@n]+$/.test(argv[i])) i++;
  if (argv[i] === '--') i++;
  if (argv[i] !== undefined && /^[+-]\d+$/.test(argv[i])) return '-';
  return argv[i];
}

/** Where a path a command names is (null: built by an expansion, or relative to an unknown directory). */
function pathAt(p: string, dir: string | null): string | null {
  if (/[$`*?[]/.test(p) || p.startsWith('~')) return null;
  return path.isAbsolute(p) ? path.normalize(p) : dir ? path.resolve(dir, p) : null;
}

/** Records the files a command writes by redirection, with the text when it is echo's, printf's or a here-document's. */
function recordWrites(c: SimpleCommand, written: Map<string, string | null>, makers: Map<string, string>): void {
  for (const r of c.redirects) {
    if (!WRITE_REDIRECTS.has(r.op) || /^(\d+|-|\/dev\/null)$/.test(r.target)) continue;
    const at = pathAt(r.target, c.cwd);
    if (at === null) continue;
    const prog = c.argv[0] ?? '';
    const doc = prog === 'cat' && c.argv.length === 1 ? c.redirects.find((d) => d.op === '<<' && d.body !== undefined)?.body : undefined;
    const printed = doc === undefined && (prog === 'echo' || prog === 'printf') && !Object.keys(c.assigns).length ? printedTexts(prog, c.argv.slice(1)) : null;
    let text: string | null = doc ?? (printed && new Set(printed).size === 1 ? printed[0] : null);
    if (r.op.endsWith('>>')) {
      const prior = written.get(at);
      text = prior === undefined || prior === null || text === null ? null : prior + text;
    }
    written.set(at, text);
    if (text === null) makers.set(at, path.basename(prog) || 'a redirection');
  }
  // tee names the files it writes; their text is its input
  if (c.argv[0] === 'tee') for (const a of c.argv.slice(1)) if (!a.startsWith('-')) { const at = pathAt(a, c.cwd); if (at !== null) { written.set(at, null); makers.set(at, 'tee'); } }
}

/** A command running a file written earlier on the same line (`.`/`source`, a shell given it, `./s.sh`, `sh < s.sh`): its text (null: unknown). */
function writtenScriptRun(c: SimpleCommand, written: Map<string, string | null>, makers: Map<string, string>): { text: string | null; shown: string; maker?: string } | null {
  if (written.size === 0 || c.argv.length === 0) return null;
  const prog = path.basename(c.argv[0]);
  let file: string | undefined;
  if (prog === '.' || prog === 'source') file = c.argv[1];
  else if (SHELLS.has(prog)) {
    for (let k = 1; k < c.argv.length; k++) {
      const a = c.argv[k];
      if (a === '--') { file = c.argv[k + 1]; break; }
      if (/^[-+][oO]$|^--(rcfile|init-file)$/.test(a)) k++;
      else if (!/^[-+]/.test(a)) { file = a; break; }
    }
    file ??= c.redirects.find((r) => r.op === '<')?.target;
  } else if (c.argv[0].includes('/')) file = c.argv[0];
  if (file === undefined) return null;
  const at = pathAt(file, c.cwd);
  if (at === null || !written.has(at)) return null;
  return { text: written.get(at)!, shown: c.argv.join(' ').slice(0, 80), maker: makers.get(at) };
}

/** The texts `echo`/`printf` of literal words print (src/guard/printed.ts), as scripts a shell would read; null for anything else. */
function literalOutput(p: SimpleCommand): string[] | null {
  const [prog, ...args] = p.argv;
  if (Object.keys(p.assigns).length || p.redirects.some((r) => r.op !== '<<' && !/^(\d+|-|\/dev\/null)$/.test(r.target))) return null;
  const texts = printedTexts(prog ?? '', args);
  return texts && [...new Set(texts)];
}

function changeDir(dir: string | null, given: string | undefined): string | null {
  // $PWD, $(pwd) and $(git rev-parse --show-toplevel) are known; another expansion, a glob or a brace list is not
  const to = given === undefined ? undefined : knownDirs(given, dir).replace(/\$\{PWD\}|\$PWD\b/g, dir ?? '$PWD');
  if (!to || to === '-' || to.startsWith('~') || /[$`*?[{]/.test(to)) return null;
  if (path.isAbsolute(to)) return to;
  return dir ? path.resolve(dir, to) : null;
}

const takesValue: Record<string, Set<string>> = {
  exec: new Set(['-a']),
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U']),
  nice: new Set(['-n', '--adjustment']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  xargs: new Set(['-I', '-i', '-n', '-P', '-L', '-l', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--replace']),
  stdbuf: new Set(['-i', '-o', '-e']),
  ionice: new Set(['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid']),
  flock: new Set(['-w', '--timeout', '-E', '--conflict-exit-code']),
  unshare: new Set(['--setuid', '--setgid', '-S', '-G', '--root', '--wd', '--propagation']),
  nsenter: new Set(['-t', '--target', '-S', '--setuid', '-G', '--setgid', '--root', '--wd']),
};
/** Whether a wrapper's option word takes the next word as its value: a valued option, or a cluster ending in one (`xargs -0a FILE`, `sudo -nu USER`). */
function takesNext(word: string, valued: Set<string>): boolean {
  if (valued.has(word)) return true;
  if (!/^-[^-]/.test(word)) return false;
  for (let k = 1; k < word.length; k++) if (valued.has(`-${word[k]}`)) return k === word.length - 1;
  return false;
}
// Programs that run the command after their options (and, for some, one operand of their own).
const WRAPPERS = new Set(['env', 'sudo', 'nohup', 'time', 'command', 'exec', 'nice', 'timeout', 'xargs', 'stdbuf', 'builtin', 'doas', 'setsid', 'ionice', 'chrt', 'taskset', 'flock', 'unshare', 'nsenter', 'chroot', 'unbuffer', 'rlwrap', 'faketime', 'chronic', 'catchsegv', 'busybox', 'proxychains', 'torsocks', 'caffeinate']);
// Wrappers whose first operand is their own (a priority, a CPU mask, a lock file, a root directory, a time).
const OWN_OPERAND = new Set(['chrt', 'taskset', 'flock', 'chroot', 'faketime']);

/** Strips assignments and wrapper programs; expands `sh -c '<script>'` into its own commands. */
function unwrap(given: string[], redirects: Redirect[], cwd: string | null, depth: number, line: Record<string, string> = {}): SimpleCommand[] {
  const assigns: Record<string, string> = {};
  let words = given;
  let xargs = false;
  let xargsArgs: string[] | undefined;
  let xargsCommand = false;
  let i = 0;
  let dir = cwd;
  for (;;) {
    while (i < words.length && RESERVED.has(words[i])) i++;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) {
      const eq = words[i].indexOf('=');
      assigns[words[i].slice(0, eq)] = words[i].slice(eq + 1);
      i++;
    }
    // `x='rm …'; $x`: a program word built from a variable the line set is the words of its value
    if (words[i] !== undefined && words[i].includes('$') && depth < MAX_DEPTH) {
      const known = substituteVars(words[i], { ...line, ...assigns });
      if (known !== words[i]) {
        words = [...words.slice(0, i), ...splitWords(known), ...words.slice(i + 1)];
        continue;
      }
    }
    const prog = words[i] !== undefined ? path.basename(words[i]) : undefined;
    if (prog && WRAPPERS.has(prog)) {
      i++;
      if (prog === 'xargs') xargs = true;
      const valued = takesValue[prog] ?? new Set<string>();
      const options = i;
      while (i < words.length && words[i].startsWith('-') && words[i] !== '--') {
        if ((prog === 'env' && (words[i] === '-C' || words[i] === '--chdir')) && words[i + 1]) dir = changeDir(dir, words[i + 1]);
        // `env -S '<words>'` (and -vS…, -S<words>, --split-string=…): the string is split into the command's words
        const split = prog === 'env' ? splitString(words, i) : null;
        if (split) {
          words = [...words.slice(0, i), ...splitWords(split.value), ...words.slice(i + split.used)];
          continue;
        }
        if (takesNext(words[i], valued)) i++;
        i++;
      }
      if (words[i] === '--') i++;
      if (prog === 'xargs' && !xargsArgs) {
        xargsArgs = words.slice(options, i);
        xargsCommand = i < words.length;
      }
      if (prog === 'timeout' && /^\d/.test(words[i] ?? '')) i++;
      if (OWN_OPERAND.has(prog) && i < words.length) {
        i++;
        // `flock <file> -c '<script>'` runs a script as sh -c does
        const c = prog === 'flock' && (words[i] === '-c' || words[i] === '--command') ? words[i + 1] : undefined;
        if (c !== undefined && depth < MAX_DEPTH) return [...parseShell(c, dir, depth + 1), { argv: [], assigns, cwd: dir, redirects, xargs }];
      }
      continue;
    }
    break;
  }
  let argv = words.slice(i);
  // `git -c alias.x=update-ref x …`: an alias defined for this one command runs what it stands for
  const alias = aliasOf(argv, assigns);
  if (alias !== null && depth < MAX_DEPTH) {
    if (alias.shell !== null) return [...parseShell(alias.shell, dir, depth + 1), { argv: [], assigns, cwd: dir, redirects, xargs }];
    argv = alias.argv;
  }
  // git verbs that run a command line they are given (rebase --exec, difftool -x, bisect run, submodule foreach, …)
  const run = depth < MAX_DEPTH ? gitRunsScripts({ argv, assigns, cwd: dir, redirects, xargs }) : [];
  if (run.length) return [...run.flatMap((script) => parseShell(substituteVars(script, { ...line, ...assigns }), dir, depth + 1)), { argv, assigns, cwd: dir, redirects, xargs }];
  const prog = argv[0] !== undefined ? path.basename(argv[0]) : '';
  // `eval word…` runs its words, joined, as a script.
  if (prog === 'eval' && depth < MAX_DEPTH && argv.length > 1) {
    return [...parseShell(substituteVars(argv.slice(1).join(' '), { ...line, ...assigns }), dir, depth + 1), { argv: [], assigns, cwd: dir, redirects, xargs }];
  }
  // A program named by an expansion (`$SHELL -c …`, `$GIT …`) may be a shell or git: it is read as one.
  if (SHELLS.has(prog) || RUNS_SHELL_C.has(prog) || argv[0]?.startsWith('$') || prog === 'source' || prog === '.') {
    const found = prog === 'source' || prog === '.' ? sourcedScript(argv, redirects) : shellScript(argv, redirects);
    // the line's variables in it (`x='rm …'; bash -c "$x"`): read as they will be when it runs
    const script = found === null ? null : substituteVars(found, { ...line, ...assigns });
    if (script !== null) {
      if (depth >= MAX_DEPTH) throw new LexBound(`shells nested more than ${MAX_DEPTH} deep`);
      // a shell run by xargs gets its arguments from xargs's input too
      return [...parseShell(script, dir, depth + 1).map((c) => ({ ...c, xargs: c.xargs || xargs })), { argv: [], assigns, cwd: dir, redirects, xargs }];
    }
  }
  const unread = unreadScript(prog, argv, redirects);
  const fromInput = xargsCommand && argv.length === 0 ? { fromInput: true as const } : {};
  return [{ argv, assigns, cwd: dir, redirects, xargs, ...(xargsArgs ? { xargsArgs } : {}), ...fromInput, ...(unread ? { unread } : {}) }];
}

// What a shell reads its script from when it is not a file the session named: its input, a descriptor (a process
// substitution is /dev/fd/N), a command substitution's output.
const STDIN_LIKE = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(self|\d+)\/fd\/\d+)$/;

/** What a command runs that the guard cannot read (its input, a descriptor, an expansion's output), named; else undefined. */
function unreadScript(prog: string, argv: string[], redirects: Redirect[]): string | undefined {
  if (expands(argv[0] ?? '') && /\$\(|`/.test(argv[0])) return `\`${argv[0].slice(0, 60)}\` (a program named by a command's output)`;
  if (prog === 'source' || prog === '.') return argv[1] !== undefined && STDIN_LIKE.test(argv[1]) ? `\`${prog} ${argv[1]}\`` : undefined;
  if (!SHELLS.has(prog)) return undefined;
  const operands: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    if (argv[k] === '--') {
      operands.push(...argv.slice(k + 1));
      break;
    }
    if (/^[-+][oO]$|^--(rcfile|init-file)$/.test(argv[k])) k++;
    else if (!/^[-+]/.test(argv[k])) {
      operands.push(...argv.slice(k));
      break;
    }
  }
  // `bash script.sh` runs a file the session may have written: out of reach by design (SECURITY.md), not unread here;
  // with -s the operands are the script's arguments and the script is the input
  const fromInput = argv.slice(1).some((a) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(a));
  if (operands.length && !fromInput && !STDIN_LIKE.test(operands[0])) return undefined;
  if (fromInput) operands.length = 0;
  const from = redirects.find((r) => r.op === '<' || r.op === '<&')?.target;
  // `bash < script.sh` is `bash script.sh`
  if (!operands.length && from !== undefined && !STDIN_LIKE.test(from) && !/^\d+$/.test(from)) return undefined;
  return `\`${prog}\` reading its script from ${operands.length ? operands[0] : from ? from : 'its input'}`;
}

/** The script `source`/`.` runs when the guard can read it: a here-document or here-string on /dev/stdin. */
function sourcedScript(argv: string[], redirects: Redirect[]): string | null {
  const doc = redirects.find((r) => r.op === '<<' && r.body !== undefined);
  return doc && argv[1] !== undefined && /^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(argv[1]) ? doc.body! : null;
}

// Programs that run a shell command line given with -c (as a user, in a pseudo-terminal).
const RUNS_SHELL_C = new Set(['su', 'runuser', 'script', 'sg']);

/** `$NAME`/`${NAME}` replaced by what the line set; what stays unknown keeps its `$`. */
export const substituteVars = (v: string, vars: Record<string, string>) =>
  v.replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a, b) => (Object.hasOwn(vars, a ?? b) ? vars[a ?? b] : m));

/** The script a shell runs: its -c string (`bash -O extglob -c '…'`, `sh -ec -- '…'`), or a here-document it reads. */
function shellScript(argv: string[], redirects: Redirect[]): string | null {
  // su/runuser/script/sg: -c or --command anywhere among their arguments
  if (RUNS_SHELL_C.has(path.basename(argv[0] ?? ''))) {
    for (let k = 1; k < argv.length; k++) {
      if (/^-[a-zA-Z]*c$/.test(argv[k]) || argv[k] === '--command') return argv[k + 1] ?? null;
      if (argv[k].startsWith('--command=')) return argv[k].slice(10);
    }
    return null;
  }
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--' || !/^[-+]/.test(a)) break;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) {
      const at = argv[k + 1] === '--' ? k + 2 : k + 1;
      return argv[at] ?? null;
    }
    // options with a value of their own
    if (/^[-+]O$|^[-+]o$|^--(rcfile|init-file)$/.test(a)) k++;
  }
  const doc = redirects.find((r) => r.op === '<<' && r.body !== undefined);
  const operands = argv.slice(1).filter((a) => !/^[-+]/.test(a));
  return doc && operands.length === 0 ? doc.body! : null;
}

/** `env`'s split-string option at words[i]: its value and how many words it took, or null. */
function splitString(words: string[], i: number): { value: string; used: number } | null {
  const w = words[i];
  if (w === '--split-string' || w === '-S') return words[i + 1] !== undefined ? { value: words[i + 1], used: 2 } : null;
  if (w.startsWith('--split-string=')) return { value: w.slice('--split-string='.length), used: 1 };
  const m = /^-[a-zA-Z]*?S(.*)$/.exec(w);
  if (!m || w.startsWith('--')) return null;
  if (m[1] !== '') return { value: m[1], used: 1 };
  return words[i + 1] !== undefined ? { value: words[i + 1], used: 2 } : null;
}

/** `-c` settings of a git command line and of GIT_CONFIG_COUNT / GIT_CONFIG_PARAMETERS assignments in front of it. */
export function commandLineConfig(argv: string[], assigns: Record<string, string>): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length && argv[i].startsWith('-'); i++) {
    if (argv[i] === '-c' && argv[i + 1] !== undefined) out.push(argv[++i]);
    else if (argv[i].startsWith('-c') && argv[i].length > 2 && !argv[i].startsWith('--')) out.push(argv[i].slice(2));
    else if (GIT_VALUED.has(argv[i])) i++;
  }
  const n = Number(assigns.GIT_CONFIG_COUNT);
  for (let k = 0; Number.isInteger(n) && k < Math.min(n, 100); k++) {
    if (assigns[`GIT_CONFIG_KEY_${k}`] !== undefined) out.push(`${assigns[`GIT_CONFIG_KEY_${k}`]}=${assigns[`GIT_CONFIG_VALUE_${k}`] ?? ''}`);
  }
  // GIT_CONFIG_PARAMETERS: 'key'='value' pairs, as git -c passes them on
  const params = assigns.GIT_CONFIG_PARAMETERS;
  if (params) for (const m of params.matchAll(/'([^']*)'(?:='([^']*)')?/g)) out.push(m[2] !== undefined ? `${m[1]}=${m[2]}` : m[1]);
  return out;
}

/** A git command line whose subcommand is an alias defined on that line: its expansion (argv, or a shell script for `!…`). */
function aliasOf(argv: string[], assigns: Record<string, string>): { argv: string[]; shell: string | null } | null {
  const prog = argv[0] !== undefined ? path.basename(argv[0]) : '';
  if (prog !== 'git' && !argv[0]?.startsWith('$')) return null;
  const config = commandLineConfig(argv, assigns);
  if (config.length === 0) return null;
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i += GIT_VALUED.has(argv[i]) ? 2 : 1;
  const sub = argv[i];
  if (sub === undefined) return null;
  const def = config.reverse().find((c) => c.slice(0, c.indexOf('=')).toLowerCase() === `alias.${sub.toLowerCase()}`);
  if (def === undefined) return null;
  const value = def.slice(def.indexOf('=') + 1).trim();
  const rest = argv.slice(i + 1);
  if (value.startsWith('!')) return { argv: [], shell: `${value.slice(1)} ${rest.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}` };
  const words = splitWords(value);
  return { argv: [...argv.slice(0, i), ...words, ...rest], shell: null };
}

// Options of git verbs whose value git runs as a shell command line.
const GIT_SCRIPT_OPTIONS: Record<string, string[]> = {
  rebase: ['-x', '--exec'],
  difftool: ['-x', '--extcmd'],
  'filter-branch': ['--setup', '--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'],
  fetch: ['--upload-pack'],
  pull: ['--upload-pack'],
  clone: ['-u', '--upload-pack'],
  'ls-remote': ['--upload-pack'],
  push: ['--receive-pack', '--exec'],
  archive: ['--exec'],
  'send-email': ['--to-cmd', '--cc-cmd', '--header-cmd', '--sendmail-cmd'],
};

/** The command lines a git command runs from its own arguments (`rebase -x '<cmd>'`, `bisect run <cmd…>`, …). */
function gitRunsScripts(cmd: SimpleCommand): string[] {
  const inv = gitInvocation(cmd);
  if (!inv) return [];
  const a = inv.args;
  if (inv.sub === 'bisect' && a[0] === 'run') return a.length > 1 ? [a.slice(1).map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')] : [];
  if (inv.sub === 'submodule') {
    const k = a.indexOf('foreach');
    const rest = k < 0 ? [] : a.slice(k + 1).filter((w) => !/^(-q|--quiet|--recursive)$/.test(w));
    return rest.length ? [rest.join(' ')] : [];
  }
  const names = own(GIT_SCRIPT_OPTIONS, inv.sub);
  if (!names) return [];
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) {
    for (const n of names) {
      if (a[i] === n && a[i + 1] !== undefined) out.push(a[i + 1]);
      else if (n.startsWith('--') && a[i].startsWith(`${n}=`)) out.push(a[i].slice(n.length + 1));
      else if (!n.startsWith('--') && a[i].startsWith(n) && a[i].length > 2) out.push(a[i].slice(2));
    }
  }
  return out;
}

export interface GitInvocation {
  sub: string;
  args: string[];
  /** -C directories applied to the command's cwd */
  cwd: string | null;
  gitDir: string | null;
  /** `-c name=value` settings given for this one command */
  config?: string[];
}

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds']);

/** `git [global options] <sub> <args>` (or `git-<sub>`), null for anything else. */
export function gitInvocation(cmd: SimpleCommand): GitInvocation | null {
  const prog = cmd.argv[0] ? path.basename(cmd.argv[0]) : '';
  if (prog.startsWith('git-') && prog.length > 4) return { sub: prog.slice(4), args: cmd.argv.slice(1), cwd: cmd.cwd, gitDir: null };
  if (prog !== 'git' && !cmd.argv[0]?.startsWith('$')) return null;
  let cwd = cmd.cwd;
  let gitDir: string | null = cmd.assigns.GIT_DIR ?? null;
  const config: string[] = commandLineConfig([], cmd.assigns);
  let i = 1;
  while (i < cmd.argv.length && cmd.argv[i].startsWith('-')) {
    const a = cmd.argv[i];
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : GIT_VALUED.has(name) ? cmd.argv[i + 1] : undefined;
    if (name === '-C' && value !== undefined) cwd = path.isAbsolute(value) ? value : cwd ? path.resolve(cwd, value) : null;
    if (name === '--git-dir' && value !== undefined) gitDir = value;
    if (name === '-c' && value !== undefined) config.push(value);
    // --config-env=<key>=<variable>: the value is the variable's, unknown here
    if (name === '--config-env' && value !== undefined) config.push(value.includes('=') ? `${value.slice(0, value.lastIndexOf('='))}=$${value.slice(value.lastIndexOf('=') + 1)}` : value);
    i += GIT_VALUED.has(name) && eq < 0 ? 2 : 1;
  }
  if (i >= cmd.argv.length) return null;
  return { sub: cmd.argv[i], args: cmd.argv.slice(i + 1), cwd, gitDir, config };
}

export type TargetKind = 'write' | 'append' | 'delete';

// Long options that take a value (so the next word is not an operand) of rsync, curl and wget.
const RSYNC_VALUED = ['--exclude', '--include', '--filter', '--files-from', '--exclude-from', '--include-from', '--rsh', '--rsync-path', '--temp-dir', '--compare-dest', '--copy-dest', '--link-dest', '--backup-dir', '--suffix', '--chmod', '--chown', '--usermap', '--groupmap', '--log-file', '--log-file-format', '--partial-dir', '--password-file', '--out-format', '--timeout', '--contimeout', '--bwlimit', '--max-size', '--min-size', '--max-delete', '--block-size', '--modify-window', '--info', '--debug', '--port', '--sockopts', '--outbuf', '--iconv', '--checksum-choice', '--compress-choice', '--compress-level', '--skip-compress', '--stop-after', '--stop-at', '--write-batch', '--only-write-batch', '--read-batch', '--protocol', '--remote-option', '--address', '--early-input', '--mkpath-mode'];
const CURL_VALUED = ['--output', '--output-dir', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--stderr', '--etag-save', '--hsts', '--alt-svc', '--config', '--cookie', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--data-ascii', '--header', '--user', '--user-agent', '--referer', '--request', '--proxy', '--form', '--form-string', '--upload-file', '--max-time', '--connect-timeout', '--range', '--write-out', '--cacert', '--capath', '--cert', '--key', '--url', '--etag-compare', '--time-cond', '--retry', '--retry-delay', '--retry-max-time', '--resolve', '--connect-to', '--interface', '--limit-rate', '--max-filesize', '--proxy-user', '--quote', '--continue-at', '--json', '--oauth2-bearer', '--variable', '--expand-url', '--telnet-option', '--speed-limit', '--speed-time'];
const WGET_VALUED = ['--output-document', '--output-file', '--append-output', '--directory-prefix', '--execute', '--input-file', '--base', '--tries', '--timeout', '--wait', '--quota', '--user', '--password', '--header', '--user-agent', '--referer', '--post-data', '--post-file', '--body-data', '--body-file', '--method', '--load-cookies', '--save-cookies', '--level', '--accept', '--reject', '--domains', '--exclude-domains', '--include-directories', '--exclude-directories', '--cut-dirs', '--default-page', '--adjust-extension', '--backups', '--ca-certificate', '--certificate', '--private-key', '--limit-rate', '--bind-address', '--dns-timeout', '--connect-timeout', '--read-timeout', '--waitretry', '--restrict-file-names', '--local-encoding', '--remote-encoding', '--config', '--rejected-log', '--start-pos'];

export interface WriteTarget {
  path: string;
  kind: TargetKind;
  /** the directory the path is relative to, when known */
  cwd: string | null;
  /** a deleted directory: only entries whose name matches one of these globs go (find -name), all when absent */
  names?: string[];
  /** a directory written as a tree (cp -r, rsync, git checkout <dir>): the handoff files under it are written too */
  tree?: boolean;
  /** a tree copied from here: only the files that exist under it at the same relative path are written */
  from?: string;
  /** a directory named to a program the guard does not know: the handoff files directly in it may be written */
  children?: boolean;
}

/** Whether `a` is the long option `full`, spelled whole or abbreviated to 3+ characters, with or without `=value`. */
export const isLong = (a: string, full: string) => {
  const name = a.split('=', 1)[0];
  return a.startsWith('--') && name.length >= 3 && full.startsWith(name);
};

/**
 * A command's operands and option values as getopt reads them: `short` letters and `long` options that take a value
 * (in a cluster the letter takes the rest, or the next argument), `--` ending the options, options after operands.
 */
export function getopt(args: string[], short: string, long: string[] = []): { operands: string[]; values: Map<string, string[]>; flags: string[] } {
  const operands: string[] = [];
  const values = new Map<string, string[]>();
  const flags: string[] = [];
  const put = (k: string, v: string | undefined) => v !== undefined && values.set(k, [...(values.get(k) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '-' || !a.startsWith('-')) operands.push(a);
    else if (a.startsWith('--')) {
      const full = long.find((l) => isLong(a, l));
      if (full === undefined) flags.push(a);
      else put(full, a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    } else {
      for (let k = 1; k < a.length; k++) {
        if (!short.includes(a[k])) {
          flags.push(`-${a[k]}`);
          continue;
        }
        put(`-${a[k]}`, a.slice(k + 1) || args[++i]);
        break;
      }
    }
  }
  return { operands, values, flags };
}

/** find's starting points, what it deletes or runs, the files it writes (-fprint…), and the names narrowing a delete. */
export function findParts(args: string[]): { roots: string[]; acts: boolean; writes: string[]; names: string[] | null; namesListed: string[] | null } {
  let i = 0;
  // options before the starting points (-H -L -P -D <opts> -O<level>) and `--`
  for (; i < args.length; i++) {
    if (args[i] === '-D') i++;
    else if (args[i] === '--') {
      i++;
      break;
    } else if (!/^-([HLP]|O\d*)$/.test(args[i])) break;
  }
  const roots: string[] = [];
  for (; i < args.length && !args[i].startsWith('-') && args[i] !== '(' && args[i] !== '!'; i++) roots.push(args[i]);
  const expr = args.slice(i);
  const ACTS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir']);
  const writes = expr.flatMap((a, k) => (/^-f(print0?|printf|ls)$/.test(a) && expr[k + 1] !== undefined ? [expr[k + 1]] : []));
  const first = expr.findIndex((a) => ACTS.has(a));
  // only a conjunction of tests before the action narrows what goes, by a -name not negated (-o, groups, commas: nothing)
  const before = first < 0 ? [] : expr.slice(0, first);
  const plain = !before.some((a) => /^(-o|-or|\(|\)|,)$/.test(a)) && !expr.slice(first + 1).some((a) => /^(-o|-or|,)$/.test(a));
  const nameTests = (tests: string[]) => {
    const kept = (k: number) => tests[k + 1] !== undefined && !/^(!|-not)$/.test(tests[k - 1] ?? '');
    return tests.flatMap((a, k) => (a === '-name' && kept(k) ? [tests[k + 1]] : a === '-iname' && kept(k) ? [`${tests[k + 1]}\0i`] : []));
  };
  const names = plain ? nameTests(before) : [];
  // what it lists (-print, or no action): narrowed the same way, by the whole expression
  const listed = expr.some((a) => /^(-o|-or|\(|\)|,)$/.test(a)) ? [] : nameTests(expr);
  return { roots: roots.length ? roots : ['.'], acts: first >= 0, writes, names: names.length ? names : null, namesListed: listed.length ? listed : null };
}

const nonOptions = (args: string[]) => {
  const out: string[] = [];
  let opts = true;
  for (const a of args) {
    if (opts && a === '--') opts = false;
    else if (opts && a.startsWith('-') && a !== '-') continue;
    else out.push(a);
  }
  return out;
};

/** The value of an option given as `-o X`, `-oX`, `--output X` or `--output=X` (the last one given), or undefined. */
function optionValue(args: string[], names: string[]): string | undefined {
  let v: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    for (const n of names) {
      if (a === n) v = args[i + 1];
      else if (n.startsWith('--') && a.startsWith(n + '=')) v = a.slice(n.length + 1);
      else if (!n.startsWith('--') && a.startsWith(n) && a.length > n.length) v = a.slice(n.length);
      // a cluster of short options (`-uo FILE`, `-uoFILE`): the letter takes the rest, or the next argument
      else if (n.length === 2 && /^-[a-zA-Z]+/.test(a) && !a.startsWith('--') && a.indexOf(n[1]) > 1) v = a.slice(a.indexOf(n[1]) + 1) || args[i + 1];
    }
  }
  return v;
}

/** Files a simple command writes, appends to or deletes (redirects, tee, sed -i, cp/mv, rm, touch, dd…). */
export function writeTargets(cmd: SimpleCommand): WriteTarget[] {
  const t: WriteTarget[] = [];
  const add = (p: string | undefined, kind: TargetKind) => {
    if (p && !/^&?\d+$/.test(p) && p !== '/dev/null' && !p.startsWith('/dev/std')) t.push({ path: p, kind, cwd: cmd.cwd });
  };
  for (const r of cmd.redirects) if (WRITE_REDIRECTS.has(r.op) || r.op === '>&') add(r.target, r.op.endsWith('>>') ? 'append' : 'write');
  const [p0, ...args] = cmd.argv;
  const prog = p0 ? path.basename(p0) : '';
  switch (prog) {
    case 'tee': {
      const append = args.some((a) => a === '-a' || isLong(a, '--append'));
      for (const f of nonOptions(args)) add(f, append ? 'append' : 'write');
      break;
    }
    case 'sed':
    case 'perl': {
      // perl's switches cluster with digits (-0777pi, -l0pi); sed's --in-place abbreviates (--i, --in-pl)
      const inPlace = (a: string) => (prog === 'perl' ? /^-[0-9a-zA-Z]*i/.test(a) && !/^-[0-9a-zA-Z]*[eEMmIxdDCF]/.test(a.slice(0, a.indexOf('i'))) : /^-[a-zA-Z]*i/.test(a) || isLong(a, '--in-place'));
      if (!args.some(inPlace)) break;
      const scripted = args.some((a) => a === '-e' || a === '-f' || isLong(a, '--expression') || isLong(a, '--file') || /^-[a-zA-Z0-9]*[ef]$/.test(a));
      const files = nonOptions(args.filter((a, k) => !(k > 0 && /^(-e|-f|--expression|--file|-[a-zA-Z0-9]*[ef])$/.test(args[k - 1]))));
      for (const f of scripted ? files : files.slice(1)) add(f, 'write');
      break;
    }
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln': {
      const o = getopt(args, prog === 'install' ? 'gmoSt' : 'St', ['--target-directory', '--suffix', ...(prog === 'install' ? ['--group', '--mode', '--owner', '--strip-program'] : [])]);
      const files = o.operands;
      const dirOpt = [...(o.values.get('-t') ?? []), ...(o.values.get('--target-directory') ?? [])].pop();
      // a directory copied or moved lands with everything under it (cp -r, -a, mv)
      const tree = prog === 'mv' || (prog === 'cp' && o.flags.some((f) => /^-[rRa]$/.test(f) || isLong(f, '--recursive') || isLong(f, '--archive')));
      const put = (dest: string, from: string) => {
        add(dest, 'write');
        if (tree && t.length && t[t.length - 1].path === dest) Object.assign(t[t.length - 1], { tree: true, from });
      };
      const sources = dirOpt !== undefined ? files : files.slice(0, -1);
      const dest = dirOpt ?? (files.length >= 2 ? files[files.length - 1] : undefined);
      if (dest === undefined) break;
      if (dirOpt === undefined) put(dest, sources.length === 1 ? sources[0] : '');
      // copying into a directory lands on <dir>/<basename>
      for (const f of sources) {
        put(path.join(dest, path.basename(f)), f);
        if (prog === 'mv') add(f, 'delete');
      }
      break;
    }
    case 'rsync': {
      const o = getopt(args, 'eBTfM', RSYNC_VALUED);
      if (o.operands.length < 2) break;
      const sources = o.operands.slice(0, -1);
      const dest = o.operands[o.operands.length - 1];
      const deletes = o.flags.some((f) => /^--del/.test(f));
      // `rsync -a src/ dest/` fills dest, `rsync -a src dest/` makes dest/src; --delete… removes what src lacks
      const put = (d: string, from: string) => {
        add(d, deletes ? 'delete' : 'write');
        if (!deletes && t.length && t[t.length - 1].path === d) Object.assign(t[t.length - 1], { tree: true, from });
      };
      put(dest, sources.length === 1 ? sources[0] : '');
      for (const f of sources) put(path.join(dest, path.basename(f)), f);
      if (o.flags.some((f) => isLong(f, '--remove-source-files'))) for (const f of sources) add(f, 'delete');
      break;
    }
    case 'rm':
    case 'unlink':
    case 'shred':
      for (const f of nonOptions(args)) add(f, 'delete');
      break;
    case 'truncate':
    case 'touch':
      for (const f of getopt(args, prog === 'truncate' ? 'sr' : 'dtr', prog === 'truncate' ? ['--size', '--reference'] : ['--date', '--reference']).operands) add(f, 'write');
      break;
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) add(a.slice(3), 'write');
      break;
    case 'sort':
      add(optionValue(args, ['-o', '--output']), 'write');
      break;
    case 'curl': {
      // curl's options that take a value (most of its letters), those that write a file, and where -O puts a download
      const o = getopt(args, 'AbcCdDeEFHKmoPQrtTuUwxXyYz', CURL_VALUED);
      const dir = o.values.get('--output-dir')?.pop();
      for (const k of ['-o', '--output']) for (const f of o.values.get(k) ?? []) add(dir && !path.isAbsolute(f) ? path.join(dir, f) : f, 'write');
      for (const k of ['-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--stderr', '--etag-save', '--hsts', '--alt-svc']) for (const f of o.values.get(k) ?? []) add(f, 'write');
      if (o.flags.some((f) => f === '-O' || f === '-J' || isLong(f, '--remote-name') || isLong(f, '--remote-name-all') || isLong(f, '--remote-header-name'))) {
        for (const u of o.operands) add(path.join(dir ?? '.', path.basename(u.replace(/[?#].*$/, '')) || 'index.html'), 'write');
      }
      break;
    }
    case 'wget': {
      const o = getopt(args, 'OoaPeiBtTwQUYDIXlAR', WGET_VALUED);
      const named = [...(o.values.get('-O') ?? []), ...(o.values.get('--output-document') ?? [])];
      for (const f of named) add(f, 'write');
      for (const k of ['-o', '--output-file', '-a', '--append-output']) for (const f of o.values.get(k) ?? []) add(f, 'write');
      const prefix = [...(o.values.get('-P') ?? []), ...(o.values.get('--directory-prefix') ?? [])].pop() ?? '.';
      if (!named.length) for (const u of o.operands) add(path.join(prefix, path.basename(u.replace(/[?#].*$/, '')) || 'index.html'), 'write');
      break;
    }
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk': {
      // gawk -i inplace edits its input files; what the program itself writes is read as code (rules/interpreter-writes.ts)
      const o = getopt(args, 'fvFiEWe', ['--file', '--assign', '--field-separator', '--include', '--load', '--exec', '--source']);
      if (![...(o.values.get('-i') ?? []), ...(o.values.get('--include') ?? [])].some((v) => /^inplace(\.awk)?$/.test(v))) break;
      const code = o.values.has('-f') || o.values.has('--file') || o.values.has('-e') || o.values.has('--source') || o.values.has('-E') || o.values.has('--exec');
      for (const f of (code ? o.operands : o.operands.slice(1)).filter((f) => !/^[A-Za-z_]\w*=/.test(f))) add(f, 'write');
      break;
    }
    case 'uniq': {
      const files = getopt(args, 'fsw', ['--skip-fields', '--skip-chars', '--check-chars']).operands;
      if (files.length >= 2) add(files[1], 'write');
      break;
    }
    case 'git':
      // diff, log, show, format-patch … --output=<file> write where they are told
      add(optionValue(args, ['--output']), 'write');
      break;
    case 'find': {
      // `find <paths> … -delete` or `-exec …` may remove anything under its starting paths; -fprint… write a file
      const f = findParts(args);
      for (const w of f.writes) add(w, 'write');
      if (!f.acts) break;
      for (const a of f.roots) {
        add(a, 'delete');
        if (f.names && t.length && t[t.length - 1].path === a) t[t.length - 1].names = f.names;
      }
      break;
    }
  }
  return t;
}

/** The line's words after quote removal (assignments, arguments, redirect targets, here-document bodies): the text the
 *  guard's text rules read, so that quoting cannot split a word they look for. */
export const lineText = (cmds: SimpleCommand[]) =>
  cmds.map((c) => [...Object.entries(c.assigns).map(([k, v]) => `${k}=${v}`), ...c.argv, ...c.redirects.map((r) => `${r.target} ${r.body ?? ''}`)].join(' ')).join('\n');

// Commands hidden in values (issue 24): a configuration value or an environment variable that git (or another
// program) runs as a command IS a nested command line. `git -c core.pager='<cmd>' log`, `GIT_PAGER='<cmd>' git log`,
// `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='<cmd>' git commit`, `export EDITOR='<cmd>';
// git commit`, `git config --global core.pager '<cmd>'` (git reads the global configuration here too): each value is
// read as `sh -c '<value>'` would be, and its commands join the line's, so every rule (and the allowlist) judges them
// as if they were written bare. Which keys and variables run a value is said once, in RUNNING_KEYS
// (rules/git-config.ts: `script`, `env`). A value the guard cannot see (`--config-env=core.pager=VAR` with VAR from
// the environment, `GIT_PAGER="$(…)"`) becomes a command whose program is unknown (`$VAR`): the full rules refuse it
// on a line that names what the guard protects (pre-tool.ts), and allow it elsewhere. Here in shell.ts, not in a
// module of rules/: parseShell reads each value with runValueCommands, and runValueCommands each value with
// parseShell (two files would import each other).

/** How deep values that run values are read (a pager whose line sets a pager …), like shells in shells. */
const MAX_VALUE_DEPTH = 4;

/** The variables that stand for a key that runs a command, from RUNNING_KEYS. */
/** Each variable git reads a command from, with how git runs it (the key's `script`: ssh is given the host and a command). */
const RUN_VARS: ReadonlyMap<string, (v: string) => string | null> = new Map(RUNNING_KEYS.flatMap((r) => (r.script ? (r.env ?? []).map((name) => [name, r.script!] as const) : [])));

/** Declarations whose `NAME=value` arguments set variables for the rest of the line. */
const DECLARES = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);

/** The variables a command sets for the rest of the line: a bare assignment, or `export NAME=value`. */
function setsForLine(c: SimpleCommand): Record<string, string> {
  if (c.argv.length === 0) return c.assigns;
  if (!DECLARES.has(c.argv[0])) return {};
  const out: Record<string, string> = {};
  for (const a of c.argv.slice(1)) if (/^[A-Za-z_]\w*=/.test(a)) out[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
  return out;
}

/** The top of the worktree holding `dir` (where git runs a pager, an editor or a diff program), or null. */
function topLevel(dir: string | null): string | null {
  for (let d = dir; d; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return null;
  }
  return null;
}

/**
 * The commands `c`'s values run, each read as `sh -c '<value>'`: the command-running keys set for a git command
 * (`-c`, `--config-env`, GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS) and the command-running variables it
 * is given or sets (`GIT_PAGER=… cmd`, `export EDITOR=…`). `line`: the variables set earlier on the line.
 */
function runValueCommands(c: SimpleCommand, line: Record<string, string>, depth: number): SimpleCommand[] {
  // the common command sets no variable and is no git command: nothing to read (the parse of every line comes here)
  const p0 = c.argv[0] ?? '';
  // git, or git-<anything>, as the last part of the path (what /(^|\/)git(-[^/]*)?$/ matches, without compiling it)
  const base = p0.slice(p0.lastIndexOf('/') + 1);
  const gitLike = p0.startsWith('$') || base === 'git' || base.startsWith('git-');
  if (!gitLike && c.argv.length && !DECLARES.has(p0) && Object.keys(c.assigns).length === 0) return [];
  const own = setsForLine(c);
  const vars = { ...line, ...own, ...c.assigns };
  const values: Array<{ source: string; value: string; cwd: string | null }> = [];
  const inv = c.argv.length ? gitInvocation({ ...c, assigns: vars }) : null;
  // git runs its programs at the top of the worktree; -C and a changed --git-dir are followed as far as they go
  // (looked up only when there is a value to read: most git commands carry none)
  let top: string | null | undefined;
  const gitCwd = () => (top === undefined ? (top = inv && !inv.gitDir ? topLevel(inv.cwd) : null) : top);
  if (inv) {
    // `-c` glued to its value too (`-ccore.pager=…`), which commandLineConfig reads and gitInvocation does not
    const config = new Set([...(inv.config ?? []), ...commandLineConfig(c.argv, {})]);
    for (const setting of config) {
      const eq = setting.indexOf('=');
      if (eq < 0) continue;
      const value = setting.slice(eq + 1);
      const script = runningKey(setting.slice(0, eq), value)?.script?.(value);
      if (script) values.push({ source: setting.slice(0, eq), value: script, cwd: gitCwd() });
    }
  }
  // `git config --global core.pager '<cmd>'`: every later git command here runs it
  const setting = inv?.sub === 'config' ? persistentSetting(inv.args, inv.cwd) : null;
  const persistent = setting ? runningKey(setting.key, setting.value)?.script?.(setting.value) : null;
  if (setting && persistent) values.push({ source: setting.key, value: persistent, cwd: gitCwd() });
  // variables: those given to this command, and those it sets for the line (judged where set: a later command of
  // the line, or of the shell, may run them)
  for (const [name, value] of Object.entries({ ...own, ...c.assigns })) {
    if (RUN_VARS.has(name) && value.trim() !== '') values.push({ source: name, value: RUN_VARS.get(name)!(value) ?? value, cwd: inv ? gitCwd() : c.cwd });
  }
  // inherited from earlier on the line, by a git command (which runs them at the top of its worktree)
  if (inv) for (const [name, script] of RUN_VARS) if (Object.hasOwn(line, name) && !Object.hasOwn(c.assigns, name) && line[name].trim() !== '') values.push({ source: name, value: script(line[name]) ?? line[name], cwd: gitCwd() });
  if (values.length === 0) return [];
  if (depth >= MAX_VALUE_DEPTH) throw new LexBound(`values that run commands nested more than ${MAX_VALUE_DEPTH} deep`);
  return values.flatMap(({ source, value, cwd }) => {
    const script = substituteVars(value, vars);
    const cmds = parseShell(script, cwd, depth + 1);
    // what the value runs is not known until the shell runs it: the full rules decide on the line (pre-tool.ts)
    return expands(script) ? cmds.map((n) => ({ ...n, unseen: source })) : cmds;
  });
}
