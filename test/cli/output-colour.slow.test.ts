// src/cli/output.ts: git's colour switches — --color=always paints into a pipe, --no-color and --color=never do not on
// a terminal, NO_COLOR is respected by auto.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { cliText as cli, onTerminal } from './helpers';

const ESC = '\x1b[';

describe('colour switches (item 10)', () => {
  it('--color=always paints into a pipe, --no-color and --color=never do not on a terminal, NO_COLOR is respected by auto', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'x'])).exitCode).toBe(0);
    const always = await cli(repo, ['--color=always', 'list']);
    expect(always.exitCode, always.stderr).toBe(0);
    expect(always.stdout).toContain(ESC);
    expect((await cli(repo, ['list', '--color'])).stdout).toContain(ESC);
    // on a terminal, without NO_COLOR, auto paints; the switches turn it off wherever they stand
    expect(onTerminal(repo, ['list'], { NO_COLOR: undefined })).toContain(ESC);
    expect(onTerminal(repo, ['list', '--no-color'], { NO_COLOR: undefined })).not.toContain(ESC);
    expect(onTerminal(repo, ['--color=never', 'list'], { NO_COLOR: undefined })).not.toContain(ESC);
    expect(onTerminal(repo, ['list', '--color=auto'], { NO_COLOR: '1' })).not.toContain(ESC);
    // the last switch wins, as in git
    expect(onTerminal(repo, ['list', '--no-color', '--color=always'], { NO_COLOR: '1' })).toContain(ESC);
    // into a pipe, auto and --no-color print the same plain table
    const plain = await cli(repo, ['list', '--no-color']);
    expect([plain.exitCode, plain.stdout]).toEqual([0, (await cli(repo, ['list'])).stdout]);
    const bad = await cli(repo, ['list', '--color=sometimes']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--color takes always, never or auto');
    // after `--`, --no-color is an argument, not a switch
    expect((await cli(repo, ['show', '--', '--no-color'])).stderr).toContain('after `--`');
  });
});
