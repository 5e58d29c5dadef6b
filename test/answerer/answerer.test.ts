// The resident answerer (issue 39; SPEC 6, "The resident answerer"): a call the sh front hands over is answered by
// a running answerer exactly as node answers it, and every way the answerer can fail (killed mid-answer, hung,
// upgraded underneath, two at once, a full disk, another user's socket, another installation) falls back to node's
// answer, never to an allow. Real fronts, real answerers, real processes killed and stopped.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, symlinkSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, ROOT, tempDir, type TestRepo } from '../helpers/repo';

const FRONT = path.join(ROOT, 'bin', 'git-handoff-guard');
const asRoot = process.getuid?.() === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Payloads the front hands to node (each a refusal but the last), in Claude Code's shape. */
const CALLS = (dir: string, session = 'sess-answerer-1') => {
  const p = (tool: string, input: Record<string, unknown>) => JSON.stringify({ session_id: session, cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });
  return {
    refMove: p('Bash', { command: 'git update-ref refs/handoffs/main/auth HEAD' }),
    gitConfig: p('Write', { file_path: path.join(dir, '.git', 'config'), content: '[core]\n\thooksPath = /tmp/x\n' }),
    hook: p('Write', { file_path: path.join(dir, '.git', 'hooks', 'pre-commit'), content: '#!/bin/sh\nexit 0\n' }),
    rmGit: p('Bash', { command: 'rm -rf .git' }),
    python: p('Bash', { command: "python3 -c 'print(1)'" }),
  };
};

interface Call {
  stdout: string;
  status: number | null;
  /** a spare of the answerer answered (its trace line) */
  spare: boolean;
}

