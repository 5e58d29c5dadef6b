// Issue 40 (items 9–11, 13, 14): what a new user sees from the built CLI — Cursor's file on stdout, git's colour
// switches, -q on every command, usage errors in sentences, resolve hints that run when pasted.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, type TestRepo } from '../helpers/repo';

const ESC = '\x1b[';

/** The CLI's exit code and output as text. */
async function cli(repo: TestRepo, args: string[]): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const r = await repo.cli(args);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`), its output as the terminal shows it. */
function onTerminal(repo: TestRepo, args: string[], env: Record<string, string | undefined> = {}): string {
  const cmd = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const e = { ...repo.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete e[k];
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: repo.dir, env: e, encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  return r.stdout.replace(/\r/g, '');
}

describe('install --agent cursor (item 9)', () => {
  it('writes .cursor/hooks.json itself; `> .cursor/hooks.json` (the old advice) leaves it whole, the report on stderr, exit 0', async () => {
    const repo = makeRepo({ commit: true });
    mkdirSync(path.join(repo.dir, '.cursor'));
    const r = await execa('sh', ['-c', `'${BIN}' install --agent cursor > .cursor/hooks.json`], { cwd: repo.dir, env: repo.env, extendEnv: false, reject: false, encoding: 'utf8' });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = JSON.parse(readFileSync(path.join(repo.dir, '.cursor', 'hooks.json'), 'utf8'));
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks)).toContain('preToolUse');
    for (const entries of Object.values(file.hooks) as Array<Array<{ command: string }>>) for (const e of entries) expect(e.command).toBe('git-handoff guard --client=cursor');
    expect(r.stderr).toContain('standard output is .cursor/hooks.json, which install writes');
    expect(r.stderr).toContain('.cursor/hooks.json: wired');
    // the agent wiring brings the git hooks, as for every client
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'reference-transaction'))).toBe(true);
  });

  it('with another client, both are wired; --json lists the actions; uninstall takes the file it made', async () => {
    const repo = makeRepo({ commit: true });
    const r = await cli(repo, ['install', '--agent', 'claude,cursor']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo.dir, '.cursor', 'hooks.json'), 'utf8')).hooks.stop).toEqual([{ command: 'git-handoff guard --client=cursor', timeout: 30 }]);
    expect(existsSync(path.join(repo.dir, '.claude', 'settings.json'))).toBe(true);
    expect(r.stdout).toContain('.claude/settings.json');
    const j = JSON.parse((await cli(repo, ['install', '--agent', 'cursor', '--json'])).stdout);
    expect(j.actions).toContain('.cursor/hooks.json: already wired (cursor)');
    const u = await cli(repo, ['uninstall', '--agent', 'cursor']);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain('.cursor/hooks.json: deleted (install created it)');
    expect(existsSync(path.join(repo.dir, '.cursor', 'hooks.json'))).toBe(false);
  });
});

describe('colour switches (item 10)', () => {
  it('--color=always paints into a pipe, --no-color and --color=never do not on a terminal, NO_COLOR is respected by auto', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'x'])).exitCode).toBe(0);
    const always = await cli(repo, ['--color=always', 'list']);
    expect(always.exitCode, always.stderr).toBe(0);
    expect(always.stdout).toContain(ESC);
    expect((await cli(repo, ['list', '--color'])).stdout).toContain(ESC);
    // on a terminal, without NO_COLOR, auto paints; the switches turn it off wherever they stand
    expect(onTerminal(repo, ['list'], { NO_COLOR: undefined })).toContain(ESC);
    expect(onTerminal(repo, ['list', '--no-color'], { NO_COLOR: undefined })).not.toContain(ESC);
    expect(onTerminal(repo, ['--color=never', 'list'], { NO_COLOR: undefined })).not.toContain(ESC);
    expect(onTerminal(repo, ['list', '--color=auto'], { NO_COLOR: '1' })).not.toContain(ESC);
    // the last switch wins, as in git
    expect(onTerminal(repo, ['list', '--no-color', '--color=always'], { NO_COLOR: '1' })).toContain(ESC);
    // into a pipe, auto and --no-color print the same plain table
    const plain = await cli(repo, ['list', '--no-color']);
    expect([plain.exitCode, plain.stdout]).toEqual([0, (await cli(repo, ['list'])).stdout]);
    const bad = await cli(repo, ['list', '--color=sometimes']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--color takes always, never or auto');
    // after `--`, --no-color is an argument, not a switch
    expect((await cli(repo, ['show', '--', '--no-color'])).stderr).toContain('after `--`');
  });
});

describe('-q / --quiet (item 11)', () => {
  it('list, show, log, boot, diff print nothing with -q; errors still do and the exit code says what happened', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x'])).exitCode).toBe(0);
    for (const [quiet, ...args] of [['-q', 'list'], ['-q', 'show', 'auth-refactor', '--no-receipt'], ['-q', 'log', 'auth-refactor'], ['-q', 'boot'], ['-q', 'diff', 'auth-refactor'], ['--quiet', 'list', '--all']]) {
      const loud = await cli(repo, args);
      expect(loud.stdout.length, args.join(' ')).toBeGreaterThan(0);
      const r = await cli(repo, [...args, quiet]);
      expect([args.join(' '), r.stdout], r.stderr).toEqual([args.join(' '), '']);
      expect(r.exitCode).toBe(loud.exitCode);
    }
    const missing = await cli(repo, ['show', 'no-such-topic', '-q']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no-such-topic');
    // --json is data asked for: -q does not drop it
    expect(JSON.parse((await cli(repo, ['list', '-q', '--json'])).stdout)).toHaveLength(1);
  });
});

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
    expect([...plumbing.matchAll(/^ {2}git handoff (\S+)/gm)].map((m) => m[1])).toEqual(['guard']);
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

describe('a newcomer\'s setup (item 14)', () => {
  it('the resolve step sync prints runs as pasted at a terminal with no session id, and the next sync is clean', async () => {
    const { makeWorld } = await import('../sync/world');
    const { a, b } = await makeWorld('file');
    expect((await cli(a, ['write', 'login-redirect-loop', '-m', 'A', '--session', 'sess-a'])).exitCode).toBe(0);
    expect((await cli(b, ['write', 'login-redirect-loop', '-m', 'B', '--session', 'sess-b'])).exitCode).toBe(0);
    expect((await cli(a, ['sync'])).exitCode).toBe(0);
    const s = await cli(b, ['sync']);
    expect(s.exitCode).toBe(4);
    const steps = [...s.stderr.matchAll(/`(git handoff sync --resolve [^`]+)`/g)].map((m) => m[1]);
    expect(steps).toEqual(['git handoff sync --resolve login-redirect-loop --keep both --session sess-b']);
    // fetch's line and show's line name the same step, with the branch
    expect(s.stdout).toContain('`git handoff sync --resolve login-redirect-loop --branch main --keep both --session sess-b`');
    expect((await cli(b, ['show', 'login-redirect-loop', '--no-receipt'])).stdout).toContain('resolve: git handoff sync --resolve login-redirect-loop --branch main --keep both --session sess-b');
    const { ROOT } = await import('../helpers/repo');
    const pasted = await execa('sh', ['-c', steps[0]], { cwd: b.dir, env: { ...b.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` }, extendEnv: false, reject: false });
    expect(pasted.exitCode, String(pasted.stderr)).toBe(0);
    expect((await cli(b, ['sync'])).exitCode).toBe(0);
  });

  it('doctor where the repository is wired: the plugin and the extension are not "missing", and no format-1 paragraph', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['install', '--agent', 'claude,gemini'])).exitCode).toBe(0);
    const items = JSON.parse((await cli(repo, ['doctor', '--json'])).stdout).items as Array<{ component: string; status: string; detail: string }>;
    for (const c of ['plugin claude', 'extension gemini']) expect(items.find((i) => i.component === c), c).toMatchObject({ status: 'info', detail: expect.stringContaining('not needed here') });
    const text = (await cli(repo, ['doctor'])).stdout;
    expect(text).not.toMatch(/missing/);
    expect(text).not.toContain('format-1');
    // with nothing wired, the plugin is still what is missing
    const bare = makeRepo({ commit: true });
    const none = JSON.parse((await cli(bare, ['doctor', '--json'])).stdout).items as Array<{ component: string; status: string }>;
    expect(none.find((i) => i.component === 'plugin claude')?.status).toBe('missing');
  });
});
