// Claims through the real Claude Code CLI, offline (SPEC 10): session A claims src/auth/ with a note; session B (a
// Claude Code session in the same repository) writes src/auth/login.ts: the model is told who claims it and why, and
// with handoff.claims=enforce the write is refused with A's note and the file is not written.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { converse } from './claude-script';
import { PATH_WITH_BIN, useClaude, wiredForClaude } from './deps';

const A = 'claims-holder-a1b2';
const NOTE = 'moving login to OAuth, do not touch';

useClaude();

describe('claims, Claude Code offline', () => {
  it("B's Write of a path A claims is told to the model with A's note; enforce refuses it", async () => {
    const repo = await wiredForClaude();
    const c = await repo.cli(['claim', 'src/auth/', '--note', NOTE], { env: { GIT_HANDOFF_SESSION: A } });
    expect(c.exitCode, String(c.stderr)).toBe(0);
    const file = path.join(repo.dir, 'src', 'auth', 'login.ts');

    const told = await converse(repo, ['change the login'], [{ tool: 'Write', input: { file_path: file, content: 'export const login = 1;\n' } }], { env: { PATH: PATH_WITH_BIN } });
    expect(told.results).toHaveLength(1);
    expect(told.results[0].error).toBe(false);
    const sent = JSON.stringify(told.requests);
    expect(sent).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(sent).toContain(NOTE);
    // the session start view listed the claim too
    expect(sent).toContain('git-handoff claims on this branch');
    expect(readFileSync(file, 'utf8')).toBe('export const login = 1;\n');

    repo.git(['config', 'handoff.claims', 'enforce']);
    const second = path.join(repo.dir, 'src', 'auth', 'session.ts');
    const refused = await converse(repo, ['change the session'], [{ tool: 'Write', input: { file_path: second, content: 'x\n' } }], { env: { PATH: PATH_WITH_BIN } });
    expect(refused.results).toHaveLength(1);
    expect(refused.results[0].error).toBe(true);
    expect(refused.results[0].text).toContain('handoff.claims=enforce');
    expect(refused.results[0].text).toContain(NOTE);
    expect(existsSync(second)).toBe(false);
  });
});
