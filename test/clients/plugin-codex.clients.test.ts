// Codex has no git-handoff plugin: `install --agent codex` wires the repository's hooks and puts the `handoff`
// skill where the real Codex binary reads a project's skills (.agents/skills); the model is offered it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo, ROOT } from '../helpers/repo';
import { CODEX_OFFLINE as OFFLINE } from './deps';

describe('Codex, offline', () => {
  it('install --agent codex puts the handoff skill where Codex reads it; uninstall takes it away', async () => {
    const repo = makeRepo({ commit: true });
    const PATH = `${path.join(ROOT, 'bin')}:${process.env.PATH}`;
    expect((await repo.cli(['install', '--agent', 'codex'], { env: { PATH } })).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.agents', 'skills', 'handoff', 'SKILL.md'))).toBe(true);
    const r = await execa('bash', [path.join(OFFLINE, 'run-codex.sh'), repo.dir, 'git handoff list'], {
      env: { ...repo.env, PATH, CODEX_HOME: path.join(repo.home, '.codex'), TRUST: '1' },
      extendEnv: false,
      reject: false,
      timeout: 240_000,
    });
    expect(r.stdout).toContain('codex exit 0');
    const log = readFileSync(/requests \(what the model was sent[^:]*\): (\S+)/.exec(r.stdout)![1], 'utf8');
    expect(log).toContain('Write, read or check the handoff notes');
    expect((await repo.cli(['uninstall', '--agent', 'codex'])).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.agents'))).toBe(false);
  });
});
