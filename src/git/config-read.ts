// git's configuration read in this process (one git process fewer per write), only where it is provably what
// `git config -z --get-regexp` would print: a plain repository, known files holding no include, parsed by git's own
// rules (config.c); anything else is null, and git answers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gitBool } from '../config-keys';
import { configFiles } from './config-files';
import { fileStamp, realpathOr } from '../read-file';
import { addValue } from './config-values';
import type { Storage } from './storage';

type Env = NodeJS.ProcessEnv;
/** key (lower case, as readConfig keeps it) → its values in git's order */
type ConfigEntries = Array<[string, string]>;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isKeyChar = (c: number) => isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);
const NL = 0x0a;
/** the escapes git takes in a value (`\t`, `\b`, `\n`, `\\`, `\"`), by the character after the backslash */
const ESCAPES: Record<number, string> = { 0x74: '\t', 0x62: '\b', 0x6e: '\n', 0x5c: '\\', 0x22: '"' };

/**
 * One file's entries as git reads them (get_next_char, git_parse_source, get_base_var, get_value, parse_value of git
 * 2.39's config.c), keys and values as bytes read as latin1; null where git would fail or (unless `includes`) include another file.
 */
export function parseConfigFile(data: Buffer, o: { includes?: boolean } = {}): ConfigEntries | null {
  let at = 0;
  let eof = false;
  // get_next_char: CR LF reads as LF; the end reads as LF (and marks eof)
  const next = (): number => {
    if (at >= data.length) {
      eof = true;
      return NL;
    }
    const c = data[at++];
    if (c === 0x0d && data[at] === NL) return data[at++];
    return c;
  };
  const out: ConfigEntries = [];
  let section = '';
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) at = 3;
  else if (data[0] === 0xef) return null;
  let comment = false;
  for (;;) {
    const c = next();
    if (c === NL) {
      if (eof) return out;
      comment = false;
      continue;
    }
    if (comment || isSpace(c)) continue;
    if (c === 0x23 || c === 0x3b) {
      comment = true;
      continue;
    }
    if (c === 0x5b) {
      const s = baseVar();
      if (s === null || s === '') return null;
      section = s;
      continue;
    }
    if (!isAlpha(c) || section === '') return null;
    // the variable's name, then `= value` or nothing (a boolean true)
    let name = String.fromCharCode(lower(c));
    let d: number;
    for (;;) {
      d = next();
      if (eof || !isKeyChar(d)) break;
      name += String.fromCharCode(lower(d));
    }
    while (d === 0x20 || d === 0x09) d = next();
    let value: string | null = null;
    if (d !== NL) {
      if (d !== 0x3d) return null;
      value = parseValue();
      if (value === null) return null;
    }
    // an include of any kind, or anything in a section named like one: git may read another file here
    if (!o.includes && /^include(if)?(\.|$)/.test(section)) return null;
    out.push([`${section}.${name}`, value ?? '\u0000']);
  }

  function baseVar(): string | null {
    let name = '';
    for (;;) {
      const c = next();
      if (eof) return null;
      if (c === 0x5d) return name;
      if (isSpace(c)) return extendedBaseVar(name, c);
      if (!isKeyChar(c) && c !== 0x2e) return null;
      name += String.fromCharCode(lower(c));
    }
  }

  function extendedBaseVar(base: string, first: number): string | null {
    let c = first;
    do {
      if (c === NL) return null;
      c = next();
    } while (isSpace(c));
    if (c !== 0x22) return null;
    let sub = '';
    for (;;) {
      let d = next();
      if (d === NL) return null;
      if (d === 0x22) break;
      if (d === 0x5c) {
        d = next();
        if (d === NL) return null;
      }
      sub += String.fromCharCode(d);
    }
    if (next() !== 0x5d) return null;
    return `${base}.${sub}`;
  }

  function parseValue(): string | null {
    let quote = false;
    let inComment = false;
    let space = 0;
    let value = '';
    for (;;) {
      let c = next();
      if (c === NL) return quote ? null : value;
      if (inComment) continue;
      if (isSpace(c) && !quote) {
        if (value.length) space++;
        continue;
      }
      if (!quote && (c === 0x3b || c === 0x23)) {
        inComment = true;
        continue;
      }
      for (; space; space--) value += ' ';
      if (c === 0x5c) {
        c = next();
        if (c === NL) continue;
        if (!(c in ESCAPES)) return null;
        value += ESCAPES[c];
        continue;
      }
      if (c === 0x22) {
        quote = !quote;
        continue;
      }
      value += String.fromCharCode(c);
    }
  }
}

