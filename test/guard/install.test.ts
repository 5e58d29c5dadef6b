// `install --agent`: merges the guard into each client's settings beside the user's own entries, adds the
// startup note once, and `uninstall` gives back exactly what was there.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT } from '../helpers/repo';

const read = (repo: any, f: string) => readFileSync(path.join(repo.dir, f), 'utf8');

describe('install --agent', () => {
  it('merges into existing settings, is idempotent, and uninstall restores them byte for byte', async () => {
    const repo = makeRepo({ commit: true });
    const userClaude = JSON.stringify(
      {
        permissions: { allow: ['Bash(npm test)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/lint-hook.sh' }] }], Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }] },
      },
      null,
      2,
    ) + '\n';
    repo.write('.claude/settings.json', userClaude);
    repo.write('CLAUDE.md', '# Project rules\n\nUse tabs.\n');
    const r = await repo.cli(['install', '--agent', 'all']);
    expect(r.exitCode).toBe(0);
    const claude = JSON.parse(read(repo, '.claude/settings.json'));
    expect(claude.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(claude.hooks.PreToolUse).toHaveLength(2);
    expect(claude.hooks.PreToolUse[0].hooks[0].command).toBe('./scripts/lint-hook.sh');
    expect(claude.hooks.PreToolUse[1]).toMatchObject({ matcher: expect.stringContaining('Bash'), hooks: [{ type: 'command', command: 'git-handoff guard' }] });
    for (const ev of ['PostToolUse', 'SessionStart', 'Stop']) expect(claude.hooks[ev][0].hooks[0].command).toBe('git-handoff guard');
    const gemini = JSON.parse(read(repo, '.gemini/settings.json'));
    expect(gemini.hooks.BeforeTool[0]).toMatchObject({ matcher: 'write_file|replace|run_shell_command', hooks: [{ command: 'git-handoff guard', timeout: 10000 }] });
    expect(Object.keys(gemini.hooks)).toEqual(expect.arrayContaining(['BeforeTool', 'AfterTool', 'SessionStart', 'AfterAgent']));
    const codex = JSON.parse(read(repo, '.codex/hooks.json'));
    expect(codex.hooks.PreToolUse[0].matcher).toContain('apply_patch');

    const snapshot = ['.claude/settings.json', '.gemini/settings.json', '.codex/hooks.json', 'CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((f) => read(repo, f));
    expect(read(repo, 'CLAUDE.md')).toMatch(/^# Project rules\n\nUse tabs\.\n\n<!-- git-handoff:start -->/);
    expect((await repo.cli(['install', '--agent', 'all'])).exitCode).toBe(0);
    expect(['.claude/settings.json', '.gemini/settings.json', '.codex/hooks.json', 'CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((f) => read(repo, f))).toEqual(snapshot);
    expect(read(repo, 'CLAUDE.md').match(/git-handoff:start/g)).toHaveLength(1);

    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const doctor = await repo.cli(['doctor', '--json'], { env: onPath });
    const items = json(doctor).items.filter((i: any) => i.component.startsWith('agent '));
    expect(items.map((i: any) => i.status)).toEqual(['ok', 'ok', 'ok']);
    expect(items[0].detail).toContain('probe');
    // A wired command that cannot run: doctor says so and fails.
    const settingsFile = path.join(repo.dir, '.claude/settings.json');
    const good = read(repo, '.claude/settings.json');
    writeFileSync(settingsFile, good.split('"git-handoff guard"').join('"/nonexistent/git-handoff guard"'));
    const broken = await repo.cli(['doctor', '--json'], { env: onPath });
    writeFileSync(settingsFile, good);
    expect(broken.exitCode).toBe(1);
    expect(json(broken).items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'broken', detail: expect.stringContaining('did not run') });
    expect(refOf(repo, 'refs/handoffs/doctor/probe-wiring')).toBeNull();

    expect((await repo.cli(['uninstall', '--agent', 'all'])).exitCode).toBe(0);
    expect(read(repo, '.claude/settings.json')).toBe(userClaude);
    expect(read(repo, 'CLAUDE.md')).toBe('# Project rules\n\nUse tabs.\n');
    for (const f of ['.gemini/settings.json', '.codex/hooks.json', 'AGENTS.md', 'GEMINI.md']) expect(existsSync(path.join(repo.dir, f))).toBe(false);
    // the settings directories install created go too; the one the user had stays
    for (const d of ['.gemini', '.codex']) expect(existsSync(path.join(repo.dir, d))).toBe(false);
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(true);
  });

  it('updates an outdated startup note in place', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('AGENTS.md', 'intro\n\n<!-- git-handoff:start -->\nold text\n<!-- git-handoff:end -->\n\nafter\n');
    await repo.cli(['install', '--agent', 'codex']);
    const text = read(repo, 'AGENTS.md');
    expect(text).toMatch(/^intro\n\n<!-- git-handoff:start -->\n## Handoff notes/);
    expect(text).not.toContain('old text');
    expect(text).toMatch(/<!-- git-handoff:end -->\n\nafter\n$/);
    await repo.cli(['uninstall', '--agent', 'codex']);
    expect(read(repo, 'AGENTS.md')).toBe('intro\n\nafter\n');
  });

  it('refuses to touch settings that are not JSON, and doctor reports a partial wiring', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('.gemini/settings.json', '{ not json');
    const r = await repo.cli(['install', '--agent', 'gemini']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('.gemini/settings.json');
    expect(read(repo, '.gemini/settings.json')).toBe('{ not json');
    repo.write('.claude/settings.json', JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'git handoff guard' }] }] } }));
    const items = json(await repo.cli(['doctor', '--json'])).items;
    expect(items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'broken' });
    expect(items.find((i: any) => i.component === 'agent gemini')).toMatchObject({ status: 'broken' });
  });
});
