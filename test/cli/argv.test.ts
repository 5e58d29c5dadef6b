// What a new user types, through the built CLI: topics that start with "-", `--`, typos, --version, guard -h,
// and a checkout whose dist/ was never built (issue 15 bug 3 and papercuts).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { handoffRefsOf } from './helpers';
import { isolatedEnv, makeRepo, ROOT, tempDir } from '../helpers/repo';

const S = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';

describe('arguments yargs would misread', () => {
  it('a topic starting with "-" exits 2 with the reason, never help and 0, and writes nothing', async () => {
    const repo = makeRepo({ commit: true });
    for (const args of [
      ['write', '-auth', '-m', 'x', '--session', S],
      ['write', '--session', S, '--', '-auth', '-m', 'x'],
      ['show', '-auth'],
      ['log', '-auth'],
      ['archive', '-auth', '--session', S],
      ['boot', '-xh'],
    ]) {
      const r = await repo.cli(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stderr)).toContain('a topic cannot start with "-"');
      expect(String(r.stderr)).toContain(`git handoff ${args[0]} -h`);
      expect(String(r.stdout)).toBe('');
    }
    expect(handoffRefsOf(repo)).toBe('');
    // `--` still ends the options: what follows is a topic
    const dd = await repo.cli(['write', '--session', S, '-m', 'x', '--', 'auth-refactor']);
    expect(dd.exitCode, String(dd.stderr)).toBe(0);
    expect(handoffRefsOf(repo)).toContain('refs/handoffs/main/auth-refactor');
    // help asked for in so many words is still help
    const h = await repo.cli(['write', '-h']);
    expect(h.exitCode).toBe(0);
    expect(String(h.stdout)).toContain('git handoff write <topic>');
  });

  it('typos get a suggestion and the command\'s own help', async () => {
    const repo = makeRepo({ commit: true });
    for (const [word, meant] of [['delete', 'archive'], ['rm', 'archive'], ['lst', 'list'], ['unarchive', 'restore']]) {
      const r = await repo.cli([word, 'auth-refactor']);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain(`did you mean \`git handoff ${meant}\``);
    }
    const opt = await repo.cli(['write', 'auth-refactor', '--sesion', S, '-m', 'x']);
    expect(opt.exitCode).toBe(2);
    expect(String(opt.stderr)).toContain('--sesion: did you mean --session?');
    expect(String(opt.stderr)).toContain('(see `git handoff write -h`)');
    const swapped = await repo.cli(['list', '--mnie']);
    expect(String(swapped.stderr)).toContain('did you mean --mine?');
    expect(String(swapped.stderr)).toContain('(see `git handoff list -h`)');
  });

  it('--version prints the version in package.json; guard -h prints the guard\'s help', async () => {
    const repo = makeRepo();
    const v = await repo.cli(['--version']);
    expect(v.exitCode).toBe(0);
    expect(String(v.stdout).trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    const g = await repo.cli(['guard', '-h']);
    expect(g.exitCode).toBe(0);
    expect(String(g.stdout)).toContain('git handoff guard [--client=');
    expect(String(g.stdout)).toContain('stdin');
  });

  it('a checkout without dist/ says which step is missing instead of a stack trace', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'bin'));
    const bin = path.join(root, 'bin', 'git-handoff');
    copyFileSync(path.join(ROOT, 'bin', 'git-handoff'), bin);
    for (const args of [['list'], ['guard']]) {
      const r = await execa(process.execPath, [bin, ...args], { reject: false, env: isolatedEnv(root), input: '' });
      expect(r.exitCode).toBe(args[0] === 'guard' ? 1 : 7);
      expect(r.stderr).toContain('run `npm install`, then `npm run build`');
      expect(r.stderr).not.toContain('    at ');
    }
  });
});
