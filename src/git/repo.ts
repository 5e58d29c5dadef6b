// Repository discovery: where the git directories are, which branch is checked out, the object format.
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { keyName, parseSetting } from '../config-keys';
import { HandoffError } from '../errors';
import { git, gitOut, type GitOptions, type GitResult } from './run';

export interface Repo {
  /** where git commands run (the worktree top, or the git dir of a bare repository) */
  cwd: string;
  gitDir: string;
  commonDir: string;
  /** null in a bare repository */
  worktree: string | null;
  bare: boolean;
  objectFormat: 'sha1' | 'sha256';
  /** the checked-out branch (short name), null when HEAD is detached */
  branch: string | null;
  /** `handoff.formatVersion` in the repository's own config file (SPEC 2 "Format version"); null when unset */
  storeFormat?: number | null;
  /** found without git (discoverPlain): this user's, plain configuration, no GIT_DIR or command-line configuration */
  plain?: boolean;
  git(args: string[], opts?: GitOptions): GitResult;
  out(args: string[], opts?: GitOptions): string;
}

/**
 * The repository containing `start`. A plain one is found without starting git; `viaGit` asks git in every case
 * (the guard does, so a git that cannot run is noticed before a rule reads nothing from it).
 */
export function openRepo(start: string = process.cwd(), o: { viaGit?: boolean } = {}): Repo {
  const found = o.viaGit ? null : discoverPlain(start);
  let lines: string[];
  if (found) lines = [found.gitDir, found.commonDir, 'false', 'sha1', found.top];
  else {
    const r = git(
      ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format', '--show-toplevel'],
      { cwd: start, allowFail: true },
    );
    lines = r.stdout.split('\n');
    if (lines.length < 5 || !lines[0]) {
      throw new HandoffError('environment', 'not-a-repository', `not a git repository: ${start}`, { path: start, stderr: r.stderr.trim() });
    }
  }
  const [gitDir, commonDir, bareFlag, fmt, top] = lines;
  const bare = bareFlag === 'true';
  const worktree = bare || !top ? null : top;
  const cwd = worktree ?? gitDir;
  const repo: Repo = {
    cwd,
    gitDir,
    commonDir,
    worktree,
    bare,
    objectFormat: fmt === 'sha256' ? 'sha256' : 'sha1',
    branch: readHeadBranch(gitDir),
    // the config text discovery read already (the plain case), else one file read: never a git process
    storeFormat: storeFormatOf(found ? found.config : readText(path.join(commonDir, 'config'))),
    plain: !!found,
    git: (args, opts = {}) => git(args, { cwd, ...opts }),
    out: (args, opts = {}) => gitOut(args, { cwd, ...opts }),
  };
  formatGate?.(repo);
  return repo;
}

// The CLI sets this (src/cli/start.ts): every command it runs checks the store's format at the repository's opening.
let formatGate: ((repo: Repo) => void) | null = null;
export const setFormatGate = (gate: ((repo: Repo) => void) | null): void => {
  formatGate = gate;
};

const readText = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

// The key's section and name, from the table of handoff.* keys: read here from the text discovery read already (no
// git process at the start of every command), the value by the table's rule for the key.
const [FORMAT_SECTION, FORMAT_NAME] = keyName('formatVersion').toLowerCase().split('.');
const FORMAT_LINE = new RegExp(`^${FORMAT_NAME}\\s*=\\s*("?)([^"#;]*)\\1\\s*(?:[#;].*)?$`, 'i');

/**
 * `handoff.formatVersion` in a config file's text, as git reads it (section and key names in any case, the last
 * value wins); null when unset. A value that is not a whole number reads as newer than any build: refused, never guessed.
 */
export function storeFormatOf(text: string): number | null {
  let inHandoff = false;
  let out: number | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*"\s*)?\](.*)$/.exec(line);
    let rest = line;
    if (section) {
      inHandoff = section[1].toLowerCase() === FORMAT_SECTION && !/"/.test(line.slice(0, line.indexOf(']')));
      rest = section[2].trim();
    }
    if (!inHandoff) continue;
    const m = FORMAT_LINE.exec(rest);
    if (m) out = parseSetting('formatVersion', [m[2]]) ?? Number.MAX_SAFE_INTEGER;
  }
  return out;
}

