// Claude Code's wiring reads the sh front into its own sh (src/clients/wiring.ts, shPayloadCommand). A repository's
// settings are shared by clones whose git-handoff may be older than the wiring: an older front, read in, would hand
// over with the client's sh as its $0, find no node (127) and the client would run the call. The wiring reads the
// front through a name only fronts that know it have (bin/git-handoff-front), so an older installation gets the
// front run as a program, as its own wiring did. Real fronts (this one and the one from before the change, from
// git's history), real sh.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYLOAD_MAX_CHARS, shPayloadCommand } from '../../src/clients/wiring';
import { makeRepo, ROOT, tempDir, type TestRepo } from '../helpers/repo';

/** The sh front of the build before Claude Code's wiring read it in (7dff5f3), from this repository's history. */
const OLD_FRONT = '7dff5f3';

describe('Claude Code’s wiring with the front another installation has', () => {
  it('an older front on PATH is run as a program, and refuses what it refuses; this one is read in and does the same', () => {
    const old = spawnSync('git', ['show', `${OLD_FRONT}:bin/git-handoff-guard`], { cwd: ROOT, encoding: 'utf8' });
    expect(old.status, `git show ${OLD_FRONT}:bin/git-handoff-guard (the test needs this repository's history): ${old.stderr}`).toBe(0);
    const install = tempDir('gh-old-install-');
    mkdirSync(path.join(install, 'bin'));
    writeFileSync(path.join(install, 'bin', 'git-handoff-guard'), old.stdout);
    chmodSync(path.join(install, 'bin', 'git-handoff-guard'), 0o755);
    symlinkSync(path.join(ROOT, 'dist'), path.join(install, 'dist'));
    const repo = makeRepo({ commit: true });
    const payload = JSON.stringify({ session_id: 'sess-compat', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git update-ref refs/handoffs/main/auth HEAD' } });
    const wiring = shPayloadCommand('git-handoff-guard --client=claude-code');
    const run = (bin: string) => spawnSync('/bin/sh', ['-c', wiring], { cwd: repo.dir, env: { ...repo.env, PATH: `${bin}:${process.env.PATH}` }, input: payload, encoding: 'utf8' });
    for (const bin of [path.join(install, 'bin'), path.join(ROOT, 'bin')]) {
      const r = run(bin);
      expect(r.status, `${bin}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, bin).toBe('deny');
    }
  });
});

describe('Claude Code’s wiring hands a call to node from its own sh', () => {
  /**
   * An installation whose git-handoff-guard on PATH leaves a mark when it runs as a program and reads the real front
   * in otherwise: a call handed to node through the front run as itself marks it, one handed over directly does not.
   */
  function spiedInstall() {
    const install = tempDir('gh-direct-install-');
    mkdirSync(path.join(install, 'bin'));
    const mark = path.join(install, 'ran-as-program');
    const real = path.join(ROOT, 'bin', 'git-handoff-guard');
    writeFileSync(path.join(install, 'bin', 'git-handoff-guard'), `case \${0##*/} in git-handoff-guard) : >> '${mark}'; exec '${real}' "$@" ;; esac\n. '${real}'\n`);
    chmodSync(path.join(install, 'bin', 'git-handoff-guard'), 0o755);
    writeFileSync(path.join(install, 'bin', 'git-handoff-front'), readFileSync(path.join(ROOT, 'bin', 'git-handoff-front')));
    symlinkSync(path.join(ROOT, 'dist'), path.join(install, 'dist'));
    return { bin: path.join(install, 'bin'), mark };
  }
  const wiring = shPayloadCommand('git-handoff-guard --client=claude-code');
  const call = (repo: TestRepo, env: NodeJS.ProcessEnv, input: string, command = wiring) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const c = spawn('/bin/sh', ['-c', command], { cwd: repo.dir, env });
      let stdout = '';
      let stderr = '';
      c.stdout.on('data', (d) => (stdout += d));
      c.stderr.on('data', (d) => (stderr += d));
      c.on('close', (status) => resolve({ status, stdout, stderr }));
      c.stdin.end(input);
    });

  it('without an answerer to ask, straight to node (no second run of the front), with the answer and the start mark node gives; with one, through the front run as itself', async () => {
    const { bin, mark } = spiedInstall();
    const repo = makeRepo({ commit: true });
    const cache = tempDir('gh-direct-cache-');
    const p = (command: string) => JSON.stringify({ session_id: 'sess-direct', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const texts = [p('git update-ref refs/handoffs/main/auth HEAD'), p("python3 -c 'print(1)'"), `${p('git update-ref -d refs/handoffs/main/auth')}\n\n`, p(`echo ${'x'.repeat(PAYLOAD_MAX_CHARS)} | git update-ref --stdin`)];
    const env: NodeJS.ProcessEnv = { ...repo.env, PATH: `${bin}:${process.env.PATH}`, XDG_CACHE_HOME: cache };
    const plain = async (text: string, e: NodeJS.ProcessEnv) => (await call(repo, e, text, `'${path.join(ROOT, 'bin', 'git-handoff-guard')}' --client=claude-code`)).stdout;
    // off: node's answer, the front never run as a program
    for (const text of texts) {
      const off = { ...env, GIT_HANDOFF_ANSWERER: '0' };
      const r = await call(repo, off, text);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(await plain(text, off));
      expect(existsSync(mark), text.slice(0, 80)).toBe(false);
    }
    expect(JSON.parse((await call(repo, { ...env, GIT_HANDOFF_ANSWERER: '0' }, texts[0])).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    // on, no answerer yet: straight to node, which is told it found none and marks its start of one (a folder others
    // can enter: the answerer it starts refuses to run there, so none is left behind)
    const on: NodeJS.ProcessEnv = { ...env };
    delete on.GIT_HANDOFF_ANSWERER;
    mkdirSync(path.join(cache, 'git-handoff'), { recursive: true });
    chmodSync(path.join(cache, 'git-handoff'), 0o755);
    const r = await call(repo, on, texts[0]);
    expect(r.stdout).toBe(await plain(texts[0], { ...on, GIT_HANDOFF_ANSWERER: '0' }));
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(path.join(cache, 'git-handoff', 'answer.start'))).toBe(true);
    // a socket there (one that answers nothing): the front runs as itself to ask it, then node answers
    rmSync(path.join(cache, 'git-handoff', 'answer.start'));
    chmodSync(path.join(cache, 'git-handoff'), 0o700);
    const server = net.createServer((c) => c.destroy());
    await new Promise<void>((resolve) => server.listen(path.join(cache, 'git-handoff', 'answer.sock'), resolve));
    try {
      const asked = await call(repo, { ...on, GIT_HANDOFF_ANSWERER: '1' }, texts[0]);
      expect(asked.stdout).toBe(r.stdout);
      expect(existsSync(mark)).toBe(true);
    } finally {
      server.close();
    }
  }, 60_000);
});
