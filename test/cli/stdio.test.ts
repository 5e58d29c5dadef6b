// Standard output on a pipe is written by plain file-descriptor writes (src/cli/stdio.ts), not node's pipe stream:
// every byte arrives, in order, however slowly the reader reads, and the exit code is the command's.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo } from '../helpers/repo';

const env = { GIT_HANDOFF_SESSION: 'stdio-session' };

/** Runs the CLI with stdout on a pipe that is read only after `delayMs`, so git-handoff writes into a full pipe. */
function slowReader(args: string[], cwd: string, childEnv: NodeJS.ProcessEnv, delayMs: number): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(BIN, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stdout.resume();
    }, delayMs);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }));
  });
}

describe('standard output on a pipe', () => {
  it('a body many times a pipe buffer arrives whole and in order to a reader that starts late; the exit code is 0', async () => {
    const repo = makeRepo({ commit: true });
    const line = (i: number) => `line ${String(i).padStart(6, '0')} ${'é'.repeat(20)}\n`;
    const body = Array.from({ length: 12000 }, (_, i) => line(i)).join('');
    expect(Buffer.byteLength(body)).toBeGreaterThan(8 * 65536);
    expect((await repo.cli(['write', 'stdio-large', '-F', '-'], { input: body, env })).exitCode).toBe(0);
    const r = await slowReader(['show', 'stdio-large', '--raw'], repo.dir, { ...repo.env, ...env }, 1500);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.toString('utf8')).toBe(body);
  }, 60_000);

  it('an error goes to stderr on a pipe with its exit code, and --json errors to stdout', async () => {
    const repo = makeRepo({ commit: true });
    const plain = await repo.cli(['show', 'no-such-topic'], { env });
    expect(plain.exitCode).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^git-handoff: no handoff "no-such-topic" on branch main/);
    const j = await repo.cli(['show', 'no-such-topic', '--json'], { env });
    expect(j.exitCode).toBe(2);
    expect(JSON.parse(String(j.stdout)).error.code).toBe('not-found');
  });
});
