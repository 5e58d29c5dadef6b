// Where git-handoff itself is installed, for the perimeter (src/guard/perimeter.ts): the package this guard runs from,
// every copy the package's own commands (package.json `bin`: git-handoff, git-handoff-guard, …) resolve to on PATH, and
// the plugin and extension folders the clients run it from (src/clients/plugin-active.ts finds them as the clients do).
// A session that rewrites one of them (the front made `exit 0`, the plugin's guard emptied) turns the guard off for
// every later call. A package inside the worktree the session works in (or holding it) is that project's own code (a
// checkout of git-handoff being developed), not an installation the session stands on: it is left to the project's rules.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { claudePlugins, geminiExtensionDir } from '../clients/plugin-active';
import { readJsonOr, realpathOr } from '../read-file';

const NAME = 'git-handoff';

/** The folder of the git-handoff package holding `from` (a file or folder in it), or null. */
function packageOf(from: string): string | null {
  for (let d = path.resolve(from); ; d = path.dirname(d)) {
    if (readJsonOr(path.join(d, 'package.json'))?.name === NAME) return d;
    if (path.dirname(d) === d) return null;
  }
}

let own: { root: string | null; bins: string[] } | undefined;
/** The package this code runs from (dist/ when bundled, src/guard/ from the sources) and the command names it installs. */
function ownPackage(): { root: string | null; bins: string[] } {
  if (own) return own;
  const root = packageOf(__dirname);
  const bin = root ? readJsonOr(path.join(root, 'package.json'))?.bin : null;
  return (own = { root, bins: bin && typeof bin === 'object' ? Object.keys(bin) : [NAME] });
}

/** The command names this package installs on PATH (package.json's bin). */
export const ownBins = (): string[] => ownPackage().bins;

/**
 * git-handoff's installed folders for a session working in `worktree` (null: none): this package, each of its commands
 * found on PATH and the package it leads to (symlinks followed, as npm links them), the Claude Code plugin folders and
 * the Gemini CLI extension folder.
 */
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
  const within = (a: string, b: string) => a === b || a.startsWith(b + path.sep);
  // a package inside the worktree (or holding it) is the project's own code
  return [...out].filter((d) => top === null || (!within(realpathOr(d), top) && !within(top, realpathOr(d))));
}
