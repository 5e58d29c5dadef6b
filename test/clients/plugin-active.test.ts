// Never twice: a project hook defers to the git-handoff plugin (extension) only when the client will surely run
// the plugin's hook here — enabled for this folder, its folder and launcher present — and never the plugin's own.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginHooks } from '../../src/install/plugin-folders';
import { matcherRoutes } from '../../src/clients/record';
import { deferToPlugin, pluginPathPrefix } from '../../src/clients/plugin-active';
import { eventGroups } from '../../src/install/agents';
import { WIRING } from '../../src/clients/records';
import { json, makeRepo, ROOT, tempDir } from '../helpers/repo';
import { claudePluginInstalled } from '../helpers/claude-plugin';

const write = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};
const runnable = (dir: string) => {
  write(path.join(dir, 'bin', 'git-handoff'), '#!/bin/sh\n');
  write(path.join(dir, 'dist', 'guard.cjs'), '');
};

/** A HOME where Claude Code has the plugin from a directory marketplace (read in place) and a project folder. */
function claudeHome() {
  const home = tempDir();
  const project = path.join(home, 'work', 'repo');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  const market = path.join(home, 'market');
  const folder = path.join(market, 'git-handoff');
  runnable(folder);
  write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'git-handoff', plugins: [{ name: 'git-handoff', source: './git-handoff' }] });
  write(path.join(home, '.claude', 'plugins', 'known_marketplaces.json'), { 'git-handoff': { source: { source: 'directory', path: market }, installLocation: market } });
  write(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'git-handoff@git-handoff': [{ scope: 'user', installPath: path.join(home, '.claude', 'plugins', 'cache', 'x') }] } });
  write(path.join(home, '.claude', 'settings.json'), { enabledPlugins: { 'git-handoff@git-handoff': true } });
  return { env: { HOME: home }, project, folder, home };
}

describe('deferToPlugin', () => {
  it('Claude Code: defers where the enabled plugin loads; not for its own hook, not when disabled here, not when its folder is gone', () => {
    const { env, project, folder, home } = claudeHome();
    const here = path.join(project, 'src');
    expect(deferToPlugin(['node', 'git-handoff', 'guard', '--client=claude-code'], 'claude-code', here, env)).toBe(true);
    // the client decides: Codex has no plugin
    expect(deferToPlugin(['node', 'git-handoff', 'guard'], 'codex', here, env)).toBe(false);
    // the plugin's own hook always answers
    expect(deferToPlugin(['node', 'git-handoff', 'guard', '--client=claude-code', '--plugin'], 'claude-code', here, env)).toBe(false);
    // the project's local settings turn it off here: the project hook must answer
    write(path.join(project, '.claude', 'settings.local.json'), { enabledPlugins: { 'git-handoff@git-handoff': false } });
    expect(deferToPlugin(['guard', '--client=claude-code'], 'claude-code', here, env)).toBe(false);
    rmSync(path.join(project, '.claude'), { recursive: true });
    // the marketplace folder moved away: Claude Code loads nothing, although its cache entry remains
    rmSync(folder, { recursive: true });
    runnable(path.join(home, '.claude', 'plugins', 'cache', 'x'));
    expect(deferToPlugin(['guard', '--client=claude-code'], 'claude-code', here, env)).toBe(false);
  });

  it('Claude Code: a project-scope install counts in its own project only', () => {
    const { env, project, home } = claudeHome();
    write(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), { plugins: { 'git-handoff@git-handoff': [{ scope: 'project', projectPath: project }] } });
    write(path.join(project, '.claude', 'settings.json'), { enabledPlugins: { 'git-handoff@git-handoff': true } });
    expect(deferToPlugin(['guard'], 'claude-code', project, env)).toBe(true);
    const other = path.join(home, 'elsewhere');
    mkdirSync(path.join(other, '.claude'), { recursive: true });
    write(path.join(other, '.claude', 'settings.json'), {});
    expect(deferToPlugin(['guard'], 'claude-code', other, env)).toBe(false);
  });

  it('Gemini CLI: defers while the extension is there and enabled for the folder (the last matching override wins)', () => {
    const home = tempDir();
    const env = { HOME: home };
    const repo = path.join(home, 'repo');
    mkdirSync(repo);
    expect(deferToPlugin(['guard', '--client=gemini-cli'], 'gemini-cli', repo, env)).toBe(false);
    runnable(path.join(home, '.gemini', 'extensions', 'git-handoff'));
    expect(deferToPlugin(['guard', '--client=gemini-cli'], 'gemini-cli', repo, env)).toBe(true);
    const enablement = path.join(home, '.gemini', 'extensions', 'extension-enablement.json');
    write(enablement, { 'git-handoff': { overrides: [`${home}/*`, `!${repo}/*`] } });
    expect(deferToPlugin(['guard', '--client=gemini-cli'], 'gemini-cli', repo, env)).toBe(false);
    write(enablement, { 'git-handoff': { overrides: [`!${home}/*`, `${repo}/*`] } });
    expect(deferToPlugin(['guard', '--client=gemini-cli'], 'gemini-cli', repo, env)).toBe(true);
    expect(deferToPlugin(['guard', '--client=gemini-cli', '--plugin'], 'gemini-cli', repo, env)).toBe(false);
  });
});

