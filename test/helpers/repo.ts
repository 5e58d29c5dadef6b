// Test fixtures: a temporary repository with its own HOME, no system config, and the built CLI to drive it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { execa, type Result } from 'execa';

export const ROOT = path.resolve(__dirname, '../..');
export const BIN = path.join(ROOT, 'bin', 'git-handoff');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * The processes working in `dir` or below it that this test process did not start itself (a client's hook child can
 * outlive the client that started it; the servers a test starts are stopped by their own hook).
 */
function workingUnder(dir: string): number[] {
  const pids: number[] = [];
  let all: string[];
  try {
    all = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const p of all) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${p}/cwd`);
      if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
      // the parent pid is the field after the command's closing parenthesis and the state
      const ppid = Number(readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) \S+ /s, '').split(' ')[0]);
      if (ppid !== process.pid) pids.push(Number(p));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** A fresh directory removed after the test, once no process works in it (up to 15 s, then they are killed). */
export function tempDir(prefix = 'gh-test-'): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(async () => {
    for (let i = 0; i < 150 && workingUnder(d).length; i++) await new Promise((r) => setTimeout(r, 100));
    for (const pid of workingUnder(d)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  return d;
}

const CLIENT_VARS = ['GIT_HANDOFF_SESSION', 'GIT_HANDOFF_CLIENT', 'GIT_HANDOFF_BYPASS', 'CLAUDE_CODE_SESSION_ID', 'CLAUDECODE', 'CLAUDE_PID', 'GEMINI_SESSION_ID', 'GEMINI_CLI', 'CODEX_THREAD_ID', 'COPILOT_AGENT_SESSION_ID', 'COPILOT_CLI', 'QWEN_CODE_SESSION_ID', 'QWEN_CODE', 'OPENCODE_SESSION_ID', 'OPENCODE', 'KILO_SESSION_ID', 'KILO', 'CRUSH_SESSION_ID', 'DEVIN_PROJECT_DIR', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE'];

/** An isolated environment: its own HOME and git identity, no system config, no client session variables. */
export function isolatedEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CLIENT_VARS) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('GIT_') && !k.startsWith('GIT_HANDOFF')) delete env[k];
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    // the witness (issue 36) lives under the state home: never the real one
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    LC_ALL: 'C',
    NO_COLOR: '1',
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

export interface TestRepo {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** git in the repository; throws on failure unless allowFail */
  git(args: string[], opts?: { allowFail?: boolean; input?: string; cwd?: string; env?: Record<string, string | undefined> }): GitRun;
  /** `git handoff …` through the built bin, never throws; killed after `timeoutMs` (300 s: only a hang, not a loaded machine, gets there) */
  cli(args: string[], opts?: { input?: string; cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<Result>;
  write(file: string, content: string): void;
  /** a commit of everything, returns its oid */
  commit(message: string, files?: Record<string, string>): string;
}

export interface RepoOptions {
  /** extra args for git init, e.g. ['--object-format=sha256'] or ['--bare'] */
  init?: string[];
  /** make a first commit */
  commit?: boolean;
  /** configure user.name / user.email in HOME's .gitconfig (default true) */
  identity?: boolean;
  branch?: string;
}

export function makeRepo(o: RepoOptions = {}): TestRepo {
  const root = tempDir();
  const home = path.join(root, 'home');
  const dir = path.join(root, 'repo');
  mkdirSync(home);
  if (o.identity !== false) {
    writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Test User\n\temail = test@example.com\n');
  }
  const env = isolatedEnv(home);
  const runGit = (cwd: string) => (args: string[], opts: { allowFail?: boolean; input?: string; cwd?: string; env?: Record<string, string | undefined> } = {}) => {
    const r = spawnSync('git', args, { cwd: opts.cwd ?? cwd, env: { ...env, ...opts.env }, input: opts.input, encoding: 'utf8' });
    const res = { status: r.status ?? 128, stdout: r.stdout, stderr: r.stderr };
    if (res.status !== 0 && !opts.allowFail) throw new Error(`git ${args.join(' ')} failed (${res.status}): ${res.stderr}`);
    return res;
  };
  runGit(root)(['init', '-q', `--initial-branch=${o.branch ?? 'main'}`, ...(o.init ?? []), dir]);
  const repo: TestRepo = {
    dir,
    home,
    env,
    git: runGit(dir),
    cli: (args, opts = {}) =>
      execa(BIN, args, { cwd: opts.cwd ?? dir, env: { ...env, ...opts.env }, extendEnv: false, input: opts.input ?? '', reject: false, timeout: opts.timeoutMs ?? 300_000 }),
    write: (file, content) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    },
    commit: (message, files = {}) => {
      for (const [f, c] of Object.entries(files)) repo.write(f, c);
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--allow-empty', '--no-verify', '-m', message]);
      return repo.git(['rev-parse', 'HEAD']).stdout.trim();
    },
  };
  if (o.commit) repo.commit('initial', { 'README.md': 'hello\n' });
  return repo;
}

/** The value of a ref, or null. */
export const refOf = (repo: TestRepo, ref: string): string | null => {
  const r = repo.git(['rev-parse', '-q', '--verify', ref], { allowFail: true });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** Parses the CLI's JSON output. */
export const json = <T = any>(r: Result): T => JSON.parse(String(r.stdout));

/**
 * Starts `command args` in its own process group and SIGKILLs the whole group (node and any git child) after
 * `delayMs`, unless it ended first; `killed` says whether the kill landed.
 */
export function killedGroup(command: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }, delayMs: number): Promise<{ code: number | null; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: 'ignore' });
    let killed = false;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
        killed = true;
      } catch {
        // the group already exited
      }
    }, delayMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // let a surviving git child of a killed group be reaped before the next step looks at the repository
      setTimeout(() => resolve({ code, killed }), 5);
    });
  });
}

/** Handoffs made outside git-handoff in one fast-import (bench/gen-repo.mjs): `handoffs` over `branches` branches feature/Team-<n>. */
export function generateHandoffs(repo: TestRepo, o: { handoffs: number; branches: number }): void {
  const script = `import(${JSON.stringify(path.join(ROOT, 'bench', 'gen-repo.mjs'))}).then((m) => m.generateHandoffs({ git: (args, o = {}) => {
    const r = require('node:child_process').spawnSync('git', args, { cwd: process.cwd(), input: o.input, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr); return r; } }, ${JSON.stringify(o)}))`;
  const gen = spawnSync(process.execPath, ['-e', script], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`generating handoffs failed: ${gen.stderr}`);
}
