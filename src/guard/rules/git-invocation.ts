// A git invocation judged by what it will do: its environment and options against allowlists, the files its
// environment names as written, and `git init` over an existing repository.
import path from 'node:path';
import { expands } from '../shell/lex';
import { SESSION_ID_VARS } from '../../clients/names';
import { substituteVars, type SimpleCommand } from '../shell/command';
import { READING_VERBS, type GitInvocation } from '../shell/git';
import type { WriteTarget } from '../shell/writes';
import { userDirs } from '../../user-dirs';
import { configFiles, userConfigFiles } from '../../git/config-files';
import { appendedPathKeeps, pathShadows } from '../path-programs';
import { gitOptions } from './git-options';
import { handoffCommand } from './inject';

/** Variables git reads that neither run a program nor name a file git writes; GIT_HANDOFF_* are git-handoff's own (rules/inject.ts). */
const QUIET_ENV =
  /^GIT_((AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)|TERMINAL_PROMPT|OPTIONAL_LOCKS|FLUSH|MERGE_VERBOSITY|MERGE_AUTOEDIT|DIFF_OPTS|DIFF_PATH_COUNTER|DIFF_PATH_TOTAL|(LITERAL|GLOB|NOGLOB|ICASE)_PATHSPECS|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|SSL_NO_VERIFY|SSL_CAINFO|SSL_CAPATH|HTTP_USER_AGENT|HTTP_LOW_SPEED_(LIMIT|TIME)|HTTP_MAX_REQUESTS|HTTP_PROXY_AUTHMETHOD|NO_REPLACE_OBJECTS|PROTOCOL|PROTOCOL_FROM_USER|ADVICE|DEFAULT_HASH|DEFAULT_REF_FORMAT|REFLOG_ACTION|PROGRESS_DELAY|NO_LAZY_FETCH|COLOR|CONFIG_NOSYSTEM|TEST_[A-Z0-9_]+|HANDOFF_[A-Z0-9_]+)$/;
/** Variables whose value git runs, or whose settings are judged by their own rules (runValueCommands in shell/values.ts, the config keys below, rules/refs.ts). */
const RULED_ENV = /^GIT_(PAGER|EDITOR|SEQUENCE_EDITOR|SSH|SSH_COMMAND|SSH_VARIANT|EXTERNAL_DIFF|ASKPASS|PROXY_COMMAND|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|CONFIG_PARAMETERS|NOTES_REF)$/;
/** Variables naming a file git writes (the index; traces, appended to): the file is judged as a write of the shell's. */
const FILE_ENV = /^GIT_(INDEX_FILE|TRACE[A-Z0-9_]*)$/;
/** Variables pointing git at another repository or work tree, which a reading verb may use. */
const REPO_ENV = /^GIT_(DIR|WORK_TREE)$/;

/** Whether a git directory or work tree given to git is this repository's own (the command then does what it would without it). */
type OwnRepository = (what: 'git-dir' | 'work-tree', value: string) => boolean;

/** A trace variable's value that writes to stderr or a descriptor, or turns tracing off (no file). */
const NO_FILE = (v: string) => /^\s*(|0|1|2|[3-9]|true|false|yes|no|on|off)\s*$/i.test(v);

const VERB = (inv: GitInvocation) => `git ${inv.sub}`;

/** Why git's environment lets it do what the guard cannot judge, or null; `targets` gets the files it names as written. */
export function gitEnvironmentProblem(inv: GitInvocation, cmd: SimpleCommand, vars: Record<string, string>, targets: WriteTarget[], own: OwnRepository): string | null {
  const cwd = inv.cwd ?? cmd.cwd;
  for (const [name, value] of Object.entries(vars)) {
    if (!name.startsWith('GIT_') || QUIET_ENV.test(name) || RULED_ENV.test(name)) continue;
    if (FILE_ENV.test(name)) {
      if (name !== 'GIT_INDEX_FILE' && NO_FILE(value)) continue;
      // af_unix: sockets write no file; anything else is a path git writes (a directory: a new file in it)
      if (/^af_unix:/i.test(value)) continue;
      if (expands(value)) return `\`${name}\` names the file \`${VERB(inv)}\` writes, and its value is built by an expansion the guard cannot see. Give a literal path (or leave it unset).`;
      targets.push({ path: value, kind: name === 'GIT_INDEX_FILE' ? 'write' : 'append', cwd });
      continue;
    }
    if (REPO_ENV.test(name) && (READING_VERBS.has(inv.sub) || own(name === 'GIT_DIR' ? 'git-dir' : 'work-tree', value))) continue;
    return (
      `\`${name}=…\` changes what \`${VERB(inv)}\` reads or writes (${REPO_ENV.test(name) ? 'another repository or work tree, for a verb that writes' : 'git\'s directories, configuration or programs'}), and the guard judges git only as it runs here. ` +
      `Run it without that variable${REPO_ENV.test(name) ? ' (git -C <directory> for another repository)' : ''}, or ask the person.`
    );
  }
  return null;
}

type Env = NodeJS.ProcessEnv;
/** The variables a function of the environment reads, each answered empty (HOME a path, so that no other lookup starts). */
function readsOf(f: (env: Env) => unknown): string[] {
  const read = new Set<string>();
  f(new Proxy({}, { get: (_, k) => (typeof k === 'string' && read.add(k), k === 'HOME' ? path.sep : '') }) as Env);
  return [...read];
}

let anchors: string[] | undefined;
/** The variables git's and git-handoff's places are derived from, as the code computing them reads them (GIT_*: above). */
const anchorVariables = (): string[] =>
  (anchors ??= readsOf((env) => [userDirs(env), userConfigFiles(env), configFiles({ commonDir: path.sep, gitDir: path.sep }, env), pathShadows(env, path.sep)]).filter((v) => !v.startsWith('GIT_')));

