// Two clones and a bare remote, over file://, git:// (git daemon) or smart HTTP (git http-backend), all on 127.0.0.1.
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

export async function makeWorld(transport: Transport = 'file', o: { server?: boolean } = {}): Promise<World> {
  const bare = makeRepo({ init: ['--bare'] });
  const base = path.dirname(bare.dir);
  const name = path.basename(bare.dir);
  const url =
    transport === 'file' ? `file://${bare.dir}`
    : transport === 'git' ? (await startGitDaemon(base, bare.env)).url(name)
    : (await startHttpGit(base, bare.env)).url(name);
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
export async function ok(repo: TestRepo, args: string[], code = 0) {
  const r = await repo.cli(args);
  if (r.exitCode !== code) throw new Error(`git handoff ${args.join(' ')} exited ${r.exitCode}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}
