// src/cli/parser.ts and src/cli/spec.ts, from what a new user sees: -h lists the daily commands first, usage errors
// say what is missing or extra in sentences, the man page is the code's, and where man is missing the usage says -h.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { cliText as cli } from './helpers';

describe('help and usage errors (item 13)', () => {
  it('-h lists the daily commands first, in groups, and the plumbing last; every command once', async () => {
    const repo = makeRepo();
    const h = await cli(repo, ['-h']);
    expect(h.exitCode).toBe(0);
    const heads = [...h.stdout.matchAll(/^(\S[^\n]*):$/gm)].map((m) => m[1]);
    expect(heads[0]).toBe('Every day');
    expect(heads.at(-2)).toMatch(/^Plumbing/);
    expect(heads.at(-1)).toBe('Options');
    const plumbing = h.stdout.slice(h.stdout.indexOf('Plumbing'), h.stdout.indexOf('Options:'));
    expect([...plumbing.matchAll(/^ {2}git handoff (\S+)/gm)].map((m) => m[1])).toEqual(['guard', 'mcp']);
    const daily = h.stdout.slice(h.stdout.indexOf('Every day:'), h.stdout.indexOf('\n\n', h.stdout.indexOf('Every day:')));
    for (const c of ['write', 'show', 'list', 'log', 'boot']) expect(daily).toMatch(new RegExp(`^ {2}git handoff ${c}\\b`, 'm'));
    const names = [...h.stdout.matchAll(/^ {2}git handoff (\S+)/gm)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    expect(h.stdout).not.toContain('Other:');
    // `git handoff` alone: the same grouped usage, on stderr, exit 2
    const bare = await cli(repo, []);
    expect([bare.exitCode, bare.stderr.includes('Every day:')]).toEqual([2, true]);
  });

  it('a missing topic says what is missing and the usage; an extra word and an unknown option are told apart', async () => {
    const repo = makeRepo({ commit: true });
    const log = await cli(repo, ['log']);
    expect(log.exitCode).toBe(2);
    expect(log.stderr).not.toContain('Not enough non-option arguments');
    expect(log.stderr).toContain('git handoff log needs <topic>');
    expect(log.stderr).toContain('usage: git handoff log <topic> [options]');
    const extra = await cli(repo, ['show', 'auth-refactor', 'other-topic']);
    expect(extra.exitCode).toBe(2);
    expect(extra.stderr).toContain('takes no argument "other-topic"');
    expect(extra.stderr).not.toContain('Unknown argument');
    const opt = await cli(repo, ['list', '--sesion', 'x']);
    expect(opt.stderr).toContain('has no option --sesion');
    expect(opt.stderr).toContain('did you mean --session?');
    const both = await cli(repo, ['list', '--all', '--branch', 'main']);
    expect(both.stderr).toContain('--all and --branch cannot be given together');
  });

  it('diff <topic> ~5 past the first version blames the argument given, not --at', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'one'])).exitCode).toBe(0);
    const r = await cli(repo, ['diff', 'auth-refactor', '~5']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('--at');
    expect(r.stderr).toContain('<from> ~5: no such version');
    expect((await cli(repo, ['show', 'auth-refactor', '--at', '~5'])).stderr).toContain('--at ~5: no such version');
  });

  it('the man page: no yargs annotations, --version once, each command once, ENVIRONMENT from the code, exit 4 says diverged', async () => {
    const { ENVIRONMENT } = await import('../../src/environment');
    const { ROOT } = await import('../helpers/repo');
    const man = readFileSync(path.join(ROOT, 'man', 'man1', 'git-handoff.1'), 'utf8').replace(/\\-/g, '-');
    expect(man).not.toMatch(/\[(boolean|string|array)\]/);
    expect(man.match(/--version/g)).toHaveLength(1);
    expect(man.match(/^git handoff write <topic>$/gm)).toHaveLength(1);
    expect(man.match(/^ {2}git handoff write <topic>/gm)).toBeNull();
    const env = man.slice(man.indexOf('.SH ENVIRONMENT'), man.indexOf('.SH FILES'));
    for (const v of ['GIT_HANDOFF_SESSION', 'GIT_HANDOFF_ROLE', 'GIT_HANDOFF_CLIENT', 'NO_COLOR', 'COPILOT_AGENT_SESSION_ID', 'QWEN_CODE_SESSION_ID', 'OPENCODE_SESSION_ID']) expect(env).toContain(`.B ${v}\n`);
    expect(env.match(/^\.B /gm)).toHaveLength(ENVIRONMENT.length);
    const four = man.slice(man.indexOf('.B 4\n'), man.indexOf('.B 5\n'));
    expect(four).toContain('diverged');
  });

  it('where man is not installed, `git handoff --help` fails in git, and the usage says to use -h, which works', async () => {
    const { symlinkSync } = await import('node:fs');
    const { ROOT, tempDir } = await import('../helpers/repo');
    const repo = makeRepo();
    const bin = tempDir('gh-noman-');
    for (const tool of ['git', 'node', 'sh', 'dirname', 'readlink', 'uname']) {
      const where = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (where) symlinkSync(where, path.join(bin, tool));
    }
    const env = { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${bin}`, MANPATH: undefined };
    const man = await execa('git', ['handoff', '--help'], { cwd: repo.dir, env, extendEnv: false, reject: false });
    expect(man.exitCode).not.toBe(0);
    const h = await execa('git', ['handoff', '-h'], { cwd: repo.dir, env, extendEnv: false, reject: false });
    expect(h.exitCode, h.stderr).toBe(0);
    expect(String(h.stdout).replace(/\s+/g, ' ')).toContain('where man is not installed, git cannot: use -h');
  });
});
