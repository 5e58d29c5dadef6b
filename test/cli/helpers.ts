// Shared by the command-line tests: the built CLI run as a person runs it, its exit code checked, and the refs it left.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { BIN, type TestRepo } from '../helpers/repo';

/** Every handoff and archive ref, as `ref oid` lines. */
export const handoffRefsOf = (repo: TestRepo) =>
  repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoffs/', 'refs/handoff-archive/']).stdout.trim();

/** The CLI run with `args`, its exit code expected to be `code` (the command and stderr said otherwise). */
export async function cliExpect(repo: TestRepo, args: string[], code = 0, env: Record<string, string | undefined> = {}) {
  const r = await repo.cli(args, { env });
  expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(code);
  return r;
}

/** The stdout of a CLI run that must exit 0. */
export const cliOk = async (repo: TestRepo, args: string[], env: Record<string, string> = {}) => String((await cliExpect(repo, args, 0, env)).stdout);

/** The output of a CLI run that must exit `code`, as text. */
export async function cliRun(repo: TestRepo, args: string[], code = 0, env: Record<string, string | undefined> = {}) {
  const r = await cliExpect(repo, args, code, env);
  return { out: String(r.stdout), err: String(r.stderr) };
}

/** The CLI's exit code and output as text. */
export async function cliText(repo: TestRepo, args: string[]): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const r = await repo.cli(args);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`), its output as the terminal shows it. */
export function onTerminal(repo: TestRepo, args: string[], env: Record<string, string | undefined> = {}): string {
  const cmd = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const e = { ...repo.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete e[k];
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: repo.dir, env: e, encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  return r.stdout.replace(/\r/g, '');
}
