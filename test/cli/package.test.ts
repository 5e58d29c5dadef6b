// The package as a user gets it: npm pack, a global install into a temporary prefix, then git itself
// finds `git handoff` on PATH and `git help handoff` finds the man page.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT, makeRepo, tempDir } from '../helpers/repo';

describe('npm pack and a global install', () => {
  it('installs with no install scripts (none in the packed package.json, no npm warning) and works through git, with its man page', async () => {
    const out = tempDir();
    const repo = makeRepo({ commit: true });
    const env = { ...repo.env, npm_config_cache: path.join(repo.home, '.npm'), npm_config_update_notifier: 'false' };
    const pack = await execa('npm', ['pack', '--pack-destination', out, '--silent', '--ignore-scripts'], { cwd: ROOT, env, extendEnv: false });
    const tgz = path.join(out, pack.stdout.trim().split('\n').pop()!);
    // what npm would run at install time (scripts/ is not shipped, so none may refer to it)
    await execa('tar', ['xzf', tgz, '-C', out, 'package/package.json']);
    const scripts = JSON.parse(readFileSync(path.join(out, 'package', 'package.json'), 'utf8')).scripts ?? {};
    expect(Object.keys(scripts).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
    // a budget, not a goal: the minified bundles (the CLI with every command, the guard and the hooks, the first look,
    // the secret scanner, yaml, the web page, the MCP server with its SDK and zod: 60 KiB of it, loaded by `mcp` alone),
    // the clients' records, the man page and the docs a user reads (the contract, SECURITY, clients, hosting; the
    // maintainers' notes stay in the repository): a jump past it is a bundle that took in what it should load apart
    expect(statSync(tgz).size).toBeLessThan(840 * 1024);
    const prefix = path.join(out, 'prefix');
    const inst = await execa('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tgz], { env, extendEnv: false });
    expect(inst.stderr).not.toMatch(/install-scripts|install scripts/);
    expect(existsSync(path.join(prefix, 'bin', 'git-handoff'))).toBe(true);
    const PATH = `${path.join(prefix, 'bin')}:${process.env.PATH}`;
    const MANPATH = path.join(prefix, 'share', 'man');
    expect(readdirSync(path.join(MANPATH, 'man1'))).toContain('git-handoff.1');
    const w = await execa('git', ['handoff', 'write', 'auth-refactor', '--session', 'pkg-test', '-m', 'installed'], {
      cwd: repo.dir,
      env: { ...repo.env, PATH },
      extendEnv: false,
    });
    expect(w.stdout).toMatch(/^refs\/handoffs\/main\/auth-refactor [0-9a-f]{7} \(created\)$/);
    const where = await execa('man', ['-w', 'git-handoff'], { env: { ...repo.env, PATH, MANPATH }, extendEnv: false });
    expect(realpathSync(where.stdout.trim())).toBe(realpathSync(path.join(MANPATH, 'man1', 'git-handoff.1')));
    const help = await execa('git', ['help', 'handoff'], { cwd: repo.dir, env: { ...repo.env, PATH, MANPATH, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' }, extendEnv: false });
    expect(help.stdout).toMatch(/git-handoff\s+-\s+handoff\s+notes\s+between/);
    expect(help.stdout).toMatch(/handoff\.leaseTTL/);
    const h = await execa('git', ['handoff', '-h'], { cwd: repo.dir, env: { ...repo.env, PATH }, extendEnv: false });
    expect(h.stdout).toMatch(/git handoff write <topic>/);
  });
});
