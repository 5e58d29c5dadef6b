// Real git servers on 127.0.0.1 for sync tests: `git daemon` (git://) and `git http-backend` behind a small
// node HTTP server (smart HTTP). Each is stopped after the test that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterEach } from 'vitest';

const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

export interface GitServer {
  /** the URL of the repository `name` under the served directory */
  url(name: string): string;
  port: number;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, deadlineMs = 15_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode})`);
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1');
      c.once('connect', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `git daemon` serving every repository under `base`, pushes enabled. */
export async function startGitDaemon(base: string, env: NodeJS.ProcessEnv): Promise<GitServer> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      'git',
      ['daemon', '--reuseaddr', '--export-all', '--enable=receive-pack', '--informative-errors', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${base}`, base],
      { env, stdio: 'ignore' }, // its log, never read: a pipe left undrained fills (64 KiB, ~75 claim race rounds) and the daemon stops answering
    );
    running.push(child);
    try {
      await waitForPort(port, child);
      return { port, url: (name) => `git://127.0.0.1:${port}/${name}` };
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** `git http-backend` as CGI behind a node HTTP server on 127.0.0.1, serving repositories under `root`. */
export async function startHttpGit(root: string, env: NodeJS.ProcessEnv): Promise<GitServer> {
  const child = spawn(process.execPath, [path.join(__dirname, 'git-http-server.cjs'), root], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  running.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^(\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`http server exited (${code})`)));
  });
  return { port, url: (name) => `http://127.0.0.1:${port}/${name}` };
}