// Anything here changes where git looks for the repository or how it reads it: git itself answers then.
const DISCOVERY_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT'];
// Repository configuration that moves the worktree, makes it bare, includes other files, or names extensions
// (the object format among them): git itself answers then.
const UNPLAIN_CONFIG = /^\s*\[\s*(extensions|include|includeif)\b|^\s*worktree\s*=|^\s*bare\s*=\s*(true|yes|on|1)\s*$|^\s*repositoryformatversion\s*=\s*([2-9]|1\d)/im;

const statOf = (p: string): Stats | null => {
  try {
    return statSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
};

/**
 * The plain case, found without starting git: a worktree (or linked worktree) found by walking up for `.git`,
 * owned by this user, whose repository configuration is plain (sha1, no core.worktree, not bare, no includes,
 * no extensions), with no GIT_* variable that changes discovery. Null for everything else (a bare repository,
 * the inside of a git dir, a filesystem boundary, SHA-256, another owner, GIT_DIR…): `git rev-parse` answers.
 */
function discoverPlain(start: string): { gitDir: string; commonDir: string; top: string; config: string } | null {
  if (DISCOVERY_ENV.some((k) => process.env[k] !== undefined)) return null;
  const me = process.geteuid?.();
  if (me === undefined || (me === 0 && process.env.SUDO_UID !== undefined)) return null;
  let dir: string;
  try {
    dir = realpathSync.native(start);
  } catch {
    return null;
  }
  let here = statOf(dir);
  for (;;) {
    if (!here) return null;
    const dotGit = path.join(dir, '.git');
    const st = statOf(dotGit);
    if (st) return st.isDirectory() || st.isFile() ? plainRepo(dir, dotGit, st, here, me) : null;
    // a directory that is itself a git dir (bare, or inside .git): git's own rules
    if (statOf(path.join(dir, 'HEAD')) && statOf(path.join(dir, 'objects'))) return null;
    const up = path.dirname(dir);
    if (up === dir) return null;
    const above = statOf(up);
    if (!above || above.dev !== here.dev) return null;
    dir = up;
    here = above;
  }
}

function plainRepo(top: string, dotGit: string, st: Stats, topStat: Stats, me: number): { gitDir: string; commonDir: string; top: string; config: string } | null {
  try {
    let gitDir = dotGit;
    let commonDir = dotGit;
    if (st.isFile()) {
      const m = /^gitdir: (.+)$/.exec(readFileSync(dotGit, 'utf8').split('\n', 1)[0]);
      if (!m) return null;
      gitDir = realpathSync.native(path.resolve(top, m[1].trim()));
      let common: string | null = null;
      try {
        common = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
      } catch {
        common = null;
      }
      commonDir = common ? realpathSync.native(path.resolve(gitDir, common)) : gitDir;
    }
    if (topStat.uid !== me || statSync(gitDir).uid !== me) return null;
    if (!statOf(path.join(gitDir, 'HEAD'))?.isFile() || !statOf(path.join(commonDir, 'objects'))?.isDirectory()) return null;
    const config = readFileSync(path.join(commonDir, 'config'), 'utf8');
    if (UNPLAIN_CONFIG.test(config)) return null;
    return { gitDir, commonDir, top, config };
  } catch {
    return null;
  }
}

/** Reads HEAD directly: one file read instead of a process, and it works on an unborn branch. */
function readHeadBranch(gitDir: string): string | null {
  try {
    // only the final newline goes: a branch name may hold (or end in) U+2028 and similar, which trim() and '.' drop
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').replace(/\r?\n$/, '');
    const m = /^ref: refs\/heads\/(.+)$/s.exec(head);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

/** The all-zero object id of this repository's hash. */
export const zeroOid = (repo: Pick<Repo, 'objectFormat'>) => '0'.repeat(repo.objectFormat === 'sha256' ? 64 : 40);
