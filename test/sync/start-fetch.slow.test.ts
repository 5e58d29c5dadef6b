// Session start knows the remote: handoffs only in remote-tracking refs show in boot, list and the startup view;
// session start fetches the branch's handoffs within a hard limit, and says so when the remote was not reached
// (one that hangs, one that asks for a password), without waiting past the limit.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guard, ME, OTHER, payload } from '../guard/helpers';
import { makeWorld, ok } from './world';

const ctxOf = (r: Awaited<ReturnType<typeof guard>>): string => r.answer?.hookSpecificOutput?.additionalContext ?? '';

/** A fake ssh that records its pid and arguments, then hangs (or, in batch mode with `prompts`, fails as ssh would). */
function fakeSsh(dir: string, prompts: boolean): { cmd: string; pidFile: string; argsFile: string } {
  const file = path.join(dir, prompts ? 'ssh-password' : 'ssh-hang');
  const pidFile = `${file}.pid`;
  const argsFile = `${file}.args`;
  writeFileSync(
    file,
    `#!/bin/sh\necho $$ > '${pidFile}'\necho "$@" > '${argsFile}'\n` +
      (prompts ? `case "$*" in *BatchMode=yes*) echo 'Permission denied (publickey,password).' >&2; exit 255 ;; esac\n` : '') +
      // a password prompt that nobody answers, or a host that never answers: either way it waits
      `exec sleep 60\n`,
  );
  chmodSync(file, 0o755);
  return { cmd: file, pidFile, argsFile };
}

