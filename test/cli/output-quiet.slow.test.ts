// src/cli/start.ts: -q / --quiet — list, show, log, boot and diff print nothing, nor does a command that changes something; errors still do, and the exit code
// says what happened.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { cliText as cli } from './helpers';

describe('-q / --quiet (item 11)', () => {
  it('list, show, log, boot, diff print nothing with -q; errors still do and the exit code says what happened', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x'])).exitCode).toBe(0);
    for (const [quiet, ...args] of [['-q', 'list'], ['-q', 'show', 'auth-refactor', '--no-receipt'], ['-q', 'log', 'auth-refactor'], ['-q', 'boot'], ['-q', 'diff', 'auth-refactor'], ['--quiet', 'list', '--all']]) {
      const loud = await cli(repo, args);
      expect(loud.stdout.length, args.join(' ')).toBeGreaterThan(0);
      const r = await cli(repo, [...args, quiet]);
      expect([args.join(' '), r.stdout], r.stderr).toEqual([args.join(' '), '']);
      expect(r.exitCode).toBe(loud.exitCode);
    }
    const missing = await cli(repo, ['show', 'no-such-topic', '-q']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no-such-topic');
    // --json is data asked for: -q does not drop it
    expect(JSON.parse((await cli(repo, ['list', '-q', '--json'])).stdout)).toHaveLength(1);
  });

  it('a command that changes something says nothing of it with -q, and does it: write, archive, restore, claim, release, sessions', async () => {
    const repo = makeRepo({ commit: true });
    for (const args of [
      ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x'],
      ['archive', 'auth-refactor', '--session', 's1'],
      ['restore', 'auth-refactor', '--session', 's1'],
      ['claim', 'src/', '--session', 's1'],
      ['release', 'src/', '--session', 's1'],
      ['sessions'],
    ]) {
      const r = await cli(repo, [...args, '-q']);
      expect([args.join(' '), r.stdout, r.exitCode], r.stderr).toEqual([args.join(' '), '', 0]);
    }
    expect((await cli(repo, ['show', 'auth-refactor', '--raw', '--no-receipt'])).stdout).toContain('Goal: x');
  });
});
