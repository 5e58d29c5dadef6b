// The configuration files git reads for a repository (includes aside), the one place they are named: one table, read
// here and written into the sh front (configFilesSh, by scripts/front-words.mjs).
import path from 'node:path';
import { gitBool, TRUE_WORDS } from '../config-keys';
import { userHome } from '../user-dirs';

type ConfigScope = 'local' | 'worktree' | 'global' | 'system';

/** Where a file's directory is: a repository directory, the home, the root, or a variable with a home-relative default. */
type Base = 'commonDir' | 'gitDir' | 'home' | '/' | { env: string; home: string };

interface Rule {
  scope: ConfigScope;
  base: Base;
  /** the file under its base */
  file: string;
  /** a variable naming the file itself, in place of base/file when set and not empty */
  named?: string;
  /** a variable that turns the file off when git reads it as true (GIT_CONFIG_NOSYSTEM) */
  off?: string;
}

/**
 * git's files, in the order the guard stamps them (its cache key). A superset of what git reads: config.worktree is
 * listed without extensions.worktreeConfig, the XDG file beside GIT_CONFIG_GLOBAL, and the system file unless
 * GIT_CONFIG_NOSYSTEM is one of git's plain true words (git reads "0", "false" and "" as false).
 */
const RULES: Rule[] = [
  { scope: 'local', base: 'commonDir', file: 'config' },
  { scope: 'worktree', base: 'gitDir', file: 'config.worktree' },
  { scope: 'global', base: 'home', file: '.gitconfig', named: 'GIT_CONFIG_GLOBAL' },
  { scope: 'global', base: { env: 'XDG_CONFIG_HOME', home: '.config' }, file: 'git/config' },
  { scope: 'system', base: '/', file: 'etc/gitconfig', named: 'GIT_CONFIG_SYSTEM', off: 'GIT_CONFIG_NOSYSTEM' },
];

const turnedOff = (v: string | undefined) => v !== undefined && gitBool(v) === true;

type Env = NodeJS.ProcessEnv;
interface Dirs {
  commonDir: string;
  gitDir: string;
}

const defaultPath = (r: Rule, env: Env, dirs: Dirs | null): string => {
  const b = r.base;
  const dir = typeof b === 'object' ? env[b.env] || path.join(userHome(env), b.home) : b === 'home' ? userHome(env) : b === '/' ? '/' : dirs![b];
  return path.join(dir, r.file);
};

/** The configuration files git reads for a repository before includes: its own, the worktree's, global, XDG, system. */
export function configFiles(dirs: Dirs, env: Env): string[] {
  return RULES.filter((r) => !(r.off && turnedOff(env[r.off]))).map((r) => (r.named && env[r.named]) || defaultPath(r, env, dirs));
}

/**
 * The user's and the system's files under any of the environments a session's git may have: each one's default and
 * the file its variable names, whether or not this process's environment selects it.
 */
export function userConfigFiles(env: Env): Array<{ scope: ConfigScope; file: string }> {
  return RULES.filter((r) => r.scope === 'global' || r.scope === 'system').flatMap((r) => [
    ...(r.named && env[r.named] ? [{ scope: r.scope, file: env[r.named]! }] : []),
    { scope: r.scope, file: defaultPath(r, env, null) },
  ]);
}

/**
 * The sh front's function `name`: calls `each` with every file of configFiles in order ($common and $gitdir the
 * repository's directories), and fails as soon as `each` does. One line, for the front's generated block.
 */
export function configFilesSh(name: string, each: string): string {
  const dir = (b: Base) => (typeof b === 'object' ? `\${${b.env}:-$HOME/${b.home}}` : b === 'home' ? '$HOME' : b === '/' ? '' : b === 'commonDir' ? '$common' : '$gitdir');
  const word = (r: Rule) => `"${r.named ? `\${${r.named}:-${dir(r.base)}/${r.file}}` : `${dir(r.base)}/${r.file}`}"`;
  const anyCase = (w: string) => [...w].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');
  // the files always read in one `set --`; each that a variable can turn off in a case of its own
  const parts: string[] = [];
  let words: string[] = [];
  const flush = () => {
    if (words.length) parts.push(`set -- ${parts.length ? '"$@" ' : ''}${words.join(' ')}`);
    words = [];
  };
  for (const r of RULES) {
    if (!r.off) words.push(word(r));
    else flush(), parts.push(`case \${${r.off}-} in ${TRUE_WORDS.map(anyCase).join(' | ')}) ;; *) set -- "$@" ${word(r)} ;; esac`);
  }
  flush();
  return `${name}() { ${parts.join('; ')}; for f; do ${each} "$f" || return 1; done; }`;
}
