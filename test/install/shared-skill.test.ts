// install --agent writes the handoff skill once where clients read the same folder (Gemini CLI and Codex:
// .agents/skills), and uninstall takes it away only with the last client wired here that reads it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';

describe('the handoff skill Gemini CLI and Codex both read', () => {
  it('is written once in .agents/skills, stays while one of them is wired, and goes with the last', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['install', '--agent', 'gemini,codex']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const skill = path.join(repo.dir, '.agents', 'skills', 'handoff', 'SKILL.md');
    expect(readFileSync(skill, 'utf8')).toMatch(/^---\nname: handoff\n/);
    expect(existsSync(path.join(repo.dir, '.gemini', 'skills'))).toBe(false);
    expect(String(r.stdout).match(/^.*SKILL\.md: the handoff skill.*$/gm)).toEqual(['.agents/skills/handoff/SKILL.md: the handoff skill', '.agents/skills/handoff/SKILL.md: the handoff skill already there']);
    expect((await repo.cli(['uninstall', '--agent', 'gemini'])).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.gemini'))).toBe(false);
    expect(existsSync(skill)).toBe(true);
    expect((await repo.cli(['uninstall', '--agent', 'codex'])).exitCode).toBe(0);
    // the worktree is as it was before install
    expect(repo.git(['status', '--porcelain', '--untracked-files=all']).stdout).toBe('');
  });
});

describe("the handoff skill an earlier install put in Gemini CLI's .gemini/skills", () => {
  it('moves to .agents/skills on install, and uninstall leaves neither', async () => {
    const repo = makeRepo({ commit: true });
    const text = readFileSync(path.join(process.cwd(), 'src', 'plugin', 'skills', 'handoff', 'SKILL.md'), 'utf8');
    repo.commit('the skill as an earlier install wrote it', { '.gemini/skills/handoff/SKILL.md': text, '.gemini/skills/mine/SKILL.md': '---\nname: mine\n---\n' });
    const r = await repo.cli(['install', '--agent', 'gemini']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('.gemini/skills/handoff/SKILL.md: removed the handoff skill');
    expect(existsSync(path.join(repo.dir, '.gemini', 'skills', 'handoff'))).toBe(false);
    // the person's own skill beside it stays
    expect(existsSync(path.join(repo.dir, '.gemini', 'skills', 'mine', 'SKILL.md'))).toBe(true);
    expect(readFileSync(path.join(repo.dir, '.agents', 'skills', 'handoff', 'SKILL.md'), 'utf8')).toBe(text);
    expect((await repo.cli(['uninstall', '--agent', 'gemini'])).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.agents'))).toBe(false);
    expect(existsSync(path.join(repo.dir, '.gemini', 'skills', 'handoff'))).toBe(false);
  });

  it('an earlier install\'s copy goes with uninstall too', async () => {
    const repo = makeRepo({ commit: true });
    const text = readFileSync(path.join(process.cwd(), 'src', 'plugin', 'skills', 'handoff', 'SKILL.md'), 'utf8');
    repo.commit('the skill as an earlier install wrote it', { '.gemini/skills/handoff/SKILL.md': text });
    const r = await repo.cli(['uninstall', '--agent', 'gemini']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('.gemini/skills/handoff/SKILL.md: removed the handoff skill');
    expect(existsSync(path.join(repo.dir, '.gemini'))).toBe(false);
  });
});
