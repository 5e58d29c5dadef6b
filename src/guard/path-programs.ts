// The programs git-handoff's wiring and git hooks find by PATH, and the places on PATH where a file of one of those
// names would run in their place (issue 70): the perimeter (src/guard/perimeter.ts) holds those places, so a session
// cannot put `exit 0` ahead of the guard's front or of node in a folder the user owns (~/.local/bin).
import { statSync } from 'node:fs';
import { realpathOr } from '../read-file';
import path from 'node:path';
import { ownBins } from './installed';

/**
 * What the sh front (bin/git-handoff-guard) and the hook stub (git-hooks/stub.sh) run by name, beside git-handoff's
 * own commands: test/guard/path-programs.test.ts reads both files and the launcher's `#!` line for them.
 */
const RUN_BY_NAME = ['node', 'git', 'cat', 'cmp', 'date', 'readlink', 'stat'];

/** Every program the wiring, the front and the hooks find by PATH. */
export const pathProgramNames = (): string[] => [...ownBins(), ...RUN_BY_NAME];

/** A file with an execute bit, as a shell's PATH search takes one (the bits, not access(2): one stat). */
const runnable = (f: string): boolean => {
  try {
    const st = statSync(f);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

/** PATH's directories (a relative one, or an empty entry, from `cwd`). */
const pathDirs = (env: NodeJS.ProcessEnv, cwd: string): string[] => (env.PATH ?? '').split(path.delimiter).map((d) => path.resolve(cwd, d || '.'));

/**
 * Whether directories appended after `env`'s PATH change no program the front and the git hooks run by name
 * (RUN_BY_NAME): each is found ahead of them. git-handoff's own commands aside: one found nowhere does no check, and a
 * stand-in found later does none either.
 */
export const appendedPathKeeps = (env: NodeJS.ProcessEnv, cwd: string): boolean => {
  const dirs = pathDirs(env, cwd);
  return RUN_BY_NAME.every((name) => dirs.some((d) => runnable(path.join(d, name))));
};

/**
 * For each program of pathProgramNames: its name in every PATH directory (of `env`; a relative one from `cwd`) up to
 * and including the one where it is found (every one when none holds it), each as named and with its links resolved.
 */
export function pathShadows(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const dirs = pathDirs(env, cwd);
  const reals = dirs.map(realpathOr);
  const out = new Set<string>();
  for (const name of pathProgramNames()) {
    for (const [i, d] of dirs.entries()) {
      const f = path.join(d, name);
      out.add(f).add(path.join(reals[i], name));
      if (runnable(f)) break;
    }
  }
  return [...out];
}
