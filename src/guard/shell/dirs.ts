// Where a command runs: `cd`, `pushd` and `env -C` followed along the line, as far as the guard can know the directory.
import path from 'node:path';
import { knownDirs } from '../rules/reach';

/** cd's or pushd's operand: options (-P, -L, -e, -@, -n) and `--` skipped; `+N`/`-N` (the stack) is not a directory. */
export function dirOperand(argv: string[]): string | undefined {
  let i = 1;
  while (i < argv.length && /^-[PLe@n]+$/.test(argv[i])) i++;
  if (argv[i] === '--') i++;
  if (argv[i] !== undefined && /^[+-]\d+$/.test(argv[i])) return '-';
  return argv[i];
}

/** The directory `cd <given>` leaves from `dir` (null: not known). */
export function changeDir(dir: string | null, given: string | undefined): string | null {
  // $PWD, $(pwd) and $(git rev-parse --show-toplevel) are known; another expansion, a glob or a brace list is not
  const to = given === undefined ? undefined : knownDirs(given, dir).replace(/\$\{PWD\}|\$PWD\b/g, dir ?? '$PWD');
  if (!to || to === '-' || to.startsWith('~') || /[$`*?[{]/.test(to)) return null;
  if (path.isAbsolute(to)) return to;
  return dir ? path.resolve(dir, to) : null;
}
