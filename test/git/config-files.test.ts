// The configuration files git reads, one table (src/git/config-files.ts, issue 35): what configFiles lists is what a
// real git reads (`git config --list --show-origin --show-scope`), environment by environment, and the sh front's
// generated each_config gives the same files in the same order as configFiles.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFiles, configFilesSh, userConfigFiles } from '../../src/git/config-files';
import { walkUp } from '../../src/guard/locate';
// @ts-expect-error: a build script, plain JavaScript
import { FILES_BEGIN, FILES_END } from '../../scripts/front-words.mjs';
import { ROOT, tempDir } from '../helpers/repo';

const gitIn = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

/** A repository with a linked worktree, each with extensions.worktreeConfig when asked, under a fresh directory. */
function fixture(worktreeConfig: boolean) {
  const root = tempDir('gh-cfgfiles-');
  const home = path.join(root, 'home');
  mkdirSync(home);
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
  const main = path.join(root, 'main');
  gitIn(root, env, 'init', '-q', main);
  gitIn(main, env, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'c');
  gitIn(main, env, 'worktree', 'add', '-q', path.join(root, 'linked'));
  if (worktreeConfig) gitIn(main, env, 'config', 'extensions.worktreeConfig', 'true');
  return { root, home, main, linked: path.join(root, 'linked') };
}

/** Every file git could read here, made with one key each; the files git then names, with their scopes. */
function gitsFiles(dir: string, env: NodeJS.ProcessEnv, candidates: string[]): Map<string, string> {
  candidates.forEach((f, i) => {
    mkdirSync(path.dirname(f), { recursive: true });
    appendFileSync(f, `\n[t]\n\tf${i} = 1\n`);
  });
  const out = gitIn(dir, env as NodeJS.ProcessEnv, 'config', '--list', '--show-origin', '--show-scope', '-z');
  const files = new Map<string, string>();
  const parts = out.split('\0');
  for (let i = 0; i + 2 < parts.length; i += 3) if (parts[i + 1].startsWith('file:')) files.set(path.resolve(dir, parts[i + 1].slice(5)), parts[i]);
  return files;
}

describe('configFiles against git', () => {
  // each row: the environment beside HOME (paths under the fixture's root), which worktree, and the files configFiles
  // lists that git does not read there (its superset, on purpose: see RULES)
  const rows: Array<{ name: string; env: Record<string, string>; linked?: boolean; worktreeConfig?: boolean; extra: string[] }> = [
    { name: 'HOME only, a system file named', env: { GIT_CONFIG_SYSTEM: 'sys' }, extra: ['worktree'] },
    { name: 'XDG_CONFIG_HOME', env: { GIT_CONFIG_SYSTEM: 'sys', XDG_CONFIG_HOME: 'xdg' }, extra: ['worktree'] },
    { name: 'GIT_CONFIG_GLOBAL (git reads neither ~/.gitconfig nor XDG)', env: { GIT_CONFIG_SYSTEM: 'sys', GIT_CONFIG_GLOBAL: 'glob', XDG_CONFIG_HOME: 'xdg' }, extra: ['worktree', 'xdg'] },
    { name: 'GIT_CONFIG_NOSYSTEM=1', env: { GIT_CONFIG_SYSTEM: 'sys', GIT_CONFIG_NOSYSTEM: '1' }, extra: ['worktree'] },
    { name: 'GIT_CONFIG_NOSYSTEM=Yes', env: { GIT_CONFIG_SYSTEM: 'sys', GIT_CONFIG_NOSYSTEM: 'Yes' }, extra: ['worktree'] },
    { name: 'GIT_CONFIG_NOSYSTEM=0 (git reads the system file)', env: { GIT_CONFIG_SYSTEM: 'sys', GIT_CONFIG_NOSYSTEM: '0' }, extra: ['worktree'] },
    { name: 'GIT_CONFIG_NOSYSTEM=false', env: { GIT_CONFIG_SYSTEM: 'sys', GIT_CONFIG_NOSYSTEM: 'false' }, extra: ['worktree'] },
    { name: 'a linked worktree', env: { GIT_CONFIG_SYSTEM: 'sys' }, linked: true, extra: ['worktree'] },
    { name: 'extensions.worktreeConfig, main worktree', env: { GIT_CONFIG_SYSTEM: 'sys', XDG_CONFIG_HOME: 'xdg' }, worktreeConfig: true, extra: [] },
    { name: 'extensions.worktreeConfig, linked worktree', env: { GIT_CONFIG_SYSTEM: 'sys', GIT_CONFIG_GLOBAL: 'glob' }, worktreeConfig: true, linked: true, extra: ['xdg'] },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const f = fixture(!!row.worktreeConfig);
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: f.home, LC_ALL: 'C' };
      for (const [k, v] of Object.entries(row.env)) env[k] = k === 'GIT_CONFIG_NOSYSTEM' ? v : path.join(f.root, v);
      const dir = row.linked ? f.linked : f.main;
      const loc = walkUp(dir)!;
      const listed = configFiles(loc, env).map((p) => path.resolve(p));
      const label: Record<string, string> = {
        [path.join(loc.gitDir, 'config.worktree')]: 'worktree',
        [path.join(env.XDG_CONFIG_HOME || path.join(f.home, '.config'), 'git', 'config')]: 'xdg',
      };
      // git's candidates whatever the environment: the defaults too, so a file git reads and configFiles misses shows
      const candidates = [...new Set([...listed, path.join(f.home, '.gitconfig'), path.join(f.home, '.config', 'git', 'config')])];
      const read = gitsFiles(dir, env, candidates);
      // every file git reads is listed, in a scope userConfigFiles agrees with for the user's and the system's
      for (const [file, scope] of read) {
        expect(listed, `${file} (${scope})`).toContain(file);
        if (scope === 'global' || scope === 'system') expect(userConfigFiles(env).find((u) => path.resolve(u.file) === file)?.scope).toBe(scope);
      }
      expect(new Set(read.values())).toEqual(new Set(['local', 'global', ...(row.env.GIT_CONFIG_NOSYSTEM === '1' || row.env.GIT_CONFIG_NOSYSTEM === 'Yes' ? [] : ['system']), ...(row.worktreeConfig ? ['worktree'] : [])]));
      // and what it lists beyond them is the row's named superset
      expect(listed.filter((p) => !read.has(p)).map((p) => label[p] ?? p)).toEqual(row.extra);
    });
  }
});

