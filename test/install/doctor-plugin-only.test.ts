// `git handoff doctor` with only the plugin: no "install --agent claude" advice; a plugin copy older than the CLI is
// broken and says install again.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, ROOT } from '../helpers/repo';

const write = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};

describe('papercuts', () => {
  it('doctor with only the plugin: no "install --agent claude" advice; a plugin copy older than the CLI is broken and says install again', async () => {
    const repo = makeRepo({ commit: true });
    const market = path.join(repo.home, '.local', 'share', 'git-handoff', 'claude-marketplace');
    const folder = path.join(market, 'git-handoff');
    cpSync(path.join(ROOT, 'dist', 'claude-plugin'), folder, { recursive: true });
    write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'git-handoff', plugins: [{ name: 'git-handoff', source: './git-handoff' }] });
    write(path.join(repo.home, '.claude', 'plugins', 'known_marketplaces.json'), { 'git-handoff': { source: { source: 'directory', path: market }, installLocation: market } });
    write(path.join(repo.home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'git-handoff@git-handoff': [{ scope: 'user', installPath: '/nonexistent' }] } });
    write(path.join(repo.home, '.claude', 'settings.json'), { enabledPlugins: { 'git-handoff@git-handoff': true } });
    const items = json(await repo.cli(['doctor', '--json'])).items;
    expect(items.find((i: any) => i.component === 'agent claude').detail).toBe('not wired (.claude/settings.json not present); not needed: the git-handoff plugin answers here (below)');
    const plugin = items.find((i: any) => i.component.startsWith('plugin claude'));
    expect(plugin.status).toBe('ok');
    expect(plugin.detail).not.toContain('older than');
    const pkg = path.join(folder, 'package.json');
    // an older guard is not ok (issue 40 item 7): broken, doctor exits 1, with the command that replaces it
    write(pkg, { ...JSON.parse(readFileSync(pkg, 'utf8')), version: '0.0.9' });
    const doctor = await repo.cli(['doctor', '--json']);
    expect(doctor.exitCode).toBe(1);
    const stale = json(doctor).items.find((i: any) => i.component.startsWith('plugin claude'));
    expect(stale.status).toBe('broken');
    expect(stale.detail).toMatch(/git-handoff 0\.0\.9\); older than this git-handoff \(\d+\.\d+\.\d+\), so the client runs a guard without this build's checks: install again with git handoff install --agent claude --plugin/);
  });
});
