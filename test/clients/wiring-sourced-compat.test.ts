// Claude Code's wiring reads the sh front into its own sh (src/clients/wiring.ts, shPayloadCommand). A repository's
// settings are shared by clones whose git-handoff may be older than the wiring: an older front, read in, would hand
// over with the client's sh as its $0, find no node (127) and the client would run the call. The wiring reads the
// front through a name only fronts that know it have (bin/git-handoff-front), so an older installation gets the
// front run as a program, as its own wiring did. Real fronts (this one and the one from before the change, from
// git's history), real sh.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYLOAD_MAX_CHARS, shPayloadCommand } from '../../src/clients/wiring';
import { makeRepo, ROOT, tempDir, type TestRepo } from '../helpers/repo';

/** The sh front of the build before Claude Code's wiring read it in (7dff5f3), from this repository's history. */
const OLD_FRONT = '7dff5f3';
/** The build whose sourced front handed every call to node through the front run as itself (its full() execs the front). */
const BEFORE_DIRECT = '5841ad7';

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

  it('straight to node (no second run of the front), with the answer node gives', async () => {
    const { bin, mark } = spiedInstall();
    const repo = makeRepo({ commit: true });
    const p = (command: string) => JSON.stringify({ session_id: 'sess-direct', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const texts = [p('git update-ref refs/handoffs/main/auth HEAD'), p("python3 -c 'print(1)'"), `${p('git update-ref -d refs/handoffs/main/auth')}\n\n`, p(`echo ${'x'.repeat(PAYLOAD_MAX_CHARS)} | git update-ref --stdin`)];
    const env: NodeJS.ProcessEnv = { ...repo.env, PATH: `${bin}:${process.env.PATH}` };
    const plain = async (text: string) => (await call(repo, env, text, `'${path.join(ROOT, 'bin', 'git-handoff-guard')}' --client=claude-code`)).stdout;
    for (const text of texts) {
      const r = await call(repo, env, text);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(await plain(text));
      expect(existsSync(mark), text.slice(0, 80)).toBe(false);
    }
    expect(JSON.parse((await call(repo, env, texts[0])).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  }, 60_000);

  it('node gets what the front run as itself gave it: the same arguments, payload bytes, environment and process (its parent the client), and answers the same', async () => {
    const before = spawnSync('git', ['show', `${BEFORE_DIRECT}:bin/git-handoff-guard`], { cwd: ROOT, encoding: 'utf8' });
    expect(before.status, `git show ${BEFORE_DIRECT}:bin/git-handoff-guard (the test needs this repository's history): ${before.stderr}`).toBe(0);
    // one installation for both fronts (the same bin, so the same dist path in node's arguments): git-handoff-guard
    // marks a run as a program, then runs the front in bin/front; a `node` ahead on PATH keeps what it was given and
    // the process it runs in, then runs the real node on it
    const install = tempDir('gh-direct-same-');
    const bin = path.join(install, 'bin');
    const seen = path.join(install, 'seen');
    mkdirSync(bin);
    mkdirSync(path.join(install, 'node'));
    mkdirSync(seen);
    const mark = path.join(install, 'ran-as-program');
    writeFileSync(path.join(bin, 'git-handoff-guard'), `case \${0##*/} in git-handoff-guard) : >> '${mark}'; exec "\${0%/*}/front" "$@" ;; esac\n. '${bin}/front'\n`);
    chmodSync(path.join(bin, 'git-handoff-guard'), 0o755);
    writeFileSync(path.join(bin, 'git-handoff-front'), readFileSync(path.join(ROOT, 'bin', 'git-handoff-front')));
    symlinkSync(path.join(ROOT, 'dist'), path.join(install, 'dist'));
    writeFileSync(
      path.join(install, 'node', 'node'),
      `#!/bin/sh\nprintf '%s\\0' "$@" > '${seen}/argv'\ncat > '${seen}/in'\nenv | LC_ALL=C sort > '${seen}/env'\necho "$$ $PPID" > '${seen}/pid'\nexec '${process.execPath}' "$@" < '${seen}/in'\n`,
    );
    chmodSync(path.join(install, 'node', 'node'), 0o755);
    const repo = makeRepo({ commit: true });
    const p = (command: string) => JSON.stringify({ session_id: 'sess-same', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const texts = [p('git update-ref refs/handoffs/main/auth HEAD'), p("python3 -c 'print(1)'"), `${p('git update-ref -d refs/handoffs/main/auth')}\n\n`, p(`echo ${'x'.repeat(PAYLOAD_MAX_CHARS)} | git update-ref --stdin`)];
    // the front before BEFORE_DIRECT asked a resident answerer unless GIT_HANDOFF_ANSWERER=0; this one knows none
    const env: NodeJS.ProcessEnv = { ...repo.env, PATH: `${path.join(install, 'node')}:${bin}:${process.env.PATH}`, NODE_EXTRA_CA_CERTS: path.join(install, 'no-such-ca.pem'), GIT_HANDOFF_ANSWERER: '0' };
    /** One call through the wiring with the front `front`: node's view of it, node's answer, and whether the front ran as a program. */
    const through = async (front: string, env: NodeJS.ProcessEnv, text: string) => {
      writeFileSync(path.join(bin, 'front'), front);
      chmodSync(path.join(bin, 'front'), 0o755);
      rmSync(mark, { force: true });
      const c = spawn('/bin/sh', ['-c', wiring], { cwd: repo.dir, env });
      let stdout = '';
      let stderr = '';
      c.stdout.on('data', (d) => (stdout += d));
      c.stderr.on('data', (d) => (stderr += d));
      c.stdin.end(text);
      const status = await new Promise<number | null>((resolve) => c.on('close', resolve));
      // the process node runs in: the one the client started (its parent the client), or a child of it (a pipe's)
      const [pid, ppid] = readFileSync(path.join(seen, 'pid'), 'utf8').trim().split(' ').map(Number);
      const process_ = pid === c.pid && ppid === process.pid ? 'the client’s sh' : ppid === c.pid ? 'a child of the client’s sh' : `${pid} ${ppid}`;
      const node = { argv: readFileSync(path.join(seen, 'argv'), 'utf8'), stdin: readFileSync(path.join(seen, 'in')), env: readFileSync(path.join(seen, 'env'), 'utf8') };
      rmSync(path.join(seen, 'pid'));
      return { node, process: process_, answer: { status, stdout, stderr }, asProgram: existsSync(mark) };
    };
    for (const text of texts) {
      const what = text.slice(0, 140);
      const old = await through(before.stdout, env, text);
      const now = await through(readFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), 'utf8'), env, text);
      expect(old.asProgram, `${what}: the front before ${BEFORE_DIRECT} hands over through the front run as itself`).toBe(true);
      expect(now.asProgram, `${what}: the front run as a program`).toBe(false);
      // node's process: the client's sh; a payload of PAYLOAD_MAX_CHARS or more was piped to the front run as itself
      // before, so node ran in the pipe's child of that sh (its grandparent the client), and now runs in the client's sh
      const piped = text.length >= PAYLOAD_MAX_CHARS;
      expect(old.process, what).toBe(piped ? 'a child of the client’s sh' : 'the client’s sh');
      expect(now.process, what).toBe('the client’s sh');
      // the same arguments
      expect(now.node.argv, what).toBe(old.node.argv);
      expect(now.node.stdin.equals(old.node.stdin), what).toBe(true);
      expect(now.node.stdin.toString('utf8'), what).toBe(`${text.replace(/\n+$/, '')}\n`);
      expect(now.node.env, what).toBe(old.node.env);
      expect(now.node.env, what).toMatch(/^NODE_EXTRA_CA_CERTS=$/m);
      expect(now.node.env, what).not.toMatch(/^GIT_HANDOFF_PAYLOAD=/m);
      expect(now.answer, what).toEqual(old.answer);
      if (text === texts[1]) expect(now.answer, `${what}: allowed`).toEqual({ status: 0, stdout: '', stderr: '' });
    }
    const refused = await through(readFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), 'utf8'), env, texts[0]);
    expect(JSON.parse(refused.answer.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  }, 120_000);
});