/**
 * The files git reads for a plain repository, in its order (configFiles reversed: system, XDG, ~/.gitconfig, the
 * repository's; no config.worktree without extensions), or null. GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM are git's from
 * 2.32 on (this tool needs 2.31): set, git answers; so does a GIT_CONFIG_NOSYSTEM git_env_bool would refuse. The system
 * file is /etc/gitconfig only for a git built for /usr (the distribution's).
 */
function filesInGitsOrder(repo: Pick<Storage, 'commonDir' | 'gitDir'>, env: Env): string[] | null {
  const nosystem = env.GIT_CONFIG_NOSYSTEM;
  if ((nosystem && gitBool(nosystem) === null) || !env.HOME || env.GIT_CONFIG_GLOBAL !== undefined || env.GIT_CONFIG_SYSTEM !== undefined) return null;
  const files = configFiles(repo, env).filter((f) => f !== path.join(repo.gitDir, 'config.worktree'));
  return files.includes('/etc/gitconfig') && !isDistributionGit(env) ? null : files.reverse();
}

const DISTRIBUTION_GITS = ['/usr/bin/git', '/bin/git', '/usr/lib/git-core/git', '/usr/libexec/git-core/git'];
let distributionGit: boolean | null = null;
/**
 * Whether the git on PATH (git puts its exec path first for `git handoff`) is the distribution's, prefix /usr (git's
 * Makefile: sysconfdir /etc, its system file /etc/gitconfig); checked once per process.
 */
function isDistributionGit(env: Env): boolean {
  if (distributionGit !== null) return distributionGit;
  const dir = process.platform === 'linux' ? (env.PATH ?? '').split(path.delimiter).find((d) => d && existsSync(path.join(d, 'git'))) : undefined;
  return (distributionGit = !!dir && DISTRIBUTION_GITS.includes(realpathOr(path.join(dir, 'git'))));
}

/**
 * The entries `git config -z --get-regexp <re>` prints for this repository, read in this process, as readConfig keeps
 * them (keys lower case, or as git prints them with `asGit`: a subsection keeps its case; a bare key's value "true");
 * null wherever git must answer.
 */
export function readConfigInProcess(repo: Pick<Storage, 'commonDir' | 'gitDir' | 'plain'>, wanted: RegExp, env: Env = process.env, asGit = false): Map<string, string[]> | null {
  if (!repo.plain || env.GIT_CONFIG !== undefined || env.GIT_CONFIG_PARAMETERS !== undefined || env.GIT_CONFIG_COUNT !== undefined) return null;
  const files = filesInGitsOrder(repo, env);
  if (!files) return null;
  const map = new Map<string, string[]>();
  for (const file of files) {
    const { entries } = configFile(file);
    if (entries === 'absent') continue;
    if (!entries) return null;
    for (const [k, v] of entries) {
      // what git prints is bytes; spawnSync reads them as UTF-8 (an invalid byte as U+FFFD): the same here
      const printed = Buffer.from(k, 'latin1').toString('utf8');
      const key = asGit ? printed : printed.toLowerCase();
      if (!wanted.test(key)) continue;
      addValue(map, key, v === '\u0000' ? 'true' : Buffer.from(v, 'latin1').toString('utf8'));
    }
  }
  return map;
}

// one read and one parse of each file per process, kept while its stamp (inode, mtime, size) stays: a `git config`
// that writes renames a new file into place
const parsed = new Map<string, { stamp: string; text: string | null; entries: ConfigEntries | null | 'absent' }>();

/** A configuration file's text as latin1 (null: not there or unreadable) and its entries ('absent': not there; null: git must read it). */
export function configFile(file: string): { text: string | null; entries: ConfigEntries | null | 'absent' } {
  const stamp = fileStamp(file);
  const kept = parsed.get(file);
  if (kept?.stamp === stamp) return kept;
  let data: Buffer | null = null;
  let entries: ConfigEntries | null | 'absent' = null;
  try {
    data = readFileSync(file);
    if (!data.includes(0)) entries = parseConfigFile(data);
  } catch (e) {
    // a file that is not there is not read; any other failure (a directory, no permission) is git's to say
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') entries = 'absent';
  }
  const read = { stamp, text: data && data.toString('latin1'), entries };
  parsed.set(file, read);
  return read;
}
