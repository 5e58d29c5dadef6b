// Finding the repository, its handoff settings and this session's guard state without starting git: the guard
// runs before every tool call, so it walks up for `.git` and keeps `git config` answers in a small cache.
import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Config } from '../git/config';
import { handoffDir } from '../handoff/paths';

export interface Location {
  /** the worktree top */
  worktree: string;
  gitDir: string;
  commonDir: string;
}

const readText = (p: string): string | null => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return null;
  }
};

/** The non-bare repository containing `start` (which need not exist yet), found by walking up for `.git`. */
export function locate(start: string): Location | null {
  let dir = path.resolve(start);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    let st: ReturnType<typeof statSync> | undefined;
    try {
      // throwIfNoEntry: a missing .git (every level but one) costs no exception
      st = statSync(dotGit, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return { worktree: dir, gitDir: dotGit, commonDir: dotGit };
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
      if (m) {
        const gitDir = path.resolve(dir, m[1]);
        const common = readText(path.join(gitDir, 'commondir'))?.trim();
        return { worktree: dir, gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The branch checked out in a location, read from HEAD. */
export function headBranch(loc: Location): string | null {
  const m = /^ref: refs\/heads\/(.+)$/.exec((readText(path.join(loc.gitDir, 'HEAD')) ?? '').trim());
  return m ? m[1] : null;
}

function configFiles(loc: Location, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const files = [
    path.join(loc.commonDir, 'config'),
    path.join(loc.gitDir, 'config.worktree'),
    env.GIT_CONFIG_GLOBAL || path.join(home, '.gitconfig'),
    path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'),
  ];
  if (!env.GIT_CONFIG_NOSYSTEM) files.push(env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
  return files;
}

const stamp = (f: string) => {
  try {
    const s = statSync(f, { throwIfNoEntry: false });
    return s ? `${f}:${s.mtimeMs}:${s.size}` : `${f}:-`;
  } catch {
    return `${f}:-`;
  }
};

const cacheFile = (loc: Location) => path.join(handoffDir(loc.commonDir), 'guard-config.json');

/** The stamp of every config file git reads for this repository (mtime and size of each). */
export const configKey = (loc: Location, env: NodeJS.ProcessEnv = process.env) => configFiles(loc, env).map(stamp).join('|');

/**
 * The repository's git configuration (handoff.*, identity) as git last answered it, kept under
 * <git-common-dir>/handoff/ until a config file changes; null when there is no answer for `key` yet.
 */
export function readConfigCache(loc: Location, key: string): Config | null {
  try {
    const c = JSON.parse(readFileSync(cacheFile(loc), 'utf8'));
    if (c && c.key === key && Array.isArray(c.entries)) return new Map(c.entries);
  } catch {
    /* no cache yet */
  }
  return null;
}

export function writeConfigCache(loc: Location, key: string, config: Config): void {
  writeJsonAtomic(cacheFile(loc), { key, entries: [...config] });
}

export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value));
  renameSync(tmp, file);
}

/** Appends one line to <git-common-dir>/handoff/guard.log, or to the user cache directory outside a repository. */
export function guardLog(loc: Location | null, line: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const dir = loc ? handoffDir(loc.commonDir) : path.join(env.XDG_CACHE_HOME || path.join(env.HOME || homedir(), '.cache'), 'git-handoff');
    mkdirSync(dir, { recursive: true });
    appendFileSync(path.join(dir, 'guard.log'), `${new Date().toISOString()} ${line.replace(/\n/g, ' | ')}\n`);
  } catch {
    /* the log is best effort: never fail the guard for it */
  }
}
