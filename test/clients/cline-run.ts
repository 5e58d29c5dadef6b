// One `cline --json` turn of the real Cline CLI, offline (its provider openai-compatible, set up with `cline auth`
// against a scripted Chat Completions API), and the hub daemon each run leaves: given a port of its own and stopped
// after each test (`cline hub stop`, then its pid from the discovery file). test/clients/tools/cline/README.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, expect } from 'vitest';
import type { TestRepo } from '../helpers/repo';
import type { ChatServer } from './chat-script';
import { CLINE_OFFLINE, ensureCline, useOffline } from './deps';

export const client = useOffline(CLINE_OFFLINE, 'cline', ensureCline);

export interface Hub {
  env: Record<string, string>;
  /** its discovery file, with its pid */
  file: string;
}

const hubs: Hub[] = [];

/** Stops the hub daemon a run left (its pid is in the discovery file), as the harness does; its pid. */
export async function stopHub(h: Hub): Promise<number | undefined> {
  const pid = existsSync(h.file) ? (JSON.parse(readFileSync(h.file, 'utf8')).pid as number) : undefined;
  await execa(client.path, ['hub', 'stop'], { env: h.env, extendEnv: false, reject: false, timeout: 30_000 });
  if (pid && existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--cline-hub-daemon')) process.kill(pid);
  return pid;
}

afterEach(async () => {
  for (const h of hubs.splice(0)) await stopHub(h);
});

/** The hub a HOME's runs left. */
export const hubOf = (home: string): Hub | undefined => hubs.find((h) => h.file.startsWith(home));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** One `cline --json` turn against `api`; the hub it starts gets a port of its own (or `hubPort`). */
export async function runCline(repo: TestRepo, api: ChatServer, extra: Record<string, string> = {}, hubPort?: number) {
  const port = hubPort ?? (await freePort());
  const env = { ...(repo.env as Record<string, string>), CLINE_HUB_PORT: String(port), HOOK_LOG: path.join(repo.home, 'hook.log'), ...extra };
  const hub = { env, file: path.join(repo.home, '.cline', 'data', 'locks', 'hub', 'production.json') };
  if (!hubs.some((h) => h.file === hub.file)) hubs.push(hub);
  const auth = await execa(client.path, ['auth', '-p', 'openai-compatible', '-k', 'sk-fake', '-m', 'fake-model', '-b', api.url], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 60_000 });
  expect(auth.exitCode, auth.stderr).toBe(0);
  const r = await execa(client.path, ['--json', 'do the task'], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 240_000, input: '' });
  const events = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { r, events, result: events.find((e) => e.type === 'run_result'), port, hub };
}

/** Cline's own logs (the CLI's, and the hub daemon's for the turns it ran), where a cancelled task's reason is written, and nowhere else. */
export const clineLog = (repo: TestRepo) => {
  const dir = path.join(repo.home, '.cline', 'data', 'logs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n') : '';
};