/** Whether a process runs (a killed one no parent has reaped yet, a zombie, does not). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('remote-only handoffs (no network)', () => {
  it('a handoff only in the tracking refs shows in boot, list, list --all and the startup view, with the command that brings it', async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', '# Goal\nfix the login\n# Next action\nrun the tests'], 0, { GIT_HANDOFF_SESSION: OTHER });
    await ok(a, ['push']);
    // a plain git fetch with the handoff refspecs (what install --remote adds), and no `git handoff fetch`
    b.git(['fetch', 'origin', '+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*']);
    expect(b.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    const boot = await ok(b, ['boot', '--session', ME]);
    expect(boot.stdout).toContain('auth-refactor');
    expect(boot.stdout).toContain('remote-only');
    expect(boot.stdout).toContain('git handoff fetch origin brings it');
    expect(boot.stdout).toContain('fix the login');
    const list = await ok(b, ['list']);
    expect(list.stdout).toMatch(/main\s+auth-refactor\s+\S+\s+.*remote-only/);
    expect(list.stdout).toContain('git handoff fetch origin brings them');
    const all = await ok(b, ['list', '--all', '--json']);
    expect(JSON.parse(String(all.stdout))).toMatchObject([{ topic: 'auth-refactor', sync: 'remote-only', remote: 'origin', fetch: 'git handoff fetch origin' }]);
    // the startup view, with the network step off: the same, marked
    b.git(['config', 'handoff.fetchOnStart', 'false']);
    const ctx = ctxOf(await guard(b, payload(b, 'claude-code/session-start.json')));
    expect(ctx).toContain('1 only on the remote (git handoff fetch origin brings it)');
    expect(ctx).toContain('on origin only, not in this clone yet');
    expect(b.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    // once fetched it is an ordinary local handoff
    await ok(b, ['fetch']);
    const after = await ok(b, ['list', '--json']);
    expect(JSON.parse(String(after.stdout))).toMatchObject([{ topic: 'auth-refactor', sync: 'synced' }]);
  });
});

describe('session start fetches', () => {
  it("clone B's first session sees A's handoff without a fetch by hand, and only this branch's are taken in", async () => {
    const { a, b } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', '# Goal\nfix the login', '--to', `session:${ME}`], 0, { GIT_HANDOFF_SESSION: OTHER });
    await ok(a, ['write', 'elsewhere-note', '-m', 'other branch', '--branch', 'feature'], 0, { GIT_HANDOFF_SESSION: OTHER });
    await ok(a, ['push']);
    const r = await guard(b, payload(b, 'claude-code/session-start.json'));
    const ctx = ctxOf(r);
    expect(ctx).toContain('fetched from origin at session start (new: auth-refactor)');
    expect(ctx).toContain('addressed to you, unread');
    expect(ctx).toContain('fix the login');
    expect(b.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/']).stdout.trim()).toBe('refs/handoffs/main/auth-refactor');
    // the next session start has nothing new to say about the network
    const again = ctxOf(await guard(b, payload(b, 'claude-code/session-start.json', {}, 'third-session-cccc')));
    expect(again).not.toContain('fetched from origin');
    expect(again).toContain('auth-refactor');
  });

  it('handoff.fetchOnStart false: no network at all', async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'x'], 0, { GIT_HANDOFF_SESSION: OTHER });
    await ok(a, ['push']);
    b.git(['config', 'handoff.fetchOnStart', 'false']);
    const ctx = ctxOf(await guard(b, payload(b, 'claude-code/session-start.json')));
    expect(ctx).toContain('no handoffs on branch main');
    expect(b.git(['for-each-ref', 'refs/remotes/', 'refs/handoff-remotes/']).stdout).toBe('');
  });

  it('a remote that never answers: git is killed at the limit, the session starts and is told the remote was not reached', async () => {
    const { b } = await makeWorld('file');
    const ssh = fakeSsh(path.dirname(b.dir), false);
    b.git(['remote', 'set-url', 'origin', 'ssh://git@unreachable.invalid/repo.git']);
    b.git(['config', 'core.sshCommand', ssh.cmd]);
    const r = await guard(b, payload(b, 'claude-code/session-start.json'));
    const ctx = ctxOf(r);
    expect(ctx).toContain('the remote origin was not reached at session start (no answer within 2 s)');
    expect(ctx).toContain('git handoff fetch origin');
    expect(ctx).toContain('no handoffs on branch main');
    // the ssh it started ran in batch mode and is gone now: nothing is left waiting
    expect(readFileSync(ssh.argsFile, 'utf8')).toContain('BatchMode=yes');
    expect(alive(Number(readFileSync(ssh.pidFile, 'utf8')))).toBe(false);
  }, 30_000);

  it('an ssh remote that asks for a password: batch mode makes ssh give up, and the session is told why', async () => {
    const { b } = await makeWorld('file');
    const ssh = fakeSsh(path.dirname(b.dir), true);
    b.git(['remote', 'set-url', 'origin', 'ssh://git@needs-password.invalid/repo.git']);
    const r = await guard(b, payload(b, 'claude-code/session-start.json'), { GIT_SSH_COMMAND: ssh.cmd });
    expect(ctxOf(r)).toContain('the remote origin was not reached at session start (it asks for credentials)');
    expect(existsSync(ssh.pidFile)).toBe(true);
  }, 30_000);

  it('an HTTP remote that asks for a password: no prompt (a set GIT_ASKPASS is not run), the session is told why', async () => {
    const { b } = await makeWorld('file');
    let asked = 0;
    const server = http.createServer((_req, res) => {
      asked++;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      b.git(['remote', 'set-url', 'origin', `http://127.0.0.1:${port}/repo.git`]);
      // an askpass that would answer (and leave a trace): it must not be asked
      const askpass = path.join(path.dirname(b.dir), 'askpass');
      writeFileSync(askpass, `#!/bin/sh\ntouch '${askpass}.ran'\necho secret\n`);
      chmodSync(askpass, 0o755);
      const r = await guard(b, payload(b, 'claude-code/session-start.json'), { GIT_ASKPASS: askpass });
      expect(ctxOf(r)).toContain('the remote origin was not reached at session start (it asks for credentials)');
      expect(asked).toBeGreaterThan(0);
      expect(existsSync(`${askpass}.ran`)).toBe(false);
    } finally {
      server.close();
    }
  }, 30_000);
});
