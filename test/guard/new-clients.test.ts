// GitHub Copilot CLI, Qwen Code and OpenCode through the real `git handoff guard`, with payloads captured from the
// real clients (fixtures/hook-payloads/{copilot,qwen-code,opencode}/real-*.json): each refusal in the one shape
// that client obeys, Copilot's own argument names read through Claude Code's wiring, and that wiring standing aside
// when the native Copilot hooks are there.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { ME, OTHER, payload, writeHandoff } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';
const foreignFile = 'memory/handoff-main-auth-refactor.md';

async function ask(repo: TestRepo, client: string, p: Record<string, unknown>, env: Record<string, string> = {}) {
  const r = await repo.cli(['guard', `--client=${client}`], { input: JSON.stringify(p), env });
  expect(r.exitCode).toBe(0);
  const out = String(r.stdout).trim();
  return out ? JSON.parse(out) : null;
}

async function withForeign(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  repo.write(foreignFile, `<!-- claude-session: ${OTHER} -->\n# Auth refactor\n`);
  await writeHandoff(repo, 'auth-refactor', 'their plan', OTHER);
  return repo;
}

/** A Copilot fixture with the session set (its native payloads name it sessionId). */
const copilot = (repo: TestRepo, fixture: string, over: Record<string, unknown> = {}) => payload(repo, `copilot/${fixture}`, { sessionId: ME, ...over }, null);

describe('GitHub Copilot CLI', () => {
  it('native hooks: refusals in the flat shape, the boot view as flat additionalContext, an ordinary call silent', async () => {
    const repo = await withForeign();
    expect(await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-bash.json'))).toBeNull();
    const del = await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-bash.json', { toolArgs: { command: `git update-ref -d ${REF}`, description: 'd' } }));
    expect(Object.keys(del).sort()).toEqual(['permissionDecision', 'permissionDecisionReason']);
    expect(del.permissionDecision).toBe('deny');
    expect(refOf(repo, REF)).not.toBeNull();
    const forged = await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-create.json', { toolArgs: { path: path.join(repo.dir, '.git/refs/handoffs/main/forged'), file_text: 'x\n' } }));
    expect(forged).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('ref store') });
    const edit = await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-edit.json', { toolArgs: { path: path.join(repo.dir, foreignFile), old_str: 'Auth', new_str: 'Mine' } }));
    expect(edit.permissionDecisionReason).toContain(OTHER.slice(0, 8));
    const start = await ask(repo, 'copilot', copilot(repo, 'real-session-start.json'));
    expect(Object.keys(start)).toEqual(['additionalContext']);
    expect(start.additionalContext).toContain(`you are session ${ME}`);
    // told apart with no --client too (sessionId, no hook_event_name)
    const unnamed = await repo.cli(['guard'], { input: JSON.stringify(copilot(repo, 'real-pre-tool-use-bash.json', { toolArgs: { command: `git update-ref -d ${REF}` } })) });
    expect(JSON.parse(String(unnamed.stdout))).toMatchObject({ permissionDecision: 'deny' });
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('copilot');
  });

  it("through Claude Code's wiring: its argument names are read, the session is Copilot's; with the native hooks there it answers nothing", async () => {
    const repo = await withForeign();
    const env = { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: repo.dir };
    const write = payload(repo, 'copilot/real-claude-pre-tool-use-write.json', { tool_input: { path: path.join(repo.dir, '.git/refs/handoffs/main/forged'), file_text: 'x\n' } });
    const denied = await ask(repo, 'claude-code', write, env);
    expect(denied.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('ref store') });
    const edit = payload(repo, 'copilot/real-claude-pre-tool-use-edit.json', { tool_input: { path: path.join(repo.dir, foreignFile), old_str: 'Auth', new_str: 'Mine' } });
    expect((await ask(repo, 'claude-code', edit, env)).hookSpecificOutput.permissionDecision).toBe('deny');
    // Copilot reads SessionStart's context from this wiring only flat
    const start = await ask(repo, 'claude-code', payload(repo, 'copilot/real-claude-session-start.json'), env);
    expect(Object.keys(start)).toEqual(['additionalContext']);
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('copilot');
    // the native wiring present: this one stands aside for every event
    mkdirSync(path.join(repo.dir, '.github', 'hooks'), { recursive: true });
    writeFileSync(path.join(repo.dir, '.github', 'hooks', 'git-handoff.json'), '{"version":1,"hooks":{}}\n');
    expect(await ask(repo, 'claude-code', write, env)).toBeNull();
    expect(await ask(repo, 'claude-code', payload(repo, 'copilot/real-claude-session-start.json'), env)).toBeNull();
    // Claude Code itself (no COPILOT_CLI, no timestamp) is still answered
    const { timestamp: _t, ...claude } = write;
    expect((await ask(repo, 'claude-code', claude)).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('Qwen Code', () => {
  it("Claude Code's shape for its own tools: run_shell_command, write_file, edit", async () => {
    const repo = await withForeign();
    expect(await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-run-shell-command.json'))).toBeNull();
    const del = await ask(repo, 'qwen', payload(repo, 'qwen-code/real-pre-tool-use-run-shell-command.json', { tool_input: { command: `git update-ref -d ${REF}` } }));
    expect(del.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    const forged = await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-write-file.json', { tool_input: { file_path: path.join(repo.dir, '.git/refs/handoffs/main/forged'), content: 'x\n' } }));
    expect(forged.hookSpecificOutput.permissionDecision).toBe('deny');
    const edit = await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-edit.json', { tool_input: { file_path: path.join(repo.dir, foreignFile), old_string: 'Auth', new_string: 'Mine' } }));
    expect(edit.hookSpecificOutput.permissionDecisionReason).toContain(OTHER.slice(0, 8));
    const start = await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-session-start.json'));
    expect(start.hookSpecificOutput.additionalContext).toContain(`you are session ${ME}`);
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('qwen-code');
  });
});
