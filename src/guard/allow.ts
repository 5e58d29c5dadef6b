// The allowlist: a shell call passes unexamined only when every simple command in it is a program on these lists,
// spelled as a bare name, with none of the options that make it write or run something, no output redirection but to
// /dev/null or a descriptor, and no assignment that changes what it does. The sh front's word lists are generated
// from these tables at build time (scripts/front-words.mjs).
import { own, type ToolAction } from '../clients/event';
import { expands } from './shell/lex';
import { isLong } from './shell/options';
import { DECLARES, type SimpleCommand } from './shell/command';
import { parseShell } from './shell/parse';
import { READING_VERBS } from './shell/git';

/** The options that make a program write or run something (short letters in any cluster, long ones abbreviated, exact words). */
interface ProgramRule {
  short?: string;
  long?: string[];
  exact?: string[];
  maxOperands?: number; // `uniq in out` writes out
  only?: string[]; // the list forms only: every argument one of these, no operand
}

/** Programs that read and print, and never write a file or run another program, but through the options named. */
const PLAIN_READERS = [
  'cat', 'head', 'tail', 'wc', 'ls', 'pwd', 'echo', 'printf', 'true', 'false', 'test', '[', ':', 'which', 'basename', 'dirname',
  'realpath', 'readlink', 'stat', 'du', 'df', 'diff', 'cmp', 'comm', 'cut', 'tr', 'nl', 'fold', 'rev', 'tac', 'od', 'hexdump',
  'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'base64', 'seq', 'sleep', 'id', 'whoami', 'uname', 'printenv', 'grep', 'egrep',
  'fgrep', 'jq', 'column', 'expand', 'paste', 'join', 'cd', 'pushd', 'popd',
];
export const READ_ONLY: Record<string, ProgramRule> = {
  ...Object.fromEntries(PLAIN_READERS.map((p) => [p, {}])),
  file: { short: 'C', long: ['--compile'] },
  date: { short: 's', long: ['--set'] },
  rg: { long: ['--pre', '--pre-glob'] },
  less: { short: 'oO', long: ['--log-file', '--LOG-FILE'], exact: ['+'] },
  more: { exact: ['+'] },
  sort: { short: 'oT', long: ['--output', '--compress-program', '--temporary-directory'] },
  uniq: { maxOperands: 1 },
  xxd: { maxOperands: 1 },
  tree: { short: 'oR', long: ['--output'] },
  find: { exact: ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'] },
};

/** git verbs that read (shell/git.ts READING_VERBS, less three the first look leaves to the rules), and the list forms of three that write. */
const LOG_LIKE: ProgramRule = { long: ['--output', '--ext-diff'] };
const RULES_ONLY = new Set(['ls-remote', 'verify-pack', 'var']);
export const GIT_READ_ONLY: Record<string, ProgramRule> = {
  ...Object.fromEntries([...READING_VERBS].filter((v) => !RULES_ONLY.has(v)).map((v) => [v, {}])),
  log: LOG_LIKE,
  show: LOG_LIKE,
  diff: LOG_LIKE,
  whatchanged: LOG_LIKE,
  'diff-tree': LOG_LIKE,
  'diff-index': LOG_LIKE,
  'diff-files': LOG_LIKE,
  grep: { short: 'O', long: ['--open-files-in-pager'] },
  branch: { only: ['-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '-l', '--list', '--show-current', '--no-color', '--color'] },
  tag: { only: ['-l', '--list', '-n'] },
  remote: { only: ['-v', '--verbose'] },
};
/** git's options before the verb that change nothing it writes. */
const GIT_GLOBAL = new Set(['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects']);

/** Programs that run the project's own code (out of reach either way: SECURITY.md), with these first words and no protected-looking argument. */
export const PROJECT_RUNNERS: Record<string, string[]> = {
  npm: ['test', 't', 'run', 'run-script', 'ls', 'view', 'outdated', '--version', '-v'],
  pnpm: ['test', 't', 'run', 'ls', '--version'],
  yarn: ['test', 'run', '--version'],
  npx: ['vitest', 'jest', 'tsc', 'eslint', 'mocha'],
  make: ['test', 'check', 'build', 'all', 'lint'],
  cargo: ['test', 'build', 'check', 'clippy', 'run'],
  go: ['test', 'build', 'vet', 'run'],
  pytest: [],
  vitest: ['run'],
  jest: [],
  tsc: ['--noEmit', '-p', '--build', '-b'],
};

/** Assignments in front of a command that change nothing a program writes or runs. */
const SAFE_VARS = /^(CI|NODE_ENV|FORCE_COLOR|NO_COLOR|TZ|LANG|LC_[A-Z]+|TERM|COLUMNS|LINES|VERBOSE|DEBUG)$/;
/** Words a runner's argument must not hold, in any case (it may name a handoff file, git's directory or a ref). */
export const PROTECTED_WORDS = ['handoff', '.git', 'refs', 'memory'];
const PROTECTED_LOOKING = new RegExp(`${PROTECTED_WORDS.map((w) => w.replace('.', '\\.')).join('|')}|\\$|\``, 'i');
/** A program named as it is found on PATH (no directory, no expansion, no glob). */
const BARE_NAME = /^[A-Za-z0-9_.+:[-]+$/;

/** Whether an argument list keeps to a rule (xargs: more arguments may come from stdin, so only a rule with no limits). */
function keepsTo(rule: ProgramRule, args: string[], xargs = false): boolean {
  const limited = rule.short || rule.long || rule.exact || rule.maxOperands !== undefined || rule.only;
  if (xargs && limited) return false;
  let operands = 0;
  let opts = true;
  for (const a of args) {
    // an action spelled whole is one wherever it stands (find reads its expression after `--` too)
    if (rule.exact?.some((e) => a === e)) return false;
    if (opts && a === '--') {
      opts = false;
      continue;
    }
    const option = opts && a.length > 1 && (a.startsWith('-') || (rule.exact?.includes('+') && a.startsWith('+')));
    if (!option) {
      if (rule.only) return false;
      operands++;
      continue;
    }
    if (rule.only && !rule.only.includes(a)) return false;
    if (rule.exact?.some((e) => a === e || (e === '+' && a.startsWith('+')))) return false;
    if (a.startsWith('--')) {
      // an unambiguous abbreviation is the option itself (getopt_long, git's parse-options)
      if (rule.long?.some((l) => isLong(a, l))) return false;
    } else if (rule.short) {
      for (const ch of a.slice(1)) if (rule.short.includes(ch)) return false;
    }
  }
  return rule.maxOperands === undefined || operands <= rule.maxOperands;
}

function gitHarmless(args: string[]): boolean {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) {
    if (args[i] === '-C' && args[i + 1] !== undefined && !expands(args[i + 1])) i += 2;
    else if (GIT_GLOBAL.has(args[i])) i++;
    else return args.length === 1 && (args[0] === '--version' || args[0] === '--help');
  }
  const rule = args[i] !== undefined ? own(GIT_READ_ONLY, args[i]) : undefined;
  return rule !== undefined && keepsTo(rule, args.slice(i + 1));
}

/** Whether one simple command surely cannot write anything the guard protects. */
export function harmlessCommand(c: SimpleCommand): boolean {
  for (const r of c.redirects) {
    if (r.op === '<' || r.op === '<&' || r.op === '<<') continue;
    if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(r.target)) continue;
    if (/^(>|>>|&>|&>>|>\||>&)$/.test(r.op) && r.target === '/dev/null') continue;
    return false;
  }
  // `env -i`, `env -u <name>`: what the command runs without is the full rules' to judge (rules/git-invocation.ts)
  if (!Object.keys(c.assigns).every((k) => SAFE_VARS.test(k)) || c.unsets) return false;
  // no program: assignments alone, or xargs's echo; unless xargs was given only wrappers (`xargs env`: its input runs)
  if (c.argv.length === 0) return !c.fromInput;
  const [p0, ...args] = c.argv;
  if (!BARE_NAME.test(p0)) return false;
  if (DECLARES.has(p0)) return args.every((a) => /^-?[a-z]*$/.test(a) || SAFE_VARS.test(a.split('=', 1)[0]));
  if (p0 === 'git') return !c.xargs && gitHarmless(args);
  const rule = own(READ_ONLY, p0);
  if (rule) return keepsTo(rule, args, c.xargs);
  const runner = own(PROJECT_RUNNERS, p0);
  if (runner && !c.xargs) return (runner.length === 0 || runner.includes(args[0] ?? '')) && !args.some((a) => PROTECTED_LOOKING.test(a));
  return false;
}

/** Whether a tool call surely cannot concern handoffs: an unknown tool with no arguments, or a shell line (`cmds`) of harmless commands. */
export function surelyHarmless(a: ToolAction, cmds: SimpleCommand[] | null | undefined): boolean {
  if (a.type === 'other') return true;
  return a.type === 'shell' && !!cmds && cmds.every(harmlessCommand);
}

/** Longer command lines are not read by the first look (the full rules read them, within their bounds). */
const MAX_FIRST_LOOK = 16 * 1024;

/** The shell line as the first look reads it (the full guard too, once: GuardContext.shellLine); null past its bound. */
export function firstParse(command: string, cwd: string): SimpleCommand[] | null {
  if (command.length > MAX_FIRST_LOOK) return null;
  try {
    return parseShell(command, cwd);
  } catch {
    return null; // a bound of the reader
  }
}
