// The guard runs before every tool call: lineage and the shared-checkout rule must cost no git process for a
// session already seen, for commands that are not sweeping git verbs, or when nobody else has claims here.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/repo';
import { guard, ME, OTHER, payload, wroteFile } from './helpers';

describe('fast path with lineage and a shared checkout', () => {
  it('starts git once for a new session in a client process, then never for ordinary calls', async () => {
    const repo = makeRepo({ commit: true });
    const bin = tempDir();
    const marker = path.join(bin, 'called');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$@" >> '${marker}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env.PATH}`, CLAUDE_PID: String(process.pid) };
    const calls = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');
    const bash = (command: string, session = ME) => guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session), env);

    await bash('npm test');
    expect(calls()).not.toBe('');
    rmSync(marker);
    for (const command of ['npm test', 'git status', 'git log -3', 'git add -A', 'git stash', 'git checkout -- .']) {
      expect(await bash(command), command).toMatchObject({ exitCode: 0, stdout: '' });
    }
    expect(calls()).toBe('');
    // Another session's claim in this worktree: only a sweeping verb asks git (for the status), nothing else does.
    repo.write('theirs.txt', 'x\n');
    await wroteFile(repo, 'theirs.txt', OTHER, env);
    rmSync(marker, { force: true });
    for (const command of ['npm test', 'git status', 'git diff', 'git add src/app.ts']) await bash(command);
    expect(calls()).toBe('');
    await bash('git add -A');
    expect(calls()).toMatch(/status --porcelain/);
  });
});
