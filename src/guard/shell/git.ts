// A git command line as git reads it: its global options (-C, --git-dir, -c and the GIT_CONFIG_* variables), its
// subcommand, an alias defined on the line, and the command lines its options make git run (rebase -x, bisect run, …).
import path from 'node:path';
import { own } from '../../clients/event';
import { shellQuote } from '../../terminal-text';
import { splitWords } from './lex';
import { options } from './options';
import { programName, type SimpleCommand } from './command';

/** A setting given to one git command (`-c key=value`; a key alone is true, as git reads it). */
interface OneOffSetting {
  key: string;
  value: string;
}
const oneOff = (c: string): OneOffSetting => (c.includes('=') ? { key: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1) } : { key: c, value: 'true' });

/** The settings GIT_CONFIG_COUNT / GIT_CONFIG_PARAMETERS assignments give a git command. */
function environmentConfig(assigns: Record<string, string>): OneOffSetting[] {
  const out: OneOffSetting[] = [];
  const n = Number(assigns.GIT_CONFIG_COUNT);
  for (let k = 0; Number.isInteger(n) && k < Math.min(n, 100); k++) {
    if (assigns[`GIT_CONFIG_KEY_${k}`] !== undefined) out.push({ key: assigns[`GIT_CONFIG_KEY_${k}`], value: assigns[`GIT_CONFIG_VALUE_${k}`] ?? '' });
  }
  // GIT_CONFIG_PARAMETERS: 'key'='value' pairs, as git -c passes them on
  const params = assigns.GIT_CONFIG_PARAMETERS;
  if (params) for (const m of params.matchAll(/'([^']*)'(?:='([^']*)')?/g)) out.push({ key: m[1], value: m[2] ?? 'true' });
  return out;
}

/** A git command line whose subcommand is an alias defined on that line: its expansion (argv, or a shell script for `!…`). */
export function aliasOf(argv: string[], assigns: Record<string, string>): { argv: string[]; shell: string | null } | null {
  const inv = gitInvocation({ argv, assigns, cwd: null, redirects: [], xargs: false });
  const def = inv?.config.filter((c) => c.key.toLowerCase() === `alias.${inv.sub.toLowerCase()}`).at(-1);
  if (!inv || def === undefined) return null;
  const value = def.value.trim();
  if (value.startsWith('!')) return { argv: [], shell: `${value.slice(1)} ${inv.args.map(shellQuote).join(' ')}` };
  return { argv: [...argv.slice(0, argv.length - inv.args.length - 1), ...splitWords(value), ...inv.args], shell: null };
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
export function gitRunsScripts(cmd: SimpleCommand): string[] {
  const inv = gitInvocation(cmd);
  if (!inv) return [];
  const a = inv.args;
  if (inv.sub === 'bisect' && a[0] === 'run') return a.length > 1 ? [a.slice(1).map(shellQuote).join(' ')] : [];
  if (inv.sub === 'submodule') {
    const k = a.indexOf('foreach');
    const rest = k < 0 ? [] : a.slice(k + 1).filter((w) => !/^(-q|--quiet|--recursive)$/.test(w));
    return rest.length ? [rest.join(' ')] : [];
  }
  const names = own(GIT_SCRIPT_OPTIONS, inv.sub);
  return names ? options(a, names).all(...names) : [];
}

/** git verbs that only read a repository. */
export const READING_VERBS = new Set(['status', 'log', 'show', 'diff', 'whatchanged', 'diff-tree', 'diff-index', 'diff-files', 'rev-parse', 'rev-list', 'ls-files', 'ls-tree', 'ls-remote', 'cat-file', 'for-each-ref', 'show-ref', 'merge-base', 'name-rev', 'describe', 'shortlog', 'blame', 'cherry', 'show-branch', 'check-ignore', 'check-attr', 'count-objects', 'verify-pack', 'version', 'help', 'grep', 'var']);

export interface GitInvocation {
  sub: string;
  args: string[];
  /** -C directories applied to the command's cwd */
  cwd: string | null;
  gitDir: string | null;
  /** the settings given for this one command (-c, --config-env, GIT_CONFIG_*) */
  config: OneOffSetting[];
  /** --work-tree or GIT_WORK_TREE */
  workTree?: string;
}

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds']);

/** `git [global options] <sub> <args>` (or `git-<sub>`), null for anything else. */
export function gitInvocation(cmd: SimpleCommand): GitInvocation | null {
  const prog = programName(cmd.argv);
  if (prog.startsWith('git-') && prog.length > 4) return { sub: prog.slice(4), args: cmd.argv.slice(1), cwd: cmd.cwd, gitDir: null, config: [] };
  if (prog !== 'git' && !cmd.argv[0]?.startsWith('$')) return null;
  let cwd = cmd.cwd;
  let gitDir: string | null = cmd.assigns.GIT_DIR ?? null;
  let workTree: string | undefined = cmd.assigns.GIT_WORK_TREE;
  const config = environmentConfig(cmd.assigns);
  let i = 1;
  while (i < cmd.argv.length && cmd.argv[i].startsWith('-')) {
    const a = cmd.argv[i];
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : GIT_VALUED.has(name) ? cmd.argv[i + 1] : undefined;
    if (name === '-C' && value !== undefined) cwd = path.isAbsolute(value) ? value : cwd ? path.resolve(cwd, value) : null;
    if (name === '--git-dir' && value !== undefined) gitDir = value;
    if (name === '--work-tree' && value !== undefined) workTree = value;
    if (name === '-c' && value !== undefined) config.push(oneOff(value));
    // glued (`-ccore.pager=…`): git refuses it, the guard reads it all the same
    else if (/^-c./.test(a)) config.push(oneOff(a.slice(2)));
    // --config-env=<key>=<variable>: the value is the variable's, unknown here
    if (name === '--config-env' && value !== undefined) config.push(oneOff(value.includes('=') ? `${value.slice(0, value.lastIndexOf('='))}=$${value.slice(value.lastIndexOf('=') + 1)}` : value));
    i += GIT_VALUED.has(name) && eq < 0 ? 2 : 1;
  }
  if (i >= cmd.argv.length) return null;
  // `GIT_DIR=.git`, `--git-dir=$PWD/.git` (with no work tree, or this directory): the repository git finds here anyway
  if (gitDir !== null && cwd !== null && path.resolve(cwd, gitDir) === path.join(cwd, '.git') && (workTree === undefined || path.resolve(cwd, workTree) === cwd)) gitDir = null;
  return { sub: cmd.argv[i], args: cmd.argv.slice(i + 1), cwd, gitDir, config, ...(workTree !== undefined ? { workTree } : {}) };
}