describe('the plugin folders', () => {
  it('wire the same events and matchers as install --agent, through the client root variable, stating the client', () => {
    for (const [hooks, w, root, client] of [[pluginHooks('claude'), WIRING.claude, '${CLAUDE_PLUGIN_ROOT}', 'claude-code'], [pluginHooks('gemini'), WIRING.gemini, '${extensionPath}', 'gemini-cli']] as const) {
      const events = (hooks as { hooks: Record<string, any[]> }).hooks;
      expect(Object.keys(events)).toEqual(Object.keys(w.events));
      for (const [event, matcher] of Object.entries(w.events)) {
        // as install writes it: the after-tool hook behind bash's own look for a pending note, a bash client's payload
        // read by its bash, the front run by Claude Code's sh itself, its PreToolUse in two groups (eventGroups, the
        // one rule for all)
        const command = `"${root}/bin/git-handoff-guard" --client=${client} --plugin`;
        const groups = eventGroups(w, event, matcher, command);
        expect(events[event].map((g: any) => g.matcher)).toEqual(groups.map((g) => g.matcher));
        // together the groups route exactly what the event's matcher routes
        for (const tool of ['Bash', 'Write', 'Edit', 'run_shell_command', 'write_file', 'mcp__fs__write_file', 'mcp_fs_write_file', 'Read', 'read_file', 'Glob']) {
          expect(events[event].some((g: any) => matcherRoutes(g.matcher, tool)), `${event} ${tool}`).toBe(matcherRoutes(matcher, tool));
        }
        for (const [i, g] of groups.entries()) expect(events[event][i].hooks[0]).toMatchObject({ command: g.command, timeout: w.timeout });
        if (w.bash && event !== w.after) expect(events[event][0].hooks[0].command).toContain('--payload=env');
        // Claude Code's: the quoted path as written, pasted or read from the environment
        const front = '"${CLAUDE_PLUGIN_ROOT}/bin/git-handoff-guard"';
        const flags = w.split?.event === event ? ['--sourced-line', '--sourced-rest'] : ['--sourced'];
        if (w.sh) expect(events[event].map((g: any) => g.hooks[0].command)).toEqual(flags.map((f) => `command set -o posix 2>/dev/null; set -- ${f} ${front} --client=claude-code --plugin; command . ${front}; exec ${front} --client=claude-code --plugin`));
      }
    }
  });

  it('a git handoff command checked by the extension guard gets the extension bin/ on its PATH, only when it is missing', () => {
    const ext = path.join(tempDir(), 'ext');
    runnable(ext);
    const bin = path.join(ext, 'bin');
    const argv = ['node', 'git-handoff', 'guard', '--client=gemini-cli', '--plugin'];
    expect(pluginPathPrefix('gemini-cli', { PATH: '/usr/bin' }, argv, bin)).toBe(`export PATH='${bin}':"$PATH";`);
    expect(pluginPathPrefix('gemini-cli', { PATH: `/usr/bin:${bin}` }, argv, bin)).toBeNull();
    expect(pluginPathPrefix('gemini-cli', { PATH: '/usr/bin' }, argv.slice(0, -1), bin)).toBeNull();
    expect(pluginPathPrefix('claude-code', { PATH: '/usr/bin' }, argv, bin)).toBeNull();
  });
});

describe('doctor and the plugin', () => {
  it('reports the plugin Claude Code loads: ok through a refusal probe with its folder, broken once the folder is gone; project hooks defer', async () => {
    const repo = makeRepo({ commit: true });
    const market = claudePluginInstalled(repo.home);
    const wired = await repo.cli(['install', '--agent', 'claude', '--launcher', path.join(ROOT, 'bin', 'git-handoff')]);
    expect(String(wired.stdout)).toContain('defer to it');
    const ok = json(await repo.cli(['doctor', '--json']));
    expect(ok.items.find((i: any) => i.component === 'plugin claude (git-handoff@git-handoff, user)')).toMatchObject({ status: 'ok', detail: expect.stringContaining('refused as it should be') });
    expect(ok.items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('defer') });
    rmSync(path.join(market, 'git-handoff'), { recursive: true });
    const gone = await repo.cli(['doctor', '--json']);
    expect(gone.exitCode).toBe(1);
    expect(json(gone).items.find((i: any) => i.component.startsWith('plugin claude'))).toMatchObject({ status: 'broken', detail: expect.stringContaining('is missing') });
    // the project's own hooks answer again
    expect(json(gone).items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('refused as it should be') });
  });
});
