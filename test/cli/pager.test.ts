// Help and paging as git users expect (issue 27): `git handoff --help` finds the man page after the README's PATH
// install (man looks in <dir>/../man for each <dir>/bin on PATH), `git handoff help` prints the usage, and show/log
// page through git's pager only on a terminal (`script` gives the command one), never with --no-pager/-P or --json.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, ROOT, type TestRepo } from '../helpers/repo';

/** Runs the CLI on a pseudo-terminal (util-linux `script`), its output as the terminal shows it. */
function onTerminal(repo: TestRepo, args: string[], env: Record<string, string> = {}): string {
  const cmd = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: repo.dir, env: { ...repo.env, ...env }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.replace(/\r/g, '');
}

describe('help', () => {
  it('git handoff --help opens the man page with bin/ on PATH and nothing else; help and -h print the usage', async () => {
    const repo = makeRepo({ commit: true });
    const env: NodeJS.ProcessEnv = { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' };
    delete env.MANPATH;
    const man = await execa('git', ['handoff', '--help'], { cwd: repo.dir, env, extendEnv: false, reject: false });
    expect(man.exitCode, man.stderr).toBe(0);
    expect(man.stdout).toMatch(/git-handoff\s+-\s+handoff\s+notes\s+between/);
    const help = await execa('git', ['handoff', 'help'], { cwd: repo.dir, env, extendEnv: false });
    expect(help.stdout).toMatch(/git handoff write <topic>/);
    const helpWrite = await execa('git', ['handoff', 'help', 'write'], { cwd: repo.dir, env, extendEnv: false });
    expect(helpWrite.stdout).toMatch(/^git handoff write <topic>/);
    expect(helpWrite.stdout).toContain('--take-over');
  });
});

describe('pager', () => {
  it('show and log page on a terminal through GIT_PAGER, core.pager or PAGER; not with --no-pager, -P, --json or into a pipe', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: page me'])).exitCode).toBe(0);
    const mark = (tag: string) => `sed "s/^/${tag}:/"`;
    expect(onTerminal(repo, ['log', 'auth-refactor'], { GIT_PAGER: mark('GP') })).toMatch(/^GP:[0-9a-f]{12} {2}s1/m);
    expect(onTerminal(repo, ['show', 'auth-refactor', '--no-receipt'], { GIT_PAGER: mark('GP') })).toMatch(/^GP:Goal: page me$/m);
    // git's order: GIT_PAGER, then core.pager, then PAGER
    repo.git(['config', 'core.pager', mark('CORE')]);
    expect(onTerminal(repo, ['log', 'auth-refactor'], { PAGER: mark('P') })).toMatch(/^CORE:[0-9a-f]{12}/m);
    repo.git(['config', '--unset', 'core.pager']);
    expect(onTerminal(repo, ['log', 'auth-refactor'], { PAGER: mark('P') })).toMatch(/^P:[0-9a-f]{12}/m);
    for (const off of [['--no-pager', 'log', 'auth-refactor'], ['-P', 'log', 'auth-refactor'], ['log', 'auth-refactor', '--json']]) {
      const out = onTerminal(repo, off, { GIT_PAGER: mark('GP') });
      expect(out, off.join(' ')).not.toContain('GP:');
      expect(out).toContain('auth-refactor');
    }
    // a pager git already started (`git -p handoff log`), `cat`, and a pipe: no pager of ours
    expect(onTerminal(repo, ['log', 'auth-refactor'], { GIT_PAGER: mark('GP'), GIT_PAGER_IN_USE: 'true' })).not.toContain('GP:');
    expect(onTerminal(repo, ['log', 'auth-refactor'], { GIT_PAGER: 'cat' })).toMatch(/^[0-9a-f]{12}/m);
    const piped = await repo.cli(['log', 'auth-refactor'], { env: { GIT_PAGER: mark('GP') } });
    expect(String(piped.stdout)).toMatch(/^[0-9a-f]{12} {2}s1/);
    // a command that fails before printing starts no pager: the terminal is left as it was
    const cmd = [BIN, 'show', 'no-such-topic'].join(' ');
    const failed = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: repo.dir, env: { ...repo.env, GIT_PAGER: 'echo PAGER-STARTED; cat' }, encoding: 'utf8' });
    expect(failed.stdout).toMatch(/no handoff/);
    expect(failed.stdout).not.toContain('PAGER-STARTED');
    // list is not paged (short, like git branch with pager.branch off)
    expect(onTerminal(repo, ['list'], { GIT_PAGER: mark('GP') })).not.toContain('GP:');
  });
});

describe('the pager gets what the terminal would', () => {
  it('show, log, status and list print no raw escape, paged through a real less -R on a terminal or not', async () => {
    const repo = makeRepo({ commit: true });
    const hostile = 'Goal: \x1b[2J\x1b[H cleared, \x1b]0;pwned\x07 titled, \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\, \u009b31m c1, \x1bP+q\x1b\\ dcs';
    expect((await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', hostile])).exitCode).toBe(0);
    const seen = path.join(repo.dir, '..', 'pager-input');
    // what reaches the pager, kept, then shown by less -R as a person would read it
    const pager = `tee -a '${seen}' | less -R`;
    const own = /\x1b\[(?:0|1|2|31|32|33|36)m/g;
    const raw = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u0080-\u009f]/;
    for (const args of [['show', 'auth-refactor', '--no-receipt'], ['log', 'auth-refactor'], ['status'], ['list']]) {
      const shown = onTerminal(repo, args, { GIT_PAGER: pager, LESS: 'FRX', TERM: 'xterm' });
      if (args[0] === 'status' || args[0] === 'list') expect(shown.replace(own, ''), args[0]).not.toMatch(raw);
      expect(shown, args[0]).not.toContain('pwned\x07');
    }
    const got = readFileSync(seen, 'utf8');
    expect(got).toContain('cleared');
    expect(got).toMatch(/^[0-9a-f]{12} {2}s1/m);
    expect(got.replace(own, '')).not.toMatch(raw);
  });
});
