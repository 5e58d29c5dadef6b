// openRepo finds a plain repository without starting git; every answer must be the one `git rev-parse` gives,
// and every case it does not know (bare, SHA-256, GIT_DIR, core.worktree, inside .git) must go to git.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo';
import { headBranch } from '../../src/guard/locate';
import { makeRepo, tempDir } from '../helpers/repo';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

function revParse(cwd: string, env: NodeJS.ProcessEnv) {
  // (--show-toplevel fails in a bare repository or inside .git, after printing the rest: openRepo reads the rest)
  const [gitDir, commonDir, bare, objectFormat, top] = spawnSync(
    'git',
    ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format', '--show-toplevel'],
    { cwd, env, encoding: 'utf8' },
  ).stdout.split('\n');
  return { gitDir, commonDir, bare: bare === 'true', objectFormat, worktree: bare === 'true' || !top ? null : top };
}

/** openRepo from `cwd` (in the repository's environment), and how many git processes it started. */
function open(cwd: string, env: NodeJS.ProcessEnv, extra: Record<string, string> = {}) {
  const bin = tempDir();
  const log = path.join(bin, 'log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_') && !k.startsWith('GIT_HANDOFF')) delete process.env[k];
  Object.assign(process.env, env, extra, { PATH: `${bin}:${env.PATH}` });
  const r = openRepo(cwd);
  const spawned = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
  return { repo: { gitDir: r.gitDir, commonDir: r.commonDir, bare: r.bare, objectFormat: r.objectFormat, worktree: r.worktree }, spawned };
}

describe('repository discovery', () => {
  it('answers as git does, without git, at the top, below it, through a symlink and in a linked worktree', () => {
    const repo = makeRepo({ commit: true });
    mkdirSync(path.join(repo.dir, 'src', 'deep'), { recursive: true });
    const wt = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', wt]);
    mkdirSync(path.join(wt, 'lib'));
    const link = path.join(tempDir(), 'via-link');
    symlinkSync(path.join(repo.dir, 'src'), link);
    for (const cwd of [repo.dir, path.join(repo.dir, 'src', 'deep'), link, wt, path.join(wt, 'lib')]) {
      const r = open(cwd, repo.env);
      expect(r.repo, cwd).toEqual(revParse(cwd, repo.env));
      expect(r.spawned, cwd).toBe(0);
    }
  });

  it('leaves every other case to git, with the same answer', () => {
    const sha256 = makeRepo({ init: ['--object-format=sha256'], commit: true });
    const bare = makeRepo({ init: ['--bare'] });
    const moved = makeRepo({ commit: true });
    const elsewhere = tempDir();
    moved.git(['config', 'core.worktree', elsewhere]);
    const plain = makeRepo({ commit: true });
    const cases: Array<[string, NodeJS.ProcessEnv, Record<string, string>]> = [
      [sha256.dir, sha256.env, {}],
      [bare.dir, bare.env, {}],
      [path.join(plain.dir, '.git', 'refs'), plain.env, {}],
      [plain.dir, plain.env, { GIT_DIR: path.join(plain.dir, '.git') }],
      [plain.dir, plain.env, { GIT_CONFIG_PARAMETERS: "'core.bare'='false'" }],
      [moved.dir, moved.env, {}],
    ];
    for (const [cwd, env, extra] of cases) {
      const r = open(cwd, env, extra);
      expect(r.spawned, cwd).toBe(1);
      expect(r.repo, cwd).toEqual(revParse(cwd, { ...env, ...extra }));
    }
    expect(open(sha256.dir, sha256.env).repo.objectFormat).toBe('sha256');
  });

  it('the guard and the port read the branch HEAD names as git does, a name ending in U+2028 included', () => {
    const repo = makeRepo({ commit: true });
    const branch = 'topic\u2028';
    repo.git(['checkout', '-q', '-b', branch]);
    expect(repo.git(['symbolic-ref', '--short', 'HEAD']).stdout.replace(/\n$/, '')).toBe(branch);
    const place = openRepo(repo.dir);
    expect(place.branch).toBe(branch);
    expect(headBranch({ worktree: repo.dir, gitDir: place.gitDir, commonDir: place.commonDir })).toBe(branch);
  });
});
