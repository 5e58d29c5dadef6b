// With the Claude Code plugin installed for the user, a repository whose own .claude/settings.json has no hooks is not
// missing anything: doctor says the plugin answers here, and gives no advice that would wire Claude Code twice (issue 53).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudePluginInstalled } from '../helpers/claude-plugin';
import { json, makeRepo } from '../helpers/repo';

describe('doctor with the Claude Code plugin', () => {
  it("a project's own .claude/settings.json without hooks: not missing, the plugin answers; no advice to wire it again", async () => {
    const repo = makeRepo({ commit: true });
    claudePluginInstalled(repo.home);
    // the project's own settings, with permissions and no hooks
    mkdirSync(path.join(repo.dir, '.claude'));
    writeFileSync(path.join(repo.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test)'] } }));

    const d = json(await repo.cli(['doctor', '--json']));
    const row = d.items.find((i: any) => i.component === 'agent claude');
    expect(row).toMatchObject({ status: 'info', detail: '.claude/settings.json has no git-handoff hook; not needed: the git-handoff plugin answers here (below)' });
    expect(d.items.filter((i: any) => i.status === 'missing' && i.component.includes('claude'))).toEqual([]);
    expect(d.items.find((i: any) => i.component.startsWith('plugin claude'))).toMatchObject({ status: 'ok' });
    expect(JSON.stringify(d.items.filter((i: any) => i.component.includes('claude')))).not.toContain('install --agent claude`');
    expect(JSON.stringify(d.items.filter((i: any) => i.component.includes('claude')))).not.toContain('(git handoff install --agent claude)');
  });
});
