// What a command runs once its assignments and wrapper programs (env, sudo, xargs, timeout, …) are stripped, and the
// command lines nested in it: `sh -c '<script>'`, a here-document a shell reads, `eval`, an alias defined on the line,
// a git option that runs a command line, `flock -c`. Each nested script is read by `read` (./parse.ts), one level deeper.
import path from 'node:path';
import { LexBound, splitWords } from './lex';
import { MAX_DEPTH, programName, SHELLS, substituteVars, type ReadScript, type Redirect, type SimpleCommand } from './command';
import { changeDir } from './dirs';
import { aliasOf, gitRunsScripts } from './git';
import { RUNS_SHELL_C, shellScript, sourcedScript, unreadScript } from './nested';
import { runnerLines } from './runners';
import { takesNext } from './options';

// Words that open or close a compound command; the simple command follows them (`{ git …; }`, `then git …`).
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
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
  screen: new Set(['-S', '-c', '-e', '-h', '-p', '-s', '-T', '-t', '-Logfile']),
  'systemd-run': new Set(['-u', '--unit', '-p', '--property', '-E', '--setenv', '-H', '--host', '-M', '--machine', '--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--on-active', '--on-calendar']),
};
// Programs that run the command after their options (and, for some, one operand of their own).
const WRAPPERS = new Set(['env', 'sudo', 'nohup', 'time', 'command', 'exec', 'nice', 'timeout', 'xargs', 'stdbuf', 'builtin', 'doas', 'setsid', 'ionice', 'chrt', 'taskset', 'flock', 'unshare', 'nsenter', 'chroot', 'unbuffer', 'rlwrap', 'faketime', 'chronic', 'catchsegv', 'busybox', 'proxychains', 'torsocks', 'caffeinate', 'screen', 'systemd-run', 'dbus-run-session', 'fakeroot']);
// Wrappers whose first operand is their own (a priority, a CPU mask, a lock file, a root directory, a time).
const OWN_OPERAND = new Set(['chrt', 'taskset', 'flock', 'chroot', 'faketime']);

/** Strips assignments and wrapper programs; expands `sh -c '<script>'` into its own commands. */
export function unwrap(given: string[], redirects: Redirect[], cwd: string | null, depth: number, line: Record<string, string>, read: ReadScript): SimpleCommand[] {
  const assigns: Record<string, string> = {};
  let words = given;
  let xargs = false;
  let xargsArgs: string[] | undefined;
  let xargsCommand = false;
  const unsets: string[] = [];
  let i = 0;
  let dir = cwd;
  /** The command as stripped, with `args` for its program and arguments (none: it only ran the scripts before it). */
  const stripped = (args: string[], more: Partial<SimpleCommand> = {}): SimpleCommand => ({ argv: args, assigns, cwd: dir, redirects, xargs, ...more });
  /** A script it runs, with the line's variables in it (`x='rm …'; bash -c "$x"`): read as they will be when it runs. */
  const nested = (script: string) => read(substituteVars(script, { ...line, ...assigns }), dir, depth + 1);
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
        if (prog === 'env') {
          // `env -S '<words>'` (and -vS…, -S<words>, --split-string=…): the string is split into the command's words
          const split = envOption(words, i, 'S', '--split-string');
          if (split) {
            words = [...words.slice(0, i), ...splitWords(split.value), ...words.slice(i + split.used)];
            continue;
          }
          const to = envOption(words, i, 'C', '--chdir');
          if (to) dir = changeDir(dir, to.value);
          // -i, `-` and --ignore-environment remove every variable (`*`), -u NAME one
          if (/^-[^-uCS]*i|^-$|^--ignore-environment$/.test(words[i])) unsets.push('*');
          const unset = envOption(words, i, 'u', '--unset');
          if (unset) unsets.push(unset.value);
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
        if (c !== undefined && depth < MAX_DEPTH) return [...read(c, dir, depth + 1), stripped([])];
      }
      continue;
    }
    break;
  }
  let argv = words.slice(i);
  // `git -c alias.x=update-ref x …`: an alias defined for this one command runs what it stands for
  const alias = aliasOf(argv, assigns);
  if (alias !== null && depth < MAX_DEPTH) {
    if (alias.shell !== null) return [...read(alias.shell, dir, depth + 1), stripped([])];
    argv = alias.argv;
  }
  // git verbs that run a command line they are given (rebase --exec, difftool -x, bisect run, submodule foreach, …)
  const run = depth < MAX_DEPTH ? gitRunsScripts(stripped(argv)) : [];
  if (run.length) return [...run.flatMap(nested), stripped(argv)];
  // runners: watch, tmux, ssh, parallel, trap, at, crontab, vim's `:!`, sqlite3's `.shell`, sed's `e`, … (./runners.ts)
  const ran = depth < MAX_DEPTH ? runnerLines(argv, redirects) : null;
  if (ran) return [...ran.lines.flatMap(nested), stripped(argv, ran.unread ? { unread: ran.unread } : {})];
  const prog = programName(argv);
  // `eval word…` runs its words, joined, as a script.
  if (prog === 'eval' && depth < MAX_DEPTH && argv.length > 1) return [...nested(argv.slice(1).join(' ')), stripped([])];
  // A program named by an expansion (`$SHELL -c …`, `$GIT …`) may be a shell or git: it is read as one.
  if (SHELLS.has(prog) || RUNS_SHELL_C.has(prog) || argv[0]?.startsWith('$') || prog === 'source' || prog === '.') {
    const script = prog === 'source' || prog === '.' ? sourcedScript(argv, redirects) : shellScript(argv, redirects);
    if (script !== null) {
      if (depth >= MAX_DEPTH) throw new LexBound(`shells nested more than ${MAX_DEPTH} deep`);
      // a shell run by xargs gets its arguments from xargs's input too
      return [...nested(script).map((c) => ({ ...c, xargs: c.xargs || xargs })), stripped([])];
    }
  }
  const unread = unreadScript(prog, argv, redirects);
  const fromInput = xargsCommand && argv.length === 0 ? { fromInput: true as const } : {};
  return [stripped(argv, { ...(unsets.length ? { unsets } : {}), ...(xargsArgs ? { xargsArgs } : {}), ...fromInput, ...(unread ? { unread } : {}) })];
}

/** The value of env's option `-<letter>` or `long` at words[i] (`-u X`, `-iuX`, `--unset=X`) and how many words it took, or null. */
function envOption(words: string[], i: number, letter: string, long: string): { value: string; used: number } | null {
  const w = words[i];
  const next = words[i + 1] !== undefined ? { value: words[i + 1], used: 2 } : null;
  if (w === long) return next;
  if (w.startsWith(`${long}=`)) return { value: w.slice(long.length + 1), used: 1 };
  for (let k = 1; /^-[^-]/.test(w) && k < w.length; k++) {
    if (w[k] === letter) return k < w.length - 1 ? { value: w.slice(k + 1), used: 1 } : next;
    // the rest of the word is another option's value
    if (takesValue.env.has(`-${w[k]}`)) return null;
  }
  return null;
}
