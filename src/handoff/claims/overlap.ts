// Which claimed paths overlap (SPEC 10): a claim names repository paths, directories (`src/auth/`) and globs
// (`src/**/*.ts`), read by picomatch as the guard reads protected-file patterns. Two specs overlap when some path
// could be named by both; where that cannot be told exactly (two globs) the answer leans to "overlap", so a claim is
// refused rather than two sessions let into the same file.
import path from 'node:path';
import type Picomatch from 'picomatch';
import { HandoffError } from '../../errors';

// loaded at its first use: the guard imports this module in every run, claims or none
let loaded: typeof Picomatch | null = null;
const picomatch = (): typeof Picomatch => (loaded ??= require('picomatch') as typeof Picomatch);

const OPTS = { dot: true } as const;

const isGlob = (spec: string) => picomatch().scan(spec).isGlob;
const isDir = (spec: string) => spec.endsWith('/');

/**
 * A path or glob as the user gave it (relative to `cwd`, or absolute inside the worktree `top`) as a spec relative to
 * the worktree top, `/`-separated; a directory (named with a trailing `/`, or an existing directory) ends with `/`.
 * Outside the worktree, empty, or the worktree itself: exit 2.
 */
export function normalizeSpec(raw: string, cwd: string, top: string, isDirectory: (abs: string) => boolean): string {
  if (typeof raw !== 'string' || raw.trim() === '' || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw new HandoffError('usage', 'invalid-claim-path', `invalid path ${JSON.stringify(String(raw))}: name a file, a directory or a glob inside the worktree`);
  }
  const glob = isGlob(raw);
  // a glob is made relative by its static base; the pattern part is kept as written
  const base = glob ? picomatch().scan(raw).base : raw;
  const rest = glob ? raw.slice(base.length).replace(/^\//, '') : '';
  const abs = path.resolve(cwd, base || '.');
  const rel = path.relative(top, abs).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new HandoffError('usage', 'claim-outside-worktree', `${raw} is outside this worktree (${top}): claims name paths of the repository`, { path: raw });
  }
  if (glob) return rel ? `${rel}/${rest}` : rest;
  if (rel === '') throw new HandoffError('usage', 'claim-whole-worktree', `${raw} is the whole worktree: claim the files or directories you will change (a glob such as '**' says it on purpose)`, { path: raw });
  return raw.endsWith('/') || isDirectory(abs) ? `${rel}/` : rel;
}

/** The glob a spec stands for: a directory is everything under it. */
const asGlob = (spec: string) => (isDir(spec) ? `${spec}**` : spec);

/** The static part of a glob (the directory it starts in), '' for a glob at the top. */
const baseOf = (glob: string) => (isGlob(glob) ? picomatch().scan(glob).base : glob.replace(/\/$/, ''));

const related = (a: string, b: string) => a === '' || b === '' || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** The literal text a glob's last segment must end with (after its last wildcard), '' when none or not plain. */
function literalSuffix(glob: string): string {
  const last = glob.slice(glob.lastIndexOf('/') + 1);
  const m = /[*?\]})]([^*?[\]{}()!+@]*)$/.exec(last);
  return m ? m[1] : '';
}

/** Whether some path could be named by both specs. */
export function specsOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  const ga = isGlob(a);
  const gb = isGlob(b);
  if (!ga && !gb) {
    const da = a.replace(/\/$/, '');
    const db = b.replace(/\/$/, '');
    return da === db || (isDir(a) && b.startsWith(a)) || (isDir(b) && a.startsWith(b));
  }
  // a file against a glob (or a directory's glob): exactly what picomatch says
  if (!ga && !isDir(a)) return picomatch()(asGlob(b), OPTS)(a);
  if (!gb && !isDir(b)) return picomatch()(asGlob(a), OPTS)(b);
  const A = asGlob(a);
  const B = asGlob(b);
  if (!related(baseOf(A), baseOf(B))) return false;
  // a sample of either that the other matches is an overlap for certain
  const sample = (g: string) => g.replace(/\*\*/g, 'x/y').replace(/[*?]/g, 'x');
  if (picomatch()(A, OPTS)(sample(B)) || picomatch()(B, OPTS)(sample(A))) return true;
  // two file-name endings that no name can have both of (`*.ts`, `*.md`) keep apart; anything else may overlap
  const sa = literalSuffix(A);
  const sb = literalSuffix(B);
  return !sa || !sb || sa.endsWith(sb) || sb.endsWith(sa);
}

/** The pairs [mine, theirs] of two spec lists that overlap. */
export function overlapping(mine: readonly string[], theirs: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of mine) for (const t of theirs) if (specsOverlap(m, t)) out.push([m, t]);
  return out;
}

/** Whether a repository path (a file a tool writes) is inside one of the specs. */
export function pathClaimed(file: string, specs: readonly string[]): string | null {
  return specs.find((s) => specsOverlap(file, s)) ?? null;
}
