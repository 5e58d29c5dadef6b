// src/sync/resolve.ts: the resolve step sync prints runs as pasted at a terminal with no session id, and the next
// sync is clean.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cliText as cli } from '../cli/helpers';

describe('a newcomer\'s setup (item 14)', () => {
  it('the resolve step sync prints runs as pasted at a terminal with no session id, and the next sync is clean', async () => {
    const { makeWorld } = await import('./world');
    const { a, b } = await makeWorld('file');
    expect((await cli(a, ['write', 'login-redirect-loop', '-m', 'A', '--session', 'sess-a'])).exitCode).toBe(0);
    expect((await cli(b, ['write', 'login-redirect-loop', '-m', 'B', '--session', 'sess-b'])).exitCode).toBe(0);
    expect((await cli(a, ['sync'])).exitCode).toBe(0);
    const s = await cli(b, ['sync']);
    expect(s.exitCode).toBe(4);
    const steps = [...s.stderr.matchAll(/`(git handoff sync origin --resolve [^`]+)`/g)].map((m) => m[1]);
    expect(steps).toEqual(['git handoff sync origin --resolve login-redirect-loop --keep both --session sess-b']);
    // fetch's line and show's line name the same step, with the branch
    expect(s.stdout).toContain('`git handoff sync origin --resolve login-redirect-loop --branch main --keep both --session sess-b`');
    expect((await cli(b, ['show', 'login-redirect-loop', '--no-receipt'])).stdout).toContain('resolve: git handoff sync origin --resolve login-redirect-loop --branch main --keep both --session sess-b');
    const { ROOT } = await import('../helpers/repo');
    const pasted = await execa('sh', ['-c', steps[0]], { cwd: b.dir, env: { ...b.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` }, extendEnv: false, reject: false });
    expect(pasted.exitCode, String(pasted.stderr)).toBe(0);
    expect((await cli(b, ['sync'])).exitCode).toBe(0);
  });
});
