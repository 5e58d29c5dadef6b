// The only module that spawns git. Synchronous: a CLI call or a hook is a short sequence of git steps.
import type { spawnSync as SpawnSync } from 'node:child_process';
import { HandoffError } from '../errors';

export interface GitResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  cwd?: string;
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  /** return the result on a non-zero exit instead of throwing */
  allowFail?: boolean;
  /** stdout beyond this many bytes kills git and throws a HandoffError with code `output-too-large` */
  maxBuffer?: number;
}

// Git's messages are parsed (CAS failures, lock errors), so they must not be translated.
const baseEnv = (): NodeJS.ProcessEnv => ({ ...process.env, LC_ALL: 'C', LANGUAGE: 'C', GIT_TERMINAL_PROMPT: '0' });

// node:child_process is loaded at the first spawn, not with this module: the guard imports the store's readers
// on paths that often start no git at all, and loading it costs every such run a millisecond or two.
let spawner: typeof SpawnSync | null = null;

function spawnGit(args: string[], opts: GitOptions, encoding: 'utf8' | 'buffer') {
  spawner ??= (require('node:child_process') as typeof import('node:child_process')).spawnSync;
  return spawner('git', args, {
    cwd: opts.cwd,
    input: opts.input,
    env: opts.env ? { ...baseEnv(), ...opts.env } : baseEnv(),
    ...(encoding === 'utf8' ? { encoding: 'utf8' as const } : {}),
    maxBuffer: opts.maxBuffer ?? 1024 * 1024 * 512,
  });
}

export function git(args: string[], opts: GitOptions = {}): GitResult {
  const r = spawnGit(args, opts, 'utf8') as ReturnType<typeof SpawnSync> & { stdout: string; stderr: string };
  if (r.error) spawnFailed(r.error);
  const res = { status: r.status ?? 128, stdout: r.stdout, stderr: r.stderr };
  return check(args, res, opts);
}

/** Like git(), with stdout as bytes (object contents whose sizes are counted in bytes). */
export function gitBytes(args: string[], opts: GitOptions = {}): { status: number; stdout: Buffer; stderr: string } {
  const r = spawnGit(args, opts, 'buffer');
  if (r.error) spawnFailed(r.error);
  const res = { status: r.status ?? 128, stdout: r.stdout as unknown as Buffer, stderr: String(r.stderr) };
  return check(args, res, opts);
}

function spawnFailed(error: Error): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOBUFS') throw new HandoffError('internal', 'output-too-large', `git printed more than was asked for: ${error.message}`);
  if (code === 'ENOENT') throw new HandoffError('environment', 'git-missing', 'git is not installed or not on PATH');
  throw new HandoffError('internal', 'git-spawn', `could not run git: ${error.message}`);
}

function check<T extends { status: number; stderr: string }>(args: string[], res: T, opts: GitOptions): T {
  if (res.status !== 0 && !opts.allowFail) {
    throw new HandoffError('internal', 'git-failed', `git ${args[0]} failed: ${res.stderr.trim() || `exit ${res.status}`}`, {
      args,
      stderr: res.stderr,
      status: res.status,
    });
  }
  return res;
}

/** Runs git and returns stdout without the final newline. */
export function gitOut(args: string[], opts: GitOptions = {}): string {
  return git(args, opts).stdout.replace(/\n$/, '');
}
