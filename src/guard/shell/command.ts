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
  argv: string[]; // wrappers and VAR=value assignments removed
  assigns: Record<string, string>;
  unsets?: string[]; // variables `env` removes (`*`: all of them)
  cwd: string | null; // when known (after `cd` steps of the same line)
  redirects: Redirect[];
  xargs: boolean; // arguments are also read from stdin
  xargsArgs?: string[]; // xargs's own options, as given
  fromInput?: true; // xargs was given only wrappers: the program itself comes from its input
  stdinFrom?: SimpleCommand; // the command whose output this one reads (a pipe)
  unseen?: string; // run by a value (named here) whose text holds an expansion the guard cannot see
  unread?: string; // a shell (or `source`) running a script the guard cannot read
  builtBy?: string; // of `unread`: the program on this line that made the script (`base64 -d | sh`)
  writtenArg?: true; // an argument names a file written earlier on the line
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

/** The line's words after quote removal, for the text rules (quoting cannot split a word they look for). */
export const lineText = (cmds: SimpleCommand[]) =>
  cmds.map((c) => [...Object.entries(c.assigns).map(([k, v]) => `${k}=${v}`), ...c.argv, ...c.redirects.map((r) => `${r.target} ${r.body ?? ''}`)].join(' ')).join('\n');
