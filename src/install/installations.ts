// The git-handoff installations on PATH, as the wired hooks find them: a wiring names `git-handoff-guard`, and one its
// client runs with sh (Wiring.sh) reads `git-handoff-front` in, which reads in the first `git-handoff-guard` on PATH.
// Two installations on PATH can make that pair come from two of them: an older front read in finds no node and exits
// 127, and the client runs the call.
import { existsSync } from 'node:fs';
import { ownPackage, runnable } from '../guard/path-programs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { readJsonOr, realpathOr } from '../read-file';

interface Installation {
  /** the installation's folder (the one holding bin/ and dist/), symlinks followed */
  root: string;
  /** the PATH directories that give its programs, in PATH order */
  dirs: string[];
  version: string | null;
  /** the copy running this command */
  self: boolean;
}

/** The folder of the installation a program belongs to: its bin/'s parent, symlinks (npm link, npm install -g) followed. */
const rootOf = (file: string): string => path.dirname(path.dirname(realpathOr(file)));

const describe = (i: Installation) => `${i.root} (${i.version ? `version ${i.version}` : 'version unknown'}${i.self ? ', the one running this install' : ''}; on PATH as ${i.dirs.join(', ')})`;

/**
 * Before `install --agent` writes a wiring that names programs on PATH: refuses (exit 7) where two installations would
 * make the hook of a wiring that reads the front in (`readsFrontIn`: Wiring.sh) exit 127, and otherwise says which
 * installation the hooks run when there are several.
 */
export function checkPathInstallations(readsFrontIn: boolean): string[] {
  const byRoot = new Map<string, Installation>();
  // where each program is first found (only absolute entries: `exec` and `.` of a relative one depend on the directory)
  const first = new Map<string, string>();
  const self = realpathOr(path.resolve(__dirname, '..'));
  for (const dir of (process.env.PATH ?? '').split(':').filter((d) => path.isAbsolute(d))) {
    // the programs an installation puts on PATH (package.json's bin)
    for (const p of ownPackage().bins.filter((q) => runnable(path.join(dir, q)))) {
      const file = path.join(dir, p);
      if (!first.has(p)) first.set(p, file);
      const root = rootOf(file);
      const i: Installation = byRoot.get(root) ?? { root, dirs: [], version: readJsonOr(path.join(root, 'package.json'))?.version ?? null, self: root === self };
      if (!i.dirs.includes(dir)) i.dirs.push(dir);
      byRoot.set(root, i);
    }
  }
  const installations = [...byRoot.values()];
  if (installations.length < 2) return [];
  const list = installations.map((i) => `  ${describe(i)}`).join('\n');
  const guard = first.get('git-handoff-guard');
  const front = first.get('git-handoff-front');
  // the front read in is the first git-handoff-guard: an installation without git-handoff-front beside it is older than
  // the wiring, and read in it exits 127 (bin/git-handoff-front)
  if (readsFrontIn && guard && front && path.dirname(guard) !== path.dirname(front) && !existsSync(path.join(path.dirname(guard), 'git-handoff-front'))) {
    throw new HandoffError(
      'environment',
      'installations-mixed',
      `${installations.length} git-handoff installations are on PATH:\n${list}\n` +
        `a hook run by sh would read in ${front} and, through it, ${guard}, an older front that cannot run read in: the hook ` +
        `would exit 127 and its client would run every call unchecked. Nothing was written. Take the older installation off PATH ` +
        `(or uninstall it: npm rm -g git-handoff where it came from), or put ${path.dirname(front)} before ${path.dirname(guard)} on PATH, then install again.`,
      { installations, mixed: { front, guard } },
    );
  }
  const runs = guard ? (installations.find((i) => i.root === rootOf(guard)) ?? null) : null;
  return [
    `${installations.length} git-handoff installations are on PATH:\n${list}\n` +
      `the hooks wired here run the first git-handoff-guard on PATH: ${runs ? runs.root : 'none'}${runs && !runs.self ? ' — not the one running this install; put the one you mean first on PATH, or take the other off' : ''}`,
  ];
}
