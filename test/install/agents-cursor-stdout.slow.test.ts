// `git handoff install --agent cursor` writes .cursor/hooks.json itself, and `> .cursor/hooks.json` leaves it whole
// with the report on stderr; beside another client both are wired, and uninstall takes the file it made.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo } from '../helpers/repo';
import { cliText as cli } from '../cli/helpers';

describe('install --agent cursor (item 9)', () => {
  it('writes .cursor/hooks.json itself; `> .cursor/hooks.json` (the old advice) leaves it whole, the report on stderr, exit 0', async () => {
    const repo = makeRepo({ commit: true });
    mkdirSync(path.join(repo.dir, '.cursor'));
    const r = await execa('sh', ['-c', `'${BIN}' install --agent cursor > .cursor/hooks.json`], { cwd: repo.dir, env: repo.env, extendEnv: false, reject: false, encoding: 'utf8' });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = JSON.parse(readFileSync(path.join(repo.dir, '.cursor', 'hooks.json'), 'utf8'));
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks)).toContain('preToolUse');
    for (const entries of Object.values(file.hooks) as Array<Array<{ command: string }>>) for (const e of entries) expect(e.command).toBe('git-handoff guard --client=cursor');
    expect(r.stderr).toContain('standard output is .cursor/hooks.json, which install writes');
    expect(r.stderr).toContain('.cursor/hooks.json: wired');
    // the agent wiring brings the git hooks, as for every client
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'reference-transaction'))).toBe(true);
  });

  it('with another client, both are wired; --json lists the actions; uninstall takes the file it made', async () => {
    const repo = makeRepo({ commit: true });
    const r = await cli(repo, ['install', '--agent', 'claude,cursor']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo.dir, '.cursor', 'hooks.json'), 'utf8')).hooks.stop).toEqual([{ command: 'git-handoff guard --client=cursor', timeout: 30 }]);
    expect(existsSync(path.join(repo.dir, '.claude', 'settings.json'))).toBe(true);
    expect(r.stdout).toContain('.claude/settings.json');
    const j = JSON.parse((await cli(repo, ['install', '--agent', 'cursor', '--json'])).stdout);
    expect(j.actions).toContain('.cursor/hooks.json: already wired (cursor)');
    const u = await cli(repo, ['uninstall', '--agent', 'cursor']);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain('.cursor/hooks.json: deleted (install created it)');
    expect(existsSync(path.join(repo.dir, '.cursor', 'hooks.json'))).toBe(false);
  });
});
