// Two clones and a bare remote, over file://, git:// (git daemon) or smart HTTP (git http-backend), all on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { startGitDaemon, startHttpGit } from '../helpers/servers';

export type Transport = 'file' | 'git' | 'http';

export interface World {
  bare: TestRepo;
  a: TestRepo;
  b: TestRepo;
  url: string;
}

/** A bare remote served over `transport`, and its URL. */
export async function makeRemote(transport: Transport): Promise<{ bare: TestRepo; url: string }> {
  const bare = makeRepo({ init: ['--bare'] });
  const base = path.dirname(bare.dir);
  const name = path.basename(bare.dir);
  const url =
    transport === 'file' ? `file://${bare.dir}`
    : transport === 'git' ? (await startGitDaemon(base, bare.env)).url(name)
    : (await startHttpGit(base, bare.env)).url(name);
  return { bare, url };
}

export async function makeWorld(transport: Transport = 'file', o: { server?: boolean } = {}): Promise<World> {
  const { bare, url } = await makeRemote(transport);
  if (o.server) {
    const r = await bare.cli(['install', '--server']);
    if (r.exitCode !== 0) throw new Error(`install --server failed: ${r.stderr}`);
  }
  const a = makeRepo({ commit: true });
  const b = makeRepo({ commit: true });
  for (const c of [a, b]) c.git(['remote', 'add', 'origin', url]);
  return { bare, a, b, url };
}

/** Every handoff and archive ref of a repository, as `ref oid` lines. */
export function handoffRefs(repo: TestRepo): string {
  return repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoffs/', 'refs/handoff-archive/']).stdout.trim();
}

/** The body of a handoff as `show --raw` prints it. */
export async function bodyOf(repo: TestRepo, topic: string): Promise<string> {
  const r = await repo.cli(['show', topic, '--raw']);
  if (r.exitCode !== 0) throw new Error(`show ${topic} failed: ${r.stderr}`);
  return String(r.stdout);
}

/** Runs the CLI and fails with its output when the exit code is not the one expected. */
export async function ok(repo: TestRepo, args: string[], code = 0, env?: Record<string, string | undefined>) {
  const r = await repo.cli(args, { env });
  if (r.exitCode !== code) throw new Error(`git handoff ${args.join(' ')} exited ${r.exitCode}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/**
 * A `git` wrapper first on PATH that logs each invocation's arguments, one line each: pass `env` to the
 * CLI, then read `calls()` (the git subcommand and its arguments, global -c options dropped).
 */
export function gitRecorder(dir: string): { env: Record<string, string>; calls(): string[][] } {
  const bin = path.join(dir, 'recorder-bin');
  const log = path.join(dir, 'git-calls.log');
  mkdirSync(bin, { recursive: true });
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\037' "$a"; done >> '${log}'\nprintf '\\n' >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  return {
    env: { PATH: `${bin}:${process.env.PATH}` },
    calls: () => {
      if (!existsSync(log)) return [];
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const args = l.split('\x1f').filter((x, i, all) => i < all.length - 1 || x !== '');
          while (args[0] === '-c' || args[0] === '-C') args.splice(0, 2);
          return args;
        });
    },
  };
}

/** Every receipt line of every note under `ref`, as `<version> <reader> <how>`, sorted (as git itself reads the notes). */
export function receiptLines(repo: TestRepo, ref = 'refs/notes/handoff-reads'): string[] {
  const list = repo.git(['notes', `--ref=${ref}`, 'list'], { allowFail: true }).stdout.trim();
  if (!list) return [];
  return list
    .split('\n')
    .flatMap((l) => {
      const [blob, oid] = l.split(' ');
      return repo.git(['cat-file', 'blob', blob]).stdout.trim().split('\n').map((r) => `${oid.slice(0, 12)} ${r.split(' ')[0]} ${r.split(' ')[2]}`);
    })
    .sort();
}
