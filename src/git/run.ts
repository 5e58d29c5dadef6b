// The only module that spawns git. Synchronous: a CLI call or a hook is a short sequence of git steps.
import { closeSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import path from 'node:path';
import { diskError, gitDiskErrno, HandoffError } from '../errors';
import { trace, tracing } from '../trace';
import { spawn, spawnSync, type ChildProcess } from '../process';
import type { Config, GitResult, NetResult, Storage } from './storage';
import { configValue } from './config-values';

/**
 * A repository with git's command line bound to it: the storage port and `git()`/`out()`. src/git and the rooms
 * outside src/handoff/ hold one; src/handoff/ is given the Storage alone.
 */
export interface Repo extends Storage {
  git(args: string[], opts?: GitOptions): GitResult;
  out(args: string[], opts?: GitOptions): string;
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

/** History is read as written: no replace object and no graft stands in for a commit any step reads or writes. */
function asWritten(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, GIT_NO_REPLACE_OBJECTS: '1', GIT_GRAFT_FILE: '/dev/null' };
  delete out.GIT_REPLACE_REF_BASE;
  return out;
}

/** One git process, traced when GIT_HANDOFF_TRACE is set; its output as text or (`buffer`) as bytes. */
function spawnGit(args: string[], opts: GitOptions, encoding: 'utf8' | 'buffer') {
  if (tracing()) trace('git start');
  const t0 = performance.now();
  const r = spawnSync('git', args, {
    cwd: opts.cwd,
    input: opts.input,
    env: asWritten(opts.env ? { ...baseEnv(), ...opts.env } : baseEnv()),
    ...(encoding === 'utf8' ? { encoding: 'utf8' as const } : {}),
    maxBuffer: opts.maxBuffer ?? 1024 * 1024 * 512,
  });
  if (tracing()) trace('git', args.join(' ').slice(0, 160), performance.now() - t0);
  if (r.error) spawnFailed(r.error);
  return check(args, { status: r.status ?? 128, stdout: r.stdout, stderr: String(r.stderr) }, opts);
}

/** For a git that only reads the worktree: no optional lock, so no `index.lock` a session's own git meets as "exists". */
export const READER_ENV: NodeJS.ProcessEnv = { GIT_OPTIONAL_LOCKS: '0' };

export const git = (args: string[], opts: GitOptions = {}): GitResult => spawnGit(args, opts, 'utf8') as GitResult;

/** Like git(), with stdout as bytes (object contents whose sizes are counted in bytes). */
export const gitBytes = (args: string[], opts: GitOptions = {}) => spawnGit(args, opts, 'buffer') as { status: number; stdout: Buffer; stderr: string };

function spawnFailed(error: Error): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOBUFS') throw new HandoffError('internal', 'output-too-large', `git printed more than was asked for: ${error.message}`);
  if (code === 'ENOENT') throw new HandoffError('environment', 'git-missing', 'git is not installed or not on PATH');
  throw new HandoffError('internal', 'git-spawn', `could not run git: ${error.message}`);
}

/** git names no errno when a ref's lock file cannot be written: a write of the same size beside it asks the disk. */
function lockWriteErrno(stderr: string): string | undefined {
  const file = /couldn't write '([^']+\.lock)'/.exec(stderr)?.[1];
  if (!file) return undefined;
  const dir = path.dirname(file);
  const probe = path.join(dir, `.git-handoff-probe-${process.pid}`);
  try {
    const fd = openSync(probe, 'wx', 0o600);
    try {
      writeSync(fd, Buffer.alloc(128));
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') return code;
  } finally {
    rmSync(probe, { force: true });
  }
  try {
    const fs = statfsSync(dir);
    if (fs.bavail * fs.bsize < 1024 * 1024) return 'ENOSPC';
  } catch {
    // the directory is gone: not a disk this can name
  }
  return undefined;
}

/** The git command an argument list runs: its first word that is no option nor a `-c` option's value. */
export const subcommand = (args: string[]): string => args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c') ?? args[0];

function check<T extends { status: number; stderr: string }>(args: string[], res: T, opts: GitOptions): T {
  // a disk that refuses git's write fails the command whatever the caller allows: exit 7, never a parsed outcome
  const disk = res.status !== 0 ? diskError(gitDiskErrno(res.stderr) ?? lockWriteErrno(res.stderr), `git ${subcommand(args)}: ${res.stderr.trim().split('\n').pop()}`) : null;
  if (disk) throw disk;
  if (res.status !== 0 && !opts.allowFail) {
    throw new HandoffError('internal', 'git-failed', `git ${args[0]} failed: ${res.stderr.trim() || `exit ${res.status}`}`, {
      args,
      stderr: res.stderr,
      status: res.status,
    });
  }
  return res;
}

/** git with a hard time limit, never asking anyone anything; its process group is killed whole at the limit. */
export function gitBounded(args: string[], opts: { cwd: string; timeoutMs: number; config: Config }): Promise<NetResult> {
  const base = baseEnv();
  const ssh = base.GIT_SSH_COMMAND || configValue(opts.config, 'core.sshCommand') || 'ssh';
  const env = {
    ...base,
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: `${ssh} -o BatchMode=yes -o ConnectTimeout=${Math.max(1, Math.ceil(opts.timeoutMs / 1000))}`,
    // an askpass that answers nothing (a set GIT_ASKPASS or SSH_ASKPASS would open a dialog), no credential manager UI
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    SSH_ASKPASS_REQUIRE: 'never',
    GCM_INTERACTIVE: 'never',
  };
  return new Promise((resolve) => {
    let stderr = '';
    let done = false;
    const finish = (r: NetResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // a grandchild still holding the pipe must not keep this process alive
      child?.stderr?.destroy();
      child?.unref();
      resolve(r);
    };
    let child: ChildProcess | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      child = spawn('git', args, { cwd: opts.cwd, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    } catch (e) {
      return finish({ status: null, stderr: e instanceof Error ? e.message : String(e), timedOut: false });
    }
    timer = setTimeout(() => {
      try {
        process.kill(-child!.pid!, 'SIGKILL');
      } catch {
        child!.kill('SIGKILL');
      }
      finish({ status: null, stderr, timedOut: true });
    }, opts.timeoutMs);
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 8192) stderr += d.toString('utf8');
    });
    child.on('error', (e) => finish({ status: null, stderr: e.message, timedOut: false }));
    child.on('exit', (code) => finish({ status: code, stderr, timedOut: false }));
  });
}

/** Before every `push`: a user's push.pushOption would send push options, which a server not advertising them refuses. */
export const NO_PUSH_OPTIONS = ['-c', 'push.pushOption='];
