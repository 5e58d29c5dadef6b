// A simple command as the guard's rules read it: what the shell runs after quote removal, wrappers and nested shells
// (./parse.ts makes them), with the names every stage of the reading shares.
import path from 'node:path';

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
  /** variables `env` removes from its environment (-u NAME; `*`: all of them, -i) */
  unsets?: string[];
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

export const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
/** Declarations whose `NAME=value` arguments set shell variables (for the rest of the line). */
export const DECLARES = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
/** The program an argv runs: its first word's file name ('' for none). */
export const programName = (argv: readonly string[]): string => (argv[0] ? path.basename(argv[0]) : '');
/** The text of the here-document (or here-string) a command reads, if any. */
export const hereDocument = (redirects: Redirect[]) => redirects.find((r) => r.op === '<<' && r.body !== undefined)?.body;

/** How deep shells in shells (and the other nested command lines) are read. */
export const MAX_DEPTH = 4;

/** How a stage reads a nested script (`sh -c`, eval, a value that runs a command): ./parse.ts's parseShell, one level deeper. */
export type ReadScript = (script: string, cwd: string | null, depth: number) => SimpleCommand[];

/** `$NAME`/`${NAME}` replaced by what the line set; what stays unknown keeps its `$`. */
export const substituteVars = (v: string, vars: Record<string, string>) =>
  v.replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a, b) => (Object.hasOwn(vars, a ?? b) ? vars[a ?? b] : m));

/** The line's words after quote removal (assignments, arguments, redirect targets, here-document bodies): the text the
 *  guard's text rules read, so that quoting cannot split a word they look for. */
export const lineText = (cmds: SimpleCommand[]) =>
  cmds.map((c) => [...Object.entries(c.assigns).map(([k, v]) => `${k}=${v}`), ...c.argv, ...c.redirects.map((r) => `${r.target} ${r.body ?? ''}`)].join(' ')).join('\n');
