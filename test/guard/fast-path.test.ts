// The guard runs before every tool call: a call that cannot concern handoffs must start no git process.
// (Timings live in bench/; this checks the structural promise with a git that records being called.)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/repo';
import { guard, ME, payload } from './helpers';

describe('fast path', () => {
  it('starts no git for a Read, a Bash `npm test`, an ordinary Write or a Write to an own handoff file', async () => {
    const repo = makeRepo({ commit: true });
    // Warm the config cache once (the first look at a path that could be protected asks git).
    await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json'));
    const bin = tempDir();
    const marker = path.join(bin, 'called');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$@" >> '${marker}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const own = `memory/handoff-main-auth-refactor.md`;
    repo.write(own, `<!-- claude-session: ${ME} -->\n# mine\n`);
    for (const p of [
      payload(repo, 'claude-code/pre-tool-use-read.json'),
      payload(repo, 'claude-code/pre-tool-use-bash.json'),
      payload(repo, 'claude-code/pre-tool-use-write.json'),
      payload(repo, 'claude-code/pre-tool-use-edit.json'),
      payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${own}`, content: `<!-- claude-session: ${ME} -->\n# v2\n` } }),
      payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'ls -la && npm test > out.log' } }),
    ]) {
      expect(await guard(repo, p, env)).toMatchObject({ exitCode: 0, stdout: '' });
    }
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    // The recording git does record: a rewrite check asks it.
    await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git reset --hard HEAD~1' } }), env);
    expect(readFileSync(marker, 'utf8')).toMatch(/rev-parse/);
  });
});
