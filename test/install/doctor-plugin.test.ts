// With the Claude Code plugin installed for the user, a repository whose own .claude/settings.json has no hooks is not
// missing anything: doctor says the plugin answers here, and gives no advice that would wire Claude Code twice (issue 53).
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, ROOT } from '../helpers/repo';

const write = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};

describe('doctor with the Claude Code plugin', () => {
  it("a project's own .claude/settings.json without hooks: not missing, the plugin answers; no advice to wire it again", async () => {
    const repo = makeRepo({ commit: true });
    const market = path.join(repo.home, '.local', 'share', 'git-handoff', 'claude-marketplace');
    cpSync(path.join(ROOT, 'dist', 'claude-plugin'), path.join(market, 'git-handoff'), { recursive: true });
    write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'git-handoff', plugins: [{ name: 'git-handoff', source: './git-handoff' }] });
    write(path.join(repo.home, '.claude', 'plugins', 'known_marketplaces.json'), { 'git-handoff': { source: { source: 'directory', path: market }, installLocation: market } });
    write(path.join(repo.home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'git-handoff@git-handoff': [{ scope: 'user', installPath: '/nonexistent' }] } });
    write(path.join(repo.home, '.claude', 'settings.json'), { enabledPlugins: { 'git-handoff@git-handoff': true } });
    // the project's own settings, with permissions and no hooks
    write(path.join(repo.dir, '.claude', 'settings.json'), { permissions: { allow: ['Bash(npm test)'] } });

    const d = json(await repo.cli(['doctor', '--json']));
    const row = d.items.find((i: any) => i.component === 'agent claude');
    expect(row).toMatchObject({ status: 'info', detail: '.claude/settings.json has no git-handoff hook; not needed: the git-handoff plugin answers here (below)' });
    expect(d.items.filter((i: any) => i.status === 'missing' && i.component.includes('claude'))).toEqual([]);
    expect(d.items.find((i: any) => i.component.startsWith('plugin claude'))).toMatchObject({ status: 'ok' });
    expect(JSON.stringify(d.items.filter((i: any) => i.component.includes('claude')))).not.toContain('install --agent claude`');
    expect(JSON.stringify(d.items.filter((i: any) => i.component.includes('claude')))).not.toContain('(git handoff install --agent claude)');
  });
});
