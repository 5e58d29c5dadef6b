// `git handoff web` as a person runs it (the built bin, its own process), and a real headless Chromium to load it.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, tempDir, type TestRepo } from '../helpers/repo';

export interface WebRun {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  stdout: () => string;
  /** the address the browser was started with (`open`) */
  opened?: string;
  /** sends `signal` and resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** a failed test's cleanup: SIGKILL unless it has exited */
  kill(): void;
}

/**
 * Starts `git-handoff web --no-open` in `cwd` and waits for the address it prints; with `open`, lets it open a
 * browser that only records the address it was given (`opened`: the one-time code's).
 */
export async function startWeb(repo: TestRepo, o: { cwd?: string; env?: Record<string, string>; args?: string[]; open?: boolean } = {}): Promise<WebRun> {
  const argvFile = path.join(tempDir('gh-browser-'), 'argv');
  const browser = `${argvFile}.sh`;
  if (o.open) {
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\n`);
    chmodSync(browser, 0o755);
  }
  const child = spawn(BIN, ['web', ...(o.open ? [] : ['--no-open']), ...(o.args ?? [])], { cwd: o.cwd ?? repo.dir, env: { ...repo.env, ...o.env, ...(o.open ? { BROWSER: browser } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const end = Date.now() + 60_000;
  let m: RegExpExecArray | null;
  while (!(m = /(http:\/\/127\.0\.0\.1:(\d+)\/\?t=([^\s"]+))/.exec(out)) || (o.open && !existsSync(argvFile))) {
    if (child.exitCode !== null || Date.now() > end) throw new Error(`web did not start (exit ${child.exitCode}): ${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    url: m[1],
    port: Number(m[2]),
    token: decodeURIComponent(m[3]),
    stdout: () => out,
    opened: o.open ? readFileSync(argvFile, 'utf8').trim() : undefined,
    stop: (signal = 'SIGINT') => {
      child.kill(signal);
      return exited;
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(p)) throw new Error(`no Chromium at ${p}: install it (as root: apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
  return p;
}

/** A headless Chromium through puppeteer-core (which downloads no browser), with a profile of its own and no network of its own. */
export async function launchBrowser() {
  const puppeteer = (await import('puppeteer-core')).default;
  const profile = mkdtempSync(path.join(tempDir('gh-chromium-'), 'profile-'));
  return puppeteer.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`],
    env: { ...process.env, HOME: profile, TMPDIR: tmpdir() },
  });
}
