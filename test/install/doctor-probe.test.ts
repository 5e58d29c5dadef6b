// `doctor` proves the wiring: it pipes a probe through the exact command each installed client configuration
// runs and shows the answer; a launcher path is installed quoted, with forward slashes.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, refOf, tempDir } from '../helpers/repo';
import { guard, payload, wroteFile } from '../guard/helpers';

describe('doctor', () => {
  it('shows a working wiring (the refusal it got) and a broken one (why it did not run)', async () => {
    const repo = makeRepo({ commit: true });
    const dir = path.join(tempDir(), 'my tools');
    mkdirSync(dir);
    const launcher = path.join(dir, 'git-handoff');
    symlinkSync(BIN, launcher);
    expect((await repo.cli(['install', '--agent', 'claude', '--launcher', launcher])).exitCode).toBe(0);
    const file = path.join(repo.dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe(`"${launcher}" guard --client=claude-code`);
    expect(settings.hooks.PreCompact[0].hooks[0].command).toBe(`"${launcher}" guard --client=claude-code`);

    const ok = await repo.cli(['doctor']);
    expect(ok.exitCode).toBe(0);
    const line = String(ok.stdout).split('\n').find((l) => l.startsWith('agent claude'))!;
    expect(line).toMatch(/\bok\b/);
    expect(line).toContain(`"${launcher}" guard`);
    expect(line).toContain('moves a handoff ref directly');

    writeFileSync(file, readFileSync(file, 'utf8').split(launcher).join('/nonexistent dir/git-handoff'));
    const broken = await repo.cli(['doctor']);
    expect(broken.exitCode).toBe(1);
    const bad = String(broken.stdout).split('\n').find((l) => l.startsWith('agent claude'))!;
    expect(bad).toMatch(/\bbroken\b/);
    expect(bad).toContain('did not run');
    expect(bad).toContain('/nonexistent dir/git-handoff');
  });

  it('a launcher path given with backslashes is installed with forward slashes', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'codex', '--launcher', 'C:\\Program Files\\git-handoff\\git-handoff.cmd'])).exitCode).toBe(0);
    const codex = JSON.parse(readFileSync(path.join(repo.dir, '.codex', 'hooks.json'), 'utf8'));
    expect(codex.hooks.PreToolUse[0].hooks[0].command).toBe('"C:/Program Files/git-handoff/git-handoff.cmd" guard --client=codex');
    // doctor and uninstall recognise it as theirs.
    expect((await repo.cli(['uninstall', '--agent', 'codex'])).exitCode).toBe(0);
  });

  it('the probe is nobody\'s session: run from a Claude Code shell, it inherits nothing', async () => {
    const repo = makeRepo({ commit: true });
    const env = { PATH: `${path.dirname(BIN)}:${process.env.PATH}`, CLAUDE_PID: String(process.pid) };
    expect((await repo.cli(['install', '--agent', 'claude'], { env })).exitCode).toBe(0);
    await wroteFile(repo, 'src/app.ts', 'live-session-1234', env);
    expect((await repo.cli(['write', 'auth-refactor', '-m', 'mine'], { env: { GIT_HANDOFF_SESSION: 'live-session-1234' } })).exitCode).toBe(0);
    const tip = refOf(repo, 'refs/handoffs/main/auth-refactor');
    expect((await repo.cli(['doctor'], { env })).exitCode).toBe(0);
    expect(refOf(repo, 'refs/handoffs/main/auth-refactor')).toBe(tip);
    expect(repo.git(['for-each-ref', '--format=%(contents)', 'refs/handoff-leases/']).stdout).toContain('Claude-Session-Id: live-session-1234');
  });

  it('says when the guard is off instead of calling the wiring broken', async () => {
    const repo = makeRepo({ commit: true });
    const env = { PATH: `${path.dirname(BIN)}:${process.env.PATH}` };
    await repo.cli(['install', '--agent', 'gemini'], { env });
    repo.git(['config', 'handoff.guard', 'off']);
    const r = await repo.cli(['doctor', '--json'], { env });
    expect(JSON.parse(String(r.stdout)).items.find((i: any) => i.component === 'agent gemini')).toMatchObject({ status: 'info', detail: expect.stringContaining('handoff.guard off') });
  });
});
