// The git-handoff installations on PATH, as the wired hooks find them (issue 53): a wiring names `git-handoff-guard`
// (bash clients exec it), one its client runs with sh (Wiring.sh) reads `git-handoff-front` (or `-split`) in, which
// reads in the first `git-handoff-guard` on PATH. Two installations on PATH can make that pair come from two of them: an
// older front (one without `git-handoff-front` beside it) read in finds no node and exits 127, and the client runs the call.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { readJsonOr, realpathOr } from '../read-file';

/** The programs an installation puts on PATH (package.json's bin). */
const PROGRAMS = ['git-handoff', 'git-handoff-guard', 'git-handoff-front', 'git-handoff-front-split'] as const;
type Program = (typeof PROGRAMS)[number];

interface Installation {
  /** the installation's folder (the one holding bin/ and dist/), symlinks followed */
  root: string;
  /** the PATH directories that give its programs, in PATH order */
  dirs: string[];
  version: string | null;
  /** the copy running this command */
  self: boolean;
}

const isProgram = (file: string) => {
  try {
    const st = statSync(file);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

/** The folder of the installation a program belongs to: its bin/'s parent, symlinks (npm link, npm install -g) followed. */
const rootOf = (file: string): string => path.dirname(path.dirname(realpathOr(file)));

const versionOf = (root: string): string | null => readJsonOr(path.join(root, 'package.json'))?.version ?? null;

/** Where each program is first found on PATH (only absolute entries: `exec` and `.` of a relative one depend on the directory). */
function firstOnPath(pathValue: string): Map<Program, string> {
  const out = new Map<Program, string>();
  for (const dir of pathValue.split(':')) {
    if (!path.isAbsolute(dir)) continue;
    for (const p of PROGRAMS) if (!out.has(p) && isProgram(path.join(dir, p))) out.set(p, path.join(dir, p));
  }
  return out;
}

/** Every installation on PATH, in the order PATH gives them. */
function installationsOnPath(pathValue = process.env.PATH ?? '', selfRoot = path.resolve(__dirname, '..')): Installation[] {
  const byRoot = new Map<string, Installation>();
  const self = realpathOr(selfRoot);
  for (const dir of pathValue.split(':')) {
    if (!path.isAbsolute(dir)) continue;
    for (const p of PROGRAMS) {
      const file = path.join(dir, p);
      if (!isProgram(file)) continue;
      const root = rootOf(file);
      const i = byRoot.get(root) ?? { root, dirs: [], version: versionOf(root), self: root === self };
      if (!i.dirs.includes(dir)) i.dirs.push(dir);
      byRoot.set(root, i);
    }
  }
  return [...byRoot.values()];
}

interface PathHooks {
  installations: Installation[];
  /** the installation whose front the wired hooks run (the first `git-handoff-guard` on PATH) */
  runs: Installation | null;
  /** an sh wiring would read one installation's `git-handoff-front` and another's older front: exit 127 */
  mixed: { front: string; guard: string } | null;
}

/** What the PATH wiring runs (the hooks `install --agent` writes name programs on PATH, not a path). */
function pathHooks(pathValue = process.env.PATH ?? '', selfRoot?: string): PathHooks {
  const installations = installationsOnPath(pathValue, selfRoot);
  const first = firstOnPath(pathValue);
  const guard = first.get('git-handoff-guard');
  const front = first.get('git-handoff-front');
  const runs = guard ? (installations.find((i) => i.root === rootOf(guard)) ?? null) : null;
  // the front read in is the first git-handoff-guard: an installation without git-handoff-front beside it is older than
  // the wiring, and read in it exits 127 (bin/git-handoff-front)
  const mixed = guard && front && path.dirname(guard) !== path.dirname(front) && !existsSync(path.join(path.dirname(guard), 'git-handoff-front')) ? { front, guard } : null;
  return { installations, runs, mixed };
}

const describe = (i: Installation) => `${i.root} (${i.version ? `version ${i.version}` : 'version unknown'}${i.self ? ', the one running this install' : ''}; on PATH as ${i.dirs.join(', ')})`;

/**
 * Before `install --agent` writes a wiring that names programs on PATH: refuses (exit 7) where two installations would
 * make the hook of a wiring that reads the front in (`readsFrontIn`: a client's sh that runs the front itself, Wiring.sh) exit 127, and otherwise says
 * which installation the hooks run when there are several.
 */
export function checkPathInstallations(readsFrontIn: boolean, pathValue = process.env.PATH ?? '', selfRoot?: string): string[] {
  const h = pathHooks(pathValue, selfRoot);
  if (h.installations.length < 2) return [];
  const list = h.installations.map((i) => `  ${describe(i)}`).join('\n');
  if (readsFrontIn && h.mixed) {
    throw new HandoffError(
      'environment',
      'installations-mixed',
      `${h.installations.length} git-handoff installations are on PATH:\n${list}\n` +
        `a hook run by sh would read in ${h.mixed.front} and, through it, ${h.mixed.guard}, an older front that cannot run read in: the hook ` +
        `would exit 127 and its client would run every call unchecked. Nothing was written. Take the older installation off PATH ` +
        `(or uninstall it: npm rm -g git-handoff where it came from), or put ${path.dirname(h.mixed.front)} before ${path.dirname(h.mixed.guard)} on PATH, then install again.`,
      { installations: h.installations, mixed: h.mixed },
    );
  }
  const runs = h.runs;
  return [
    `${h.installations.length} git-handoff installations are on PATH:\n${list}\n` +
      `the hooks wired here run the first git-handoff-guard on PATH: ${runs ? runs.root : 'none'}${runs && !runs.self ? ' — not the one running this install; put the one you mean first on PATH, or take the other off' : ''}`,
  ];
}
