// Finding the repository, its handoff settings and this session's guard state without starting git: the guard
// runs before every tool call, so it walks up for `.git` and keeps `git config` answers in a small cache.
import { lstatSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../git/config';
import { configFiles } from '../git/config-files';
import { keyName } from '../config-keys';
import { trustedRepository } from '../git/trust';
import { readHeadBranch } from '../git/refs-read';
import { handoffDir } from '../handoff/state/paths';
import { appendState, writeState } from '../handoff/state/state-file';
import { userMac, userMacIfKeyed } from '../handoff/state/user-key';
import { userCacheDir } from '../user-dirs';
import { fileStamp as stamp, readTextOr, statOr } from '../read-file';

export interface Location {
  /** the worktree top */
  worktree: string;
  gitDir: string;
  commonDir: string;
}

/** The repository containing `start` (which need not exist yet); null for one git refuses as another user's (safe.directory). */
export function locate(start: string): Location | null {
  const loc = walkUp(start);
  return loc && trustedRepository(loc.worktree, loc.gitDir) ? loc : null;
}

/** The repository holding `start`, found by walking up for `.git` (git's ownership rule not applied). */
export function walkUp(start: string): Location | null {
  let dir = path.resolve(start);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const st = statOr(dotGit);
    if (st?.isDirectory()) return { worktree: dir, gitDir: dotGit, commonDir: dotGit };
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readTextOr(dotGit) ?? '');
      if (m) {
        const gitDir = path.resolve(dir, m[1]);
        // a .git file naming a missing directory: git stops here with "not a git repository", and so does the guard
        if (!statOr(gitDir)?.isDirectory()) return null;
        const common = readTextOr(path.join(gitDir, 'commondir'))?.trim();
        return { worktree: dir, gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The branch checked out in a location, read from HEAD. */
export const headBranch = (loc: Location): string | null => readHeadBranch(loc.gitDir);

const cacheFile = (loc: Pick<Location, 'commonDir'>) => path.join(handoffDir(loc.commonDir), 'guard-config.json');

/** The stamp of every config file git reads for this repository (mtime and size of each). */
export const configKey = (loc: Location, env: NodeJS.ProcessEnv = process.env) => configFiles(loc, env).map(stamp).join('|');

/** The repository's git configuration as git last answered it, kept until a config file changes; null when none for `key`. */
export function readConfigCache(loc: Location, key: string, env: NodeJS.ProcessEnv = process.env): Config | null {
  try {
    const c = JSON.parse(readFileSync(cacheFile(loc), 'utf8'));
    const files: unknown = c?.files ?? [];
    // only a cache this user's guard wrote counts (a forged one could turn the guard off); a missing key trusts none
    if (c && c.key === key && Array.isArray(c.entries) && Array.isArray(files) && typeof c.mac === 'string' && c.mac === userMacIfKeyed(macText(key, [c.entries, files]), env)) {
      // an included file changed (it may include another now): git is asked again
      if (files.some((f) => !Array.isArray(f) || typeof f[0] !== 'string' || stamp(f[0]) !== f[1])) return null;
      const config: Config = new Map(c.entries);
      filesOf.set(config, files.map((f) => f[0] as string));
      // the front's summary of it, when it went missing (notePlainConfig)
      if (statSync(plainConfigFile(loc.commonDir), { throwIfNoEntry: false }) === undefined) notePlainConfig(loc, config, includedFiles(config), env);
      return config;
    }
  } catch {
    /* no cache yet, or no key to check it with */
  }
  return null;
}

const filesOf = new WeakMap<Config, string[]>();
/** The configuration files beyond configFiles (includes) that a configuration was read from, as cached with it. */
export const includedFiles = (c: Config): string[] => filesOf.get(c) ?? [];

export function writeConfigCache(loc: Location, key: string, config: Config, env: NodeJS.ProcessEnv = process.env, included: string[] = includedFiles(config)): void {
  filesOf.set(config, included);
  const entries = [...config];
  const files = included.map((f) => [f, stamp(f)]);
  let mac: string | null = null;
  try {
    mac = userMac(macText(key, [entries, files]), env);
  } catch {
    notePlainConfig(loc, null, included, env);
    return; // no key: no cache (git is asked every time)
  }
  try {
    writeState(cacheFile(loc), JSON.stringify({ key, entries, files, mac }), handoffDir(loc.commonDir));
  } catch {
    // a cache: one that cannot be written (a full or read-only disk) only means git is asked again next time
  }
  notePlainConfig(loc, config, included, env);
}

/** What a cache's MAC (under this user's key) is of: its key and its contents. */
const macText = (key: string, entries: unknown): string => JSON.stringify([key, entries]);

const MAX_LOG = 1024 * 1024;

/** Appends one line (rotated past 1 MiB) to <git-common-dir>/handoff/guard.log, or to the user cache directory outside a repository. */
export function guardLog(loc: Location | null, line: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const dir = loc ? handoffDir(loc.commonDir) : userCacheDir(env);
    appendState(path.join(dir, 'guard.log'), `${new Date().toISOString()} ${line.replace(/\n/g, ' | ')}\n`, dir, MAX_LOG);
  } catch {
    /* the log is best effort: never fail the guard for it */
  }
}

// What the sh front knows of git's configuration (it reads none itself): guard-config.plain, written while the
// configuration sets nothing that makes a file tool's call node's, listing the files it stamped; removed otherwise.

/** Settings under which a file tool's call is node's whatever its path (keys as git lists them, in lower case). */
const PLAIN_UNLESS: readonly string[] = [keyName('protect'), keyName('guard'), 'core.hooksPath'].map((k) => k.toLowerCase());

/** An include, read or not (a file it names that is missing now may come): the configuration is node's to read. */
const INCLUDE = /^include(if\..*)?\.path$/i;

export const plainConfigFile = (commonDir: string) => path.join(handoffDir(commonDir), 'guard-config.plain');

/** The line the front compares with the files its environment names: `<file>:+|` or `<file>:-|` each, in git's order. */
const configListLine = (files: string[]): string => files.map((f) => `${f}:${lstatSync(f, { throwIfNoEntry: false }) ? '+' : '-'}|`).join('');

/** Writes or removes the summary for a configuration node read now from `configFiles(loc, env)` and `included`. */
function notePlainConfig(loc: { commonDir: string; gitDir: string }, config: Config | null, included: string[], env: NodeJS.ProcessEnv): void {
  const file = plainConfigFile(loc.commonDir);
  try {
    const line = config === null ? null : configListLine(configFiles(loc, env));
    const plain = line !== null && !/[\n\r]/.test(line) && included.length === 0 && ![...config!.keys()].some((k) => PLAIN_UNLESS.includes(k.toLowerCase()) || INCLUDE.test(k));
    if (plain) writeState(file, `${line}\n`, handoffDir(loc.commonDir));
    else rmSync(file, { force: true });
  } catch {
    // a summary: without it the front hands writes to node, which reads the configuration itself
    try {
      rmSync(file, { force: true });
    } catch {
      /* nothing more to do */
    }
  }
}
