// install --agent … --private (issue 27): the wiring stays out of git status and history through
// .git/info/exclude (this clone only); a tracked file is named, not silently hidden; uninstall gives the exclude
// file back byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';

describe('install --private', () => {
  it('keeps the wiring out of git status; names a tracked file; uninstall takes the lines out again', async () => {
    const repo = makeRepo({ commit: true });
    const exclude = path.join(repo.dir, '.git', 'info', 'exclude');
    writeFileSync(exclude, '# mine\n*.log');
    repo.commit('agents notes', { 'AGENTS.md': '# Agents\n' });
    const before = readFileSync(exclude);
    const r = await repo.cli(['install', '--agent', 'claude', '--agent', 'codex', '--private']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('.git/info/exclude: .claude/settings.json, CLAUDE.md, .claude/skills/handoff/, .codex/hooks.json, .agents/skills/handoff/ kept out of git status');
    expect(String(r.stdout)).toContain('AGENTS.md is tracked: .git/info/exclude cannot hide it');
    expect(String(r.stdout)).not.toContain('commit .claude');
    // only the tracked file the install changed shows
    expect(repo.git(['status', '--porcelain']).stdout.trim()).toBe('M AGENTS.md');
    expect(readFileSync(exclude, 'utf8')).toMatch(/^# mine\n\*\.log\n\n# git-handoff install --private/);
    // again: the same lines, once
    await repo.cli(['install', '--agent', 'claude', '--private']);
    expect(readFileSync(exclude, 'utf8').match(/^\/CLAUDE\.md$/gm)).toHaveLength(1);
    const un = await repo.cli(['uninstall']);
    expect(un.exitCode, String(un.stderr)).toBe(0);
    expect(String(un.stdout)).toContain('.git/info/exclude: removed the lines install --private added');
    // what it says is what it did: a file install created is deleted, not "restored"
    expect(String(un.stdout)).toContain('CLAUDE.md: deleted (install created it)');
    expect(String(un.stdout)).toContain('.claude/settings.json: deleted (install created it)');
    expect(String(un.stdout)).toContain('AGENTS.md: restored as it was before install (byte for byte)');
    expect(readFileSync(exclude)).toEqual(before);
    expect(repo.git(['status', '--porcelain']).stdout.trim()).toBe('');
    const no = await repo.cli(['install', '--private']);
    expect(no.exitCode).toBe(2);
  });
});