/** A variable's value as a command gets it, for comparison: empty and unset alike; undefined when the guard cannot tell. */
function effective(name: string, value: string | undefined, env: Env): string | null | undefined {
  if (value === undefined || value === '') return null;
  const known: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) known[k] = v;
  const v = substituteVars(value, known).replace(/(^|:)~(?=\/|:|$)/g, (_, a) => `${a}${env.HOME ?? '~'}`);
  if (expands(v)) return undefined;
  // directories appended after the hook's PATH, where every program run by name is found ahead of them: the same
  const base = env.PATH;
  if (name === 'PATH' && base && v.startsWith(base + path.delimiter) && appendedPathKeeps(env, path.sep)) return base;
  return name === 'PATH' ? v : path.resolve(v);
}

/**
 * Why a git or git-handoff command runs with HOME, XDG_* or PATH set, removed or emptied to other than the hook's own
 * value: it would read another configuration, keep its state elsewhere or run other programs. `removed`: `*` is all.
 */
export function anchorEnvironmentProblem(inv: GitInvocation, vars: Record<string, string>, removed: readonly string[], env: Env): string | null {
  if (Object.keys(vars).length === 0 && removed.length === 0) return null;
  for (const name of anchorVariables()) {
    const given = Object.hasOwn(vars, name) ? vars[name] : removed.includes(name) || removed.includes('*') ? undefined : null;
    if (given === null) continue;
    const now = effective(name, given, env);
    if (now !== undefined && now === effective(name, env[name], env)) continue;
    const plain = inv.sub === 'handoff' ? `git handoff ${handoffCommand(inv.args).sub ?? ''}`.trim() : VERB(inv);
    return (
      `\`${plain}\` would run with ${name} ${given === undefined ? 'removed' : now === undefined ? 'set to a value the guard cannot read' : 'set to another value'} than the one git-handoff's guard and hooks run with: ` +
      `git would read another user configuration (hooks, settings), git-handoff keep its state and code elsewhere, or its hooks run other programs, none of which the guard judged. ` +
      `Run \`${plain} …\` without \`${name}=…\` (and without \`env -i\`/\`env -u ${name}\`/\`unset ${name}\`); a command that needs another configuration is the person's to run.`
    );
  }
  return null;
}

/** Why a writing git command runs with a session variable emptied or removed (`*`: all), or null: checked as a person's. */
export function sessionEnvironmentProblem(inv: GitInvocation, vars: Record<string, string>, removed: readonly string[], session: string | null, show: string): string | null {
  if (session === null || READING_VERBS.has(inv.sub) || inv.sub === 'handoff') return null;
  if (SESSION_ID_VARS.some((v) => vars[v] === session)) return null;
  const name = SESSION_ID_VARS.find((v) => (Object.hasOwn(vars, v) ? vars[v] === '' : removed.includes(v) || removed.includes('*')));
  if (!name) return null;
  return (
    `\`${show}\` runs git with the session variable ${name} emptied or removed: git-handoff's git hooks would take its commits and branch moves for ` +
    `a person's, and check them as such (you are session ${session}). Run git with the environment your client gave it.`
  );
}

/** Why git's own options before the verb point it where the guard cannot judge (--git-dir/--work-tree on a writing verb, --exec-path=, --namespace), or null. */
export function gitOptionProblem(cmd: SimpleCommand, inv: GitInvocation, own: OwnRepository): string | null {
  // git's own options: the words before the verb
  if (cmd.argv.slice(1, cmd.argv.length - inv.args.length - 1).some((a) => a.startsWith('--exec-path='))) return `\`--exec-path=\` makes git run its commands from another directory. Run git without it.`;
  if (READING_VERBS.has(inv.sub)) return null;
  const elsewhere = inv.gitDir !== null && !own('git-dir', inv.gitDir) ? '--git-dir' : inv.workTree !== undefined && !own('work-tree', inv.workTree) ? '--work-tree' : null;
  return elsewhere && `\`${elsewhere}\` points \`${VERB(inv)}\` at another repository or work tree, for a verb that writes. Run it in that repository (git -C <directory> ${inv.sub} …), or ask the person.`;
}

/** Why `git init --separate-git-dir|--template|--bare` runs over an existing repository (`located` finds one), or null. */
export function separateGitDirProblem(inv: GitInvocation, cmd: SimpleCommand, located: (dir: string) => { worktree: string; gitDir?: string } | null, show: string): string | null {
  if (inv.sub !== 'init') return null;
  const a = inv.args;
  const option = a.find((x) => /^--(separate-git-dir|template|bare)(=|$)/.test(x))?.split('=')[0];
  if (option === undefined) return null;
  const [directory] = gitOptions(inv).operands;
  const base = inv.cwd ?? cmd.cwd;
  const target = directory === undefined ? base : base ? path.resolve(base, directory) : path.isAbsolute(directory) ? directory : null;
  const loc = target === null ? { worktree: '?' } : located(target);
  const at = target === null ? null : path.resolve(target);
  if (loc === null || (at !== null && ![loc.worktree, path.join(loc.worktree, '.git'), loc.gitDir].includes(at))) return null;
  const does =
    option === '--separate-git-dir'
      ? "moves this repository's git directory out to another place, where no path says `.git` (the refs, the handoffs' record, hooks and settings would be plain files there)"
      : option === '--template'
        ? "copies the template's hooks into this repository's git directory, where git runs them"
        : 'turns this repository into one without a worktree (core.bare), and its worktree out of git';
  return `\`${show}\` runs over this existing repository and ${does}. Ask the person to do this; a new repository (\`git init ${option} … <new directory>\`) is fine.`;
}
