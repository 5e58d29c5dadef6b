// Runners: programs other than a shell that run a command line they are given (in an argument, an escape to the shell,
// a variable, or their input). One table; ./wrappers.ts reads each line as `sh -c '<line>'` is read.
import { hereDocument, programName, type Redirect } from './command';
import { inputFile } from './nested';
import { firstOperand, getopt, shortOptions } from './options';
import { shellQuote } from '../../terminal-text';

// vim's ex commands: `!<line>`, `r !<line>`, `w !<line>` run a line; `w <file>` (and saveas, wq, x, update) writes one
const EX_RUN = /^[:\s]*[\d,.$%'<>a-z]*?\s*(?:r(?:ead)?\s*|w(?:rite)?\s*)?!(.*)$/s;
const EX_WRITE = /^[:\s]*[\d,.$%'<>]*\s*(?:w|write|wq|x|xit|exi|exit|sav|saveas|up|update)!?\s+(?!!)(.+)$/s;
function exCommands(cmds: string[]): string[] {
  return cmds.flatMap((c) => c.split(/\s*\|\s*/)).flatMap((c) => {
    const run = EX_RUN.exec(c);
    if (run) return [run[1]];
    const write = EX_WRITE.exec(c);
    return write ? [`: > ${shellQuote(write[1].trim())}`] : [];
  });
}

/** sed's `e` commands in a script: `e <line>` runs the line; a bare `e` or `s///e` runs text the guard does not see. */
function sedRuns(script: string): { lines: string[]; unread: boolean } {
  const lines: string[] = [];
  let unread = false;
  let i = 0;
  const toEol = () => {
    const end = script.indexOf('\n', i);
    const s = script.slice(i, end < 0 ? script.length : end);
    i = end < 0 ? script.length : end + 1;
    return s;
  };
  const delimited = (n: number) => {
    const d = script[i++];
    for (let k = 0; k < n && i < script.length; i++) if (script[i] === '\\') i++;
    else if (script[i] === d) k++;
  };
  while (i < script.length) {
    // addresses: numbers, $, /re/, \cREc, first~step, ranges and !
    while (i < script.length && /[\s;\d$,~!+{}]/.test(script[i])) i++;
    if (script[i] === '/' || script[i] === '\\') {
      if (script[i] === '\\') i++;
      delimited(1);
      continue;
    }
    const c = script[i++];
    if (c === undefined) break;
    if (c === 's') {
      delimited(2);
      const flags = /^[^;\n}]*/.exec(script.slice(i))![0];
      i += flags.length;
      if (/^[^w]*e/.test(flags)) unread = true;
    } else if (c === 'y') delimited(2);
    else if (c === 'e') {
      const line = toEol().trim();
      if (line) lines.push(line);
      else unread = true;
    } else if ('aicrRwW:bTtvlLqQ#'.includes(c) || c === 'F' || c === 'z') {
      if ('aicrRwW:#'.includes(c)) toEol();
      else while (i < script.length && !/[;\n}]/.test(script[i])) i++;
    }
  }
  return { lines, unread };
}

/** The scripts sed runs: its -e/--expression values, else its first operand (none when -f names a file). */
export function sedScripts(args: string[]): string[] {
  const o = getopt(args, 'efl', ['--expression', '--file', '--line-length']);
  const given = o.all('-e', '--expression');
  return given.length || o.all('-f', '--file').length ? given : o.operands.slice(0, 1);
}

// sqlite3's options that take the next word as their value (-cmd apart: its value is commands)
const SQLITE_VALUED = /^--?(init|separator|newline|nullvalue|vfs|maxsize|mmap|lookaside|pagecache|heap|escape)$/;
/** A sqlite3 dot-command's words (quoted as its shell quotes them: '…' or "…"). */
const dotWords = (rest: string) => [...rest.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);

/** sqlite3's dot-commands in `texts` as one shell script: the lines they run, the files they write, `.cd`. */
function sqliteScript(texts: string[]): string {
  const out: string[] = [];
  for (const line of texts.flatMap((t) => t.split('\n'))) {
    const m = /^\s*\.([a-z]+)\s*([^]*)$/.exec(line);
    if (!m) continue;
    const [, dot, rest] = m;
    if (dot === 'shell' || dot === 'system') out.push(rest);
    else if ((dot === 'output' || dot === 'once' || dot === 'read') && rest.trim().startsWith('|')) out.push(rest.trim().slice(1));
    else if (/^(output|once|save|backup|clone|open|log|cd)$/.test(dot)) {
      const file = dotWords(rest).filter((w) => !w.startsWith('-')).pop();
      if (file === undefined || (dot === 'log' && /^(stdout|stderr|off)$/.test(file))) continue;
      out.push(dot === 'cd' ? `cd ${shellQuote(file)}` : `: ${dot === 'log' ? '>>' : '>'} ${shellQuote(file)}`);
    }
  }
  return out.join('\n');
}