describe("the sh front's each_config", () => {
  const front = readFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), 'utf8');
  // each_config is in the file tools' block (a shell line's way never reads it)
  const block = front.slice(front.indexOf(FILES_BEGIN), front.indexOf(FILES_END));

  it('is the generated function of the table', () => {
    expect(block).toContain(configFilesSh('each_config', 'config_file'));
  });

  it('gives config_file the files configFiles lists, in order, in every environment', () => {
    const file = path.join(tempDir('gh-cfgsh-'), 'block.sh');
    writeFileSync(file, block);
    const dirs = { commonDir: '/r/.git', gitDir: '/r/.git/worktrees/w' };
    const envs: Array<Record<string, string>> = [
      {},
      { XDG_CONFIG_HOME: '/x' },
      { XDG_CONFIG_HOME: '' },
      { GIT_CONFIG_GLOBAL: '/g/c' },
      { GIT_CONFIG_GLOBAL: '' },
      { GIT_CONFIG_SYSTEM: '/s/c' },
      { GIT_CONFIG_SYSTEM: '' },
      ...['1', 'true', 'TRUE', 'Yes', 'on', '0', 'false', 'no', '', '2', 'x'].map((v) => ({ GIT_CONFIG_NOSYSTEM: v, GIT_CONFIG_SYSTEM: '/s/c' })),
      { HOME: '/other home', XDG_CONFIG_HOME: '/x y', GIT_CONFIG_GLOBAL: '/g h/c' },
    ];
    for (const extra of envs) {
      const env = { PATH: process.env.PATH, HOME: '/h', ...extra };
      const script = `. "$0"; common=$1 gitdir=$2; config_file() { printf '%s\\n' "$1"; }; each_config`;
      const r = spawnSync('sh', ['-c', script, file, dirs.commonDir, dirs.gitDir], { env, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n').slice(0, -1), JSON.stringify(extra)).toEqual(configFiles(dirs, env));
    }
  });

  it('stops at the first file config_file refuses', () => {
    const file = path.join(tempDir('gh-cfgsh-'), 'block.sh');
    writeFileSync(file, block);
    const script = `. "$0"; common=/r gitdir=/r; config_file() { echo "$1"; [ "$1" != /r/config.worktree ]; }; each_config; echo "exit $?"`;
    const r = spawnSync('sh', ['-c', script, file], { env: { PATH: process.env.PATH, HOME: '/h' }, encoding: 'utf8' });
    expect(r.stdout).toBe('/r/config\n/r/config.worktree\nexit 1\n');
  });
});
