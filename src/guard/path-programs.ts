// Where git-handoff itself is installed and what it runs by name, for the perimeter (src/guard/perimeter.ts): the
// package this guard runs from, every copy its commands (package.json `bin`) resolve to on PATH, the clients' plugin
// and extension folders; and the places on PATH where a file of a name the wiring and the hooks run would run in its
// place. A session that rewrites one of them turns the guard off for every later call. A package inside the worktree
// the session works in (or holding it) is that project's own code, left to the project's rules.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { claudePlugins, geminiExtensionDir } from '../clients/plugin-active';
import { readJsonOr, realpathOr, statOr } from '../read-file';

const NAME = 'git-handoff';

/** Whether path `p` is `dir` or inside it. */
export const under = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/** The folder of the git-handoff package holding `from` (a file or folder in it), or null. */
function packageOf(from: string): string | null {
  for (let d = path.resolve(from); ; d = path.dirname(d)) {
    if (readJsonOr(path.join(d, 'package.json'))?.name === NAME) return d;
    if (path.dirname(d) === d) return null;
  }
}

let own: { root: string | null; bins: string[] } | undefined;
/** The package this code runs from (dist/ when bundled, src/guard/ from the sources) and the command names it installs. */
export function ownPackage(): { root: string | null; bins: string[] } {
  if (own) return own;
  const root = packageOf(__dirname);
  const bin = root ? readJsonOr(path.join(root, 'package.json'))?.bin : null;
  return (own = { root, bins: bin && typeof bin === 'object' ? Object.keys(bin) : [NAME] });
}

/** git-handoff's installed folders for a session working in `worktree`: this package, its commands on PATH and the packages they lead to, the clients' plugin folders. */
export function installedDirs(worktree: string | null, cwd: string, env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  const { root, bins } = ownPackage();
  if (root) out.add(root);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    for (const b of bins) {
      const file = path.join(dir, b);
      if (!existsSync(file)) continue;
      const at = path.dirname(realpathOr(file));
      // the command's own name too (npm's link in a bin folder): another file there in its place runs instead
      out.add(file);
      out.add(packageOf(at) ?? at);
    }
  }
  try {
    for (const p of claudePlugins(cwd, env)) if (p.folder) out.add(path.resolve(p.folder));
  } catch {
    /* unreadable plugin records: the plugin folders under the data folder stay protected as git-handoff's state */
  }
  const extension = geminiExtensionDir(env);
  if (existsSync(extension)) out.add(extension);
  const top = worktree ? realpathOr(worktree) : null;
  // a package inside the worktree (or holding it) is the project's own code
  return [...out].filter((d) => top === null || (!under(realpathOr(d), top) && !under(top, realpathOr(d))));
}

/** What the sh front and the hook stub run by name beside git-handoff's own commands (test/guard/path-programs.test.ts reads them). */
const RUN_BY_NAME = ['node', 'git', 'cat', 'cmp', 'date', 'readlink', 'stat'];

/** Every program the wiring, the front and the hooks find by PATH. */
export const pathProgramNames = (): string[] => [...ownPackage().bins, ...RUN_BY_NAME];

/** A file with an execute bit, as a shell's PATH search takes one (the bits, not access(2): one stat). */
export const runnable = (f: string): boolean => {
  const st = statOr(f);
  return !!st && st.isFile() && (st.mode & 0o111) !== 0;
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
