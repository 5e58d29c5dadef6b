// Where a client has an OS sandbox, the kernel holds the perimeter too (issue 52): the real Claude Code (2.1.328),
// offline, with its sandbox on (bubblewrap and socat: .ci/run installs them) in a repository wired by `install --agent
// claude` (which adds the other clients' wiring, git-handoff's state and the handoff files to its denyWrite). A script
// the session wrote in one call (an ordinary file: the guard lets it be) and runs in the next cannot write any of what
// the guard stands on, while `git handoff write` and a commit through the git hooks still work inside the sandbox.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../helpers/repo';
import { ensureClaude, PATH_WITH_BIN } from './deps';
import { runClient } from './every-client';

const OTHER = 'other-session-5b1e';
const FOREIGN = 'memory/handoff-main-auth-refactor.md';
const THEIRS = `<!-- claude-session: ${OTHER} -->\ntheir note\n`;
const onLinux = process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v bwrap && command -v socat'], { stdio: 'ignore' }).status === 0;

describe("Claude Code's sandbox holds what the guard stands on", () => {
  beforeAll(() => {
    expect(onLinux, 'bubblewrap and socat on PATH (apt-get install bubblewrap socat)').toBe(true);
    ensureClaude();
  }, 900_000);

  it('a script the session wrote cannot write the wiring, the git hooks and config, the handoff files or git-handoff state; git handoff write and a commit work inside it', async () => {
    const repo = makeRepo({ commit: true });
    const before = existsSync(path.join(repo.dir, '.claude', 'settings.json'));
    for (const agent of ['claude', 'codex', 'gemini']) expect((await repo.cli(['install', '--agent', agent], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(repo.dir, '.claude', 'settings.json'), 'utf8'));
    expect(settings.sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining(['.codex/hooks.json', '.gemini/settings.json', '.git/handoff', 'memory']));
    repo.write(FOREIGN, THEIRS);
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'wiring and their note']);
    // doctor recommends the sandbox while it is off, and says what it holds once the person turns it on
    const off = json(await repo.cli(['doctor', '--json'], { env: { PATH: PATH_WITH_BIN } })).items;
    expect(off.find((i: any) => i.component === 'agent claude sandbox')).toMatchObject({ status: 'info', detail: expect.stringContaining('sandbox is off') });
    writeFileSync(path.join(repo.dir, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: true } }));
    const on = json(await repo.cli(['doctor', '--json'], { env: { PATH: PATH_WITH_BIN } })).items;
    expect(on.find((i: any) => i.component === 'agent claude sandbox')).toMatchObject({ status: 'ok', detail: expect.stringContaining('.codex/hooks.json') });

    const targets = [path.join(repo.home, '.gitconfig'), '.claude/settings.json', '.git/hooks/pre-commit', '.git/config', '.codex/hooks.json', '.gemini/settings.json', FOREIGN, '.git/handoff/planted', '.qwen/settings.json'];
    const kept = new Map(targets.map((t) => [t, readOr(path.resolve(repo.dir, t))]));
    const script = ['#!/bin/sh', ...targets.map((t) => `if (printf 'planted\\n' >> '${t}') 2>/dev/null; then echo "WROTE ${t}"; else echo "DENIED ${t}"; fi`)].join('\n') + '\n';
    const run = await runClient('claude-code', repo, [
      { name: 'Write', args: { file_path: path.join(repo.dir, 'tools', 'plant.sh'), content: script } },
      { name: 'Bash', args: { command: 'sh tools/plant.sh' } },
      { name: 'Bash', args: { command: 'git handoff write sandbox-check -m "written from inside the sandbox" && echo x >> a.txt && git add a.txt && git commit -qm "committed inside the sandbox" && git log -1 --format=%s' } },
    ]);
    const [wrote, planted, inside] = run.results;
    expect(wrote, run.out.slice(-2000)).toMatch(/created|wrote|success/i);
    for (const t of targets) expect(planted, planted).toContain(`DENIED ${t}`);
    for (const t of targets) expect(readOr(path.resolve(repo.dir, t)), t).toBe(kept.get(t));
    expect(inside, inside).toContain('committed inside the sandbox');
    expect(refOf(repo, 'refs/handoffs/main/sandbox-check')).not.toBeNull();
    expect(repo.git(['log', '-1', '--format=%s']).stdout.trim()).toBe('committed inside the sandbox');

    // uninstall takes the entries out with the hooks: the file install created is gone
    expect((await repo.cli(['uninstall', '--agent', 'claude'])).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.claude', 'settings.json'))).toBe(before);
  }, 600_000);
});

function readOr(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
