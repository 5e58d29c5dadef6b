// Commands hidden in values: a configuration value or variable a program runs is read as `sh -c '<value>'` (which
// ones: RUNNING_KEYS, rules/git-config.ts); a value the guard cannot see makes a command marked `unseen`.
import { persistentSetting, RUNNING_KEYS, runningKey } from '../rules/git-config';
import { expands, LexBound } from './lex';
import { DECLARES, substituteVars, type ReadScript, type SimpleCommand } from './command';
import { gitInvocation } from './git';
import { RUNNER_VARS } from './runners';
import { walkUp } from '../locate';

/** How deep values that run values are read (a pager whose line sets a pager …), like shells in shells. */
const MAX_VALUE_DEPTH = 4;

/** Each variable git (or a runner, ./runners.ts) reads a command from, with how it runs it (the key's `script`: ssh is given the host and a command). */
const RUN_VARS: ReadonlyMap<string, (v: string) => string | null> = new Map([...RUNNING_KEYS.flatMap((r) => (r.script ? (r.env ?? []).map((name) => [name, r.script!] as const) : [])), ...RUNNER_VARS]);

/** The variables a command sets for the rest of the line: a bare assignment, or `export NAME=value`. */
export function setsForLine(c: SimpleCommand): Record<string, string> {
  if (c.argv.length === 0) return c.assigns;
  if (!DECLARES.has(c.argv[0])) return {};
  const out: Record<string, string> = {};
  // `declare -n r=p`: r is a second name of p, whatever p holds when r is read
  const nameref = c.argv.slice(1).some((a) => /^-[a-zA-Z]*n/.test(a));
  for (const a of c.argv.slice(1)) if (/^[A-Za-z_]\w*=/.test(a)) out[a.slice(0, a.indexOf('='))] = nameref ? `\${${a.slice(a.indexOf('=') + 1)}}` : a.slice(a.indexOf('=') + 1);
  return out;
}

/** The commands `c`'s values run: the command-running keys set for a git command and variables it is given or sets (`line`: earlier). */
export function runValueCommands(c: SimpleCommand, line: Record<string, string>, depth: number, read: ReadScript): SimpleCommand[] {
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
  const gitCwd = () => (top === undefined ? (top = inv && !inv.gitDir && inv.cwd ? (walkUp(inv.cwd)?.worktree ?? null) : null) : top);
  // its `-c key=value` settings, and `git config --global core.pager '<cmd>'` (every later git command here runs it)
  const given = inv?.config ?? [];
  const persistent = inv?.sub === 'config' ? persistentSetting(inv.args, inv.cwd) : null;
  for (const { key, value } of persistent ? [...given, persistent] : given) {
    const script = runningKey(key, value)?.script?.(value);
    if (script) values.push({ source: key, value: script, cwd: gitCwd() });
  }
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
    const cmds = read(script, cwd, depth + 1);
    // what the value runs is not known until the shell runs it: the full rules decide on the line (pre-tool.ts)
    return expands(script) ? cmds.map((n) => ({ ...n, unseen: source })) : cmds;
  });
}