/** What a runner runs: the command lines found in its arguments, and (`unread`) text the guard cannot read, named. */
export interface Ran {
  lines: string[];
  unread?: string;
}

type Runner = (args: string[], redirects: Redirect[]) => Ran | null;

/** A runner reading its command lines from its input: a here-document is read; any other input is the shell's input. */
const fromInput = (prog: string, redirects: Redirect[]): Ran => {
  const body = hereDocument(redirects);
  return body !== undefined ? { lines: [body] } : { lines: [], unread: `\`${prog}\` reading command lines from its input` };
};

/** Where `crontab` takes the table it installs from: '-' (its input), a file, or null for none (-l, -r, -e). */
export function crontabTable(args: string[]): string | null {
  const o = getopt(args, 'u');
  return o.flags.some((f) => /^-[lre]$/.test(f)) && !o.operands.includes('-') ? null : (o.operands[0] ?? '-');
}

/** A crontab table's commands, a line each (the schedule, five fields or an @word, taken off). */
export const cronCommands = (table: string): string => table.replace(/^\s*(@\w+|(\S+\s+){5})/gm, '');

const TMUX_RUNS = new Set(['new', 'new-session', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw', 'run-shell', 'run', 'if-shell', 'if', 'display-popup', 'popup', 'pipe-pane', 'pipep', 'send-keys', 'send']);

const RUNNERS: Record<string, Runner> = {
  // watch joins its operands into one line for sh -c (with -x it runs them as words)
  watch: (args) => {
    const at = firstOperand(args, new Set(['-n', '--interval', '-q', '--equexit']));
    return at < args.length ? { lines: [args.slice(at).join(' ')] } : null;
  },
  // tmux new -d '<line>', split-window, run-shell, send-keys (the keys a shell in the pane reads) …
  tmux: (args) => {
    const sub = args.findIndex((a) => TMUX_RUNS.has(a));
    if (sub < 0) return null;
    const at = firstOperand(args, shortOptions('cefFnstxyTS'), sub + 1);
    return at < args.length ? { lines: [args.slice(at).filter((a) => !/^(Enter|C-m|KPEnter)$/.test(a)).join(' ')] } : null;
  },
  // ssh [options] host '<line>': the remote shell runs the operands joined
  ssh: (args) => {
    const at = firstOperand(args, shortOptions('bcDEeFIiJLlmOopQRSWwB'));
    return at + 1 < args.length ? { lines: [args.slice(at + 1).join(' ')] } : null;
  },
  // parallel [options] [command] ::: args: each argument appended to the command (or itself the line)
  parallel: (args) => {
    const sep = args.indexOf(':::');
    const at = firstOperand(args, new Set(['-j', '--jobs', '-S', '--sshlogin', '-I', '-d', '--delimiter', '-n', '-N', '-L', '-E', '--colsep', '--joblog', '--results', '--tmpdir', '--workdir', '-a', '--arg-file']));
    const command = args.slice(at, sep < 0 ? args.length : sep).join(' ');
    const items = sep < 0 ? [] : args.slice(sep + 1).filter((a) => a !== ':::');
    if (sep < 0) return command ? { lines: [command], unread: '`parallel` reading its arguments from its input' } : fromInput('parallel', []);
    // GNU parallel quotes each argument it appends; alone, an argument is the line
    return { lines: items.length ? items.map((a) => (command ? `${command} ${shellQuote(a)}` : a)) : command ? [command] : [] };
  },
  // trap '<line>' SIGNAL…: the line runs when the signal comes (EXIT: when the shell ends)
  trap: (args) => {
    const at = args[0] === '--' ? 1 : 0;
    return args[at] !== undefined && !/^-[lp]$/.test(args[at]) && args[at] !== '-' && at + 1 < args.length ? { lines: [args[at]] } : null;
  },
  // at/batch read the job's lines from their input (-f names a file: a script written earlier, out of reach)
  at: (args, redirects) => (args.some((a) => /^-[a-zA-Z]*[flcdr]$/.test(a)) ? null : fromInput('at', redirects)),
  batch: (args, redirects) => (args.some((a) => /^-[a-zA-Z]*f$/.test(a)) ? null : fromInput('batch', redirects)),
  // crontab - (or no file): the table from input, each entry's command a line
  crontab: (args, redirects) => {
    if (crontabTable(args) !== '-') return null;
    const body = hereDocument(redirects);
    return body !== undefined ? { lines: [cronCommands(body)] } : { lines: [], unread: '`crontab` reading a table of commands from its input' };
  },
  // sqlite3 [options] db ['<sql or dot-commands>'…], -cmd '<…>', or its input: see sqliteScript
  sqlite3: (args, redirects) => {
    const given: string[] = [];
    const operands: string[] = [];
    for (let k = 0; k < args.length; k++) {
      if (/^--?cmd$/.test(args[k])) given.push(args[++k] ?? '');
      else if (SQLITE_VALUED.test(args[k])) k++;
      else if (!args[k].startsWith('-') || args[k] === '-') operands.push(args[k]);
    }
    // with no SQL after the database it reads its commands from its input: a here-document is read, a file named
    // with `<` is a file it runs (as `sh < file` is `sh file`), any other input is unread
    const input = operands.length <= 1 ? hereDocument(redirects) : undefined;
    const unread = operands.length <= 1 && input === undefined && inputFile(redirects) === undefined;
    const script = sqliteScript([...given, ...operands.slice(1), ...(input !== undefined ? [input] : [])]);
    return { lines: script ? [script] : [], ...(unread ? { unread: '`sqlite3` reading its commands from its input' } : {}) };
  },
  // vim -c ':!<line>', +'!<line>', --cmd; ex the same
  vim: (args) => ({ lines: exCommands(args.flatMap((a, k) => (a.startsWith('+') ? [a.slice(1)] : /^(-c|--cmd)$/.test(args[k - 1] ?? '') ? [a] : []))) }),
  // sed 'e <line>' (and a bare e or s///e: the pattern space, which the guard does not see, runs)
  sed: (args) => {
    const found = sedScripts(args).map(sedRuns);
    const lines = found.flatMap((f) => f.lines);
    return { lines, ...(found.some((f) => f.unread) ? { unread: '`sed` running its pattern space as a command (`e`)' } : {}) };
  },
  // make --eval='<rule>': a recipe line after `;` or a tab runs in a shell
  make: (args) => {
    const evals = args.flatMap((a, k) => (a.startsWith('--eval=') ? [a.slice(7)] : (args[k - 1] === '--eval' || args[k - 1] === '-E') ? [a] : []));
    return { lines: evals.flatMap((e) => e.split('\n').flatMap((l) => (l.startsWith('\t') ? [l.slice(1)] : /^[^=#]*:[^=]*?;(.*)$/.exec(l)?.[1] ?? []))) };
  },
  // npm pkg set scripts.<name>='<line>' (and npm set-script <name> '<line>'): the line runs at `npm run <name>`
  npm: (args) => {
    if (args[0] === 'set-script' && args[2] !== undefined) return { lines: [args[2]] };
    if (args[0] !== 'pkg' || args[1] !== 'set') return null;
    return { lines: args.slice(2).flatMap((a) => /^scripts\.[^=]+=([^]*)$/.exec(a)?.[1] ?? []) };
  },
};
for (const [alias, of] of [['gmake', 'make'], ['pnpm', 'npm'], ['vi', 'vim'], ['nvim', 'vim'], ['ex', 'vim'], ['view', 'vim'], ['vimdiff', 'vim'], ['gvim', 'vim'], ['gsed', 'sed'], ['sqlite', 'sqlite3']] as const) RUNNERS[alias] = RUNNERS[of];

/** The command lines a runner `argv` runs (each to be read as `sh -c '<line>'`), or null for a program that is no runner. */
export function runnerLines(argv: string[], redirects: Redirect[]): Ran | null {
  const prog = programName(argv);
  if (!Object.hasOwn(RUNNERS, prog)) return null;
  const ran = RUNNERS[prog](argv.slice(1), redirects);
  return ran && (ran.lines.length || ran.unread) ? ran : null;
}

/** Variables whose value a program runs as a command line (less's input preprocessor), with the line it runs. */
export const RUNNER_VARS: ReadonlyMap<string, (v: string) => string | null> = new Map([
  ['LESSOPEN', (v: string) => v.replace(/^\|{1,2}-?/, '').replace(/%s/g, 'file')],
  ['LESSCLOSE', (v: string) => v.replace(/%s/g, 'file')],
]);