/** One call through the real front, as a client starts it (`sh -c`), traced to tell who answered. */
function call(repo: TestRepo, payload: string, env: NodeJS.ProcessEnv = repo.env, front = FRONT): Call {
  const trace = path.join(repo.home, `trace-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync('/bin/sh', ['-c', `exec "${front}" --client=claude-code`], { cwd: repo.dir, env: { ...env, GIT_HANDOFF_TRACE: trace }, input: payload, encoding: 'utf8', timeout: 60_000 });
  const lines = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
  rmSync(trace, { force: true });
  return { stdout: r.stdout, status: r.status, spare: /"phase":"spare"/.test(lines) };
}

const sock = (repo: TestRepo) => path.join(repo.env.XDG_CACHE_HOME!, 'git-handoff', 'answer.sock');

/**
 * The answerer processes of this test's user folder (by their environment), from /proc. A spare being started is,
 * between node's fork and its exec, a child with the answerer's command line and environment: a process whose parent
 * is one of them is not counted (CI once saw one as a second answerer).
 */
function answerers(repo: TestRepo): number[] {
  const found = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('answerer.cjs')) continue;
      if (!readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(`XDG_CACHE_HOME=${repo.env.XDG_CACHE_HOME}`)) continue;
      const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
      found.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* ended meanwhile */
    }
  }
  return [...found].filter(([, parent]) => !found.has(parent)).map(([pid]) => pid);
}
/** The children of a process (its spares), from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d));
    } catch {
      /* ended */
    }
  }
  return out;
}

async function until(what: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

const started: ChildProcess[] = [];
const killAll: number[] = [];
const users: TestRepo[] = [];
afterEach(async () => {
  for (const c of started.splice(0)) c.kill('SIGKILL');
  // answerers the tests' guards started, and their spares, before the folders go
  for (const repo of users.splice(0)) {
    for (const pid of answerers(repo)) {
      for (const s of childrenOf(pid)) killAll.push(s);
      killAll.push(pid);
    }
  }
  for (const pid of killAll.splice(0)) {
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await sleep(100);
});

/** Starts an answerer for the test's user (as a guard would: detached), and waits for it to answer. */
async function startAnswerer(repo: TestRepo, dist = path.join(ROOT, 'dist'), env: NodeJS.ProcessEnv = repo.env): Promise<ChildProcess> {
  mkdirSync(path.dirname(sock(repo)), { recursive: true, mode: 0o700 }); // as a guard that starts one does
  const c = spawn(process.execPath, [path.join(dist, 'answerer.cjs')], { env: { ...env, GIT_HANDOFF_ANSWERER: undefined }, stdio: 'ignore', detached: true, cwd: '/' });
  started.push(c);
  await until(() => existsSync(sock(repo)) && childrenOf(c.pid!).length >= 2);
  return c;
}

/** The front run as a client starts it, not waited for. */
function frontAsync(repo: TestRepo, payload: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve) => {
    const c = spawn('/bin/sh', ['-c', `exec "${FRONT}" --client=claude-code`], { cwd: repo.dir, env });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('close', (code) => resolve({ stdout: out, code }));
    c.stdin.end(payload);
  });
}

/** A running answerer whose spares are stopped (SIGSTOP): a call is taken and not answered; node's answer beside it. */
async function stoppedSpares(which: keyof ReturnType<typeof CALLS>) {
  const { repo, env } = repoWithUser();
  const p = CALLS(repo.dir)[which];
  const byNode = call(repo, p, { ...env, GIT_HANDOFF_ANSWERER: '0' });
  const a = await startAnswerer(repo, undefined, env);
  const spares = childrenOf(a.pid!);
  for (const s of spares) process.kill(s, 'SIGSTOP');
  killAll.push(...spares);
  return { repo, env, p, byNode, a, spares };
}

function repoWithUser(): { repo: TestRepo; env: NodeJS.ProcessEnv } {
  const repo = makeRepo({ commit: true });
  users.push(repo);
  // the suites run with GIT_HANDOFF_ANSWERER=0 (vitest configs); these tests turn it on
  const env = { ...repo.env };
  delete env.GIT_HANDOFF_ANSWERER;
  return { repo, env };
}

describe.skipIf(process.platform !== 'linux')('the resident answerer', () => {
  it('answers every handed-over call as node does, and a guard that found none starts one', async () => {
    const { repo, env } = repoWithUser();
    const calls = CALLS(repo.dir);
    const byNode = Object.fromEntries(Object.entries(calls).map(([k, p]) => [k, call(repo, p, { ...env, GIT_HANDOFF_ANSWERER: '0' })]));
    for (const r of Object.values(byNode)) expect(r.spare).toBe(false);
    expect(byNode.refMove.stdout).toMatch(/"permissionDecision":"deny"/);
    expect(byNode.gitConfig.stdout).toMatch(/"permissionDecision":"deny"/);
    expect(byNode.python.stdout).not.toMatch(/deny/);
    expect(existsSync(sock(repo))).toBe(false); // off: none was started
    // on: the first call finds none, node answers and starts one as it exits
    const first = call(repo, calls.refMove, env);
    expect(first.spare).toBe(false);
    expect(first.stdout).toBe(byNode.refMove.stdout);
    await until(() => existsSync(sock(repo)));
    expect(statSync(path.dirname(sock(repo))).mode & 0o077).toBe(0);
    expect(statSync(sock(repo)).mode & 0o077).toBe(0);
    await sleep(1500); // its spares' node starts
    for (const [k, p] of Object.entries(calls)) {
      const r = call(repo, p, env);
      expect(r.spare, k).toBe(true);
      expect(r.stdout, k).toBe(byNode[k].stdout);
      expect(r.status, k).toBe(0);
    }
    expect(answerers(repo)).toHaveLength(1);
    for (const pid of answerers(repo)) process.kill(pid, 'SIGTERM');
    await until(() => answerers(repo).length === 0 && !existsSync(sock(repo)));
  });

  it('the client process counts from the front’s parent, as node counts it (lineage and lease)', async () => {
    const { repo, env } = repoWithUser();
    await startAnswerer(repo, undefined, env);
    const lineage = (session: string, e: NodeJS.ProcessEnv) => {
      const payload = JSON.stringify({ session_id: session, cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: "python3 -c 'print(1)'" } });
      const trace = path.join(repo.home, `trace-${session}`);
      // the client is the shell that starts the front (CLAUDE_PID=$$), not its ancestor chain's node
      const r = spawnSync('/bin/sh', ['-c', `export CLAUDE_PID=$$; "${FRONT}" --client=claude-code; echo "pid=$$"`], { cwd: repo.dir, env: { ...e, GIT_HANDOFF_TRACE: trace }, input: payload, encoding: 'utf8' });
      const pid = Number(/pid=(\d+)/.exec(r.stdout)![1]);
      const rec = JSON.parse(readFileSync(path.join(repo.dir, '.git', 'handoff', 'lineage', `${session}.json`), 'utf8'));
      return { pid, rec, spare: /"phase":"spare"/.test(readFileSync(trace, 'utf8')) };
    };
    const byNode = lineage('sess-lineage-node', { ...env, GIT_HANDOFF_ANSWERER: '0' });
    expect(byNode.spare).toBe(false);
    expect(byNode.rec.pid).toBe(byNode.pid);
    const bySpare = lineage('sess-lineage-spare', env);
    expect(bySpare.spare).toBe(true);
    expect(bySpare.rec.pid).toBe(bySpare.pid);
  });

  it('with no perl to ask one with, node answers and starts none', async () => {
    const { repo, env } = repoWithUser();
    // every program of the system's PATH but perl
    const bin = tempDir('gh-noperl-');
    for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
      for (const f of existsSync(dir) ? readdirSync(dir) : []) {
        if (/^perl/.test(f) || existsSync(path.join(bin, f))) continue;
        symlinkSync(path.join(dir, f), path.join(bin, f));
      }
    }
    symlinkSync(process.execPath, path.join(bin, 'node-for-test'));
    if (!existsSync(path.join(bin, 'node'))) symlinkSync(process.execPath, path.join(bin, 'node'));
    const noPerl = { ...env, PATH: bin };
    const p = CALLS(repo.dir).refMove;
    const byNode = call(repo, p, { ...noPerl, GIT_HANDOFF_ANSWERER: '0' });
    const r = call(repo, p, noPerl);
    expect(r.stdout).toBe(byNode.stdout);
    expect(r.stdout).toMatch(/deny/);
    await sleep(1500);
    expect(answerers(repo)).toHaveLength(0);
    expect(existsSync(sock(repo))).toBe(false);
  });

  it('doctor says whether one runs, and why none can', async () => {
    const { repo, env } = repoWithUser();
    const row = async (e: NodeJS.ProcessEnv) => {
      const r = await repo.cli(['doctor', '--json'], { env: e as Record<string, string | undefined> });
      return (JSON.parse(String(r.stdout)).items as Array<{ component: string; status: string; detail: string }>).find((i) => i.component === 'answerer')!;
    };
    expect((await row({ ...env, GIT_HANDOFF_ANSWERER: '0' })).detail).toMatch(/^off \(GIT_HANDOFF_ANSWERER=0\)/);
    expect((await row({ ...env, GIT_HANDOFF_ANSWERER: undefined })).detail).toMatch(/^not running now/);
    // a PATH with git and node and no perl
    const bin = tempDir('gh-path-');
    for (const tool of ['git', 'node']) symlinkSync(spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim(), path.join(bin, tool));
    expect((await row({ ...env, GIT_HANDOFF_ANSWERER: undefined, PATH: bin })).detail).toMatch(/perl, which is not on PATH/);
    const a = await startAnswerer(repo, undefined, env);
    const running = await row({ ...env, GIT_HANDOFF_ANSWERER: undefined });
    expect(running.status).toBe('ok');
    expect(running.detail).toContain(`running (pid ${a.pid})`);
  });

  it('stops by itself when idle, and when its folder is gone', async () => {
    const { repo, env } = repoWithUser();
    await startAnswerer(repo, undefined, { ...env, GIT_HANDOFF_ANSWERER_IDLE_MS: '1500' });
    expect(answerers(repo)).toHaveLength(1);
    await until(() => answerers(repo).length === 0, 10_000);
    expect(existsSync(sock(repo))).toBe(false);
    const a = await startAnswerer(repo, undefined, env);
    rmSync(path.dirname(sock(repo)), { recursive: true, force: true });
    await until(() => a.exitCode !== null || answerers(repo).length === 0, 10_000);
    expect(existsSync(path.dirname(sock(repo)))).toBe(false); // it does not make the folder again
  });

  it('killed mid-answer: the call gets node’s answer', async () => {
    // its spares stopped: the request is taken and never answered, until the answerer is killed
    const { repo, env, p, byNode, a } = await stoppedSpares('refMove');
    const trace = path.join(repo.home, 'trace-killed');
    const pending = frontAsync(repo, p, { ...env, GIT_HANDOFF_TRACE: trace });
    await sleep(1000);
    process.kill(a.pid!, 'SIGKILL');
    const r = await pending;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(byNode.stdout);
    expect(readFileSync(trace, 'utf8')).not.toMatch(/"phase":"spare"/);
  });

  it('a spare killed mid-answer, or a hung answerer: node’s answer', async () => {
    // a spare that dies under its call
    const { repo, env, p, byNode, a, spares } = await stoppedSpares('gitConfig');
    const trace = path.join(repo.home, 'trace-spare-killed');
    const pending = frontAsync(repo, p, { ...env, GIT_HANDOFF_TRACE: trace });
    await sleep(800);
    for (const s of spares) process.kill(s, 'SIGKILL');
    const killed = await pending;
    expect(killed.stdout).toBe(byNode.stdout);
    expect(readFileSync(trace, 'utf8')).not.toMatch(/"phase":"spare"/);
    // the answerer goes on with new spares
    await until(() => childrenOf(a.pid!).length >= 2);
    await sleep(1000);
    expect(call(repo, p, env).spare).toBe(true);
    // the answerer itself stopped: the client waits its 10 s, then node answers
    await until(() => childrenOf(a.pid!).length >= 2);
    process.kill(a.pid!, 'SIGSTOP');
    killAll.push(a.pid!);
    const hung = call(repo, p, env);
    expect(hung.stdout).toBe(byNode.stdout);
    expect(hung.spare).toBe(false);
  });

  it('upgraded underneath: the next call is node’s, from the new files, and the old answerer stops', async () => {
    const { repo, env } = repoWithUser();
    const install = tempDir('gh-install-');
    for (const d of ['bin', 'dist']) cpSync(path.join(ROOT, d), path.join(install, d), { recursive: true });
    const front = path.join(install, 'bin', 'git-handoff-guard');
    const p = CALLS(repo.dir).refMove;
    const byNode = call(repo, p, { ...env, GIT_HANDOFF_ANSWERER: '0' }, front);
    const a = await startAnswerer(repo, path.join(install, 'dist'), env);
    expect(call(repo, p, env, front).spare).toBe(true);
    // this installation's front is not the answerer's: node answers it
    const other = call(repo, p, env);
    expect(other.spare).toBe(false);
    expect(other.stdout).toBe(byNode.stdout);
    // an upgrade rewrites the guard's file in place
    appendFileSync(path.join(install, 'dist', 'guard.cjs'), '\n// upgraded\n');
    const after = call(repo, p, env, front);
    expect(after.spare).toBe(false);
    expect(after.stdout).toBe(byNode.stdout);
    await until(() => a.exitCode !== null, 10_000);
  });

  it('two started at once: one stays, and calls at once are all answered', async () => {
    const { repo, env } = repoWithUser();
    const p = CALLS(repo.dir).hook;
    const byNode = call(repo, p, { ...env, GIT_HANDOFF_ANSWERER: '0' });
    mkdirSync(path.dirname(sock(repo)), { recursive: true, mode: 0o700 });
    const all = Array.from({ length: 4 }, () => spawn(process.execPath, [path.join(ROOT, 'dist', 'answerer.cjs')], { env, stdio: 'ignore', detached: true, cwd: '/' }));
    started.push(...all);
    await until(() => existsSync(sock(repo)));
    await until(() => answerers(repo).length === 1, 15_000);
    await sleep(1500);
    const runs = await Promise.all(Array.from({ length: 6 }, () => frontAsync(repo, p, env).then((r) => r.stdout)));
    for (const r of runs) expect(r).toBe(byNode.stdout);
    expect(call(repo, p, env).spare).toBe(true);
  });

  it('not this user’s: a folder others can enter gets no answerer; a socket of another user is never asked', async () => {
    const { repo, env } = repoWithUser();
    const p = CALLS(repo.dir).rmGit;
    const byNode = call(repo, p, { ...env, GIT_HANDOFF_ANSWERER: '0' });
    const folder = path.dirname(sock(repo));
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'answerer.cjs')], { env, timeout: 10_000 });
    expect(r.status).toBe(1);
    expect(existsSync(sock(repo))).toBe(false);
    chmodSync(folder, 0o700);
    await startAnswerer(repo, undefined, env);
    expect(call(repo, p, env).spare).toBe(true);
    if (asRoot) {
      // owned by another user (nobody): the client does not connect
      spawnSync('chown', ['65534', sock(repo)]);
      const other = call(repo, p, env);
      expect(other.spare).toBe(false);
      expect(other.stdout).toBe(byNode.stdout);
    }
  });

  it.skipIf(!asRoot)('a full disk under the user folder: every call gets node’s answer, with an answerer and when none can start', async () => {
    const { repo, env } = repoWithUser();
    const mount = path.join(tempDir('gh-full-'), 'fs');
    mkdirSync(mount);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,nr_inodes=64', 'tmpfs', mount]).status).toBe(0);
    try {
      const full = { ...env, XDG_CACHE_HOME: path.join(mount, 'cache') };
      const calls = CALLS(repo.dir);
      const byNode = Object.fromEntries(Object.entries(calls).map(([k, p]) => [k, call(repo, p, { ...full, GIT_HANDOFF_ANSWERER: '0' })]));
      // the blocks full: a socket needs an inode only, so an answerer starts; every answer is node's
      const fill = (size: number): void => {
        for (let i = 0; ; i++) {
          try {
            writeFileSync(path.join(mount, `f${size}-${i}`), Buffer.alloc(size));
          } catch {
            return;
          }
        }
      };
      fill(4096);
      const fullRepo = { ...repo, env: full } as TestRepo;
      users.push(fullRepo);
      for (const [k, p] of Object.entries(calls)) expect(call(repo, p, full).stdout, k).toBe(byNode[k].stdout);
      await until(() => existsSync(path.join(mount, 'cache', 'git-handoff', 'answer.sock')));
      await sleep(1500);
      for (const [k, p] of Object.entries(calls)) {
        const r = call(repo, p, full);
        expect(r.spare, k).toBe(true);
        expect(r.stdout, k).toBe(byNode[k].stdout);
      }
      // the inodes full too, the answerer gone: none can start, node answers
      for (const pid of answerers(fullRepo)) process.kill(pid, 'SIGTERM');
      await until(() => answerers(fullRepo).length === 0);
      fill(0);
      for (const [k, p] of Object.entries(calls)) {
        const r = call(repo, p, full);
        expect(r.stdout, k).toBe(byNode[k].stdout);
        expect(r.status, k).toBe(0);
        expect(r.spare, k).toBe(false);
      }
      await sleep(1000);
      expect(existsSync(path.join(mount, 'cache', 'git-handoff', 'answer.sock'))).toBe(false);
      expect(answerers(fullRepo)).toHaveLength(0);
    } finally {
      spawnSync('umount', ['-l', mount]);
    }
  });
});
