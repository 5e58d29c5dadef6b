// The guard's first sight of a session checks the handoff refs against the loss record (issue 23): a handoff
// deleted with raw git (no guard, no hooks) after one session's tool call is reported at the next session's first
// tool call, through the wiring's own command and the clients' real payload shapes; an ordinary call reports nothing.
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf, ROOT, type TestRepo } from '../helpers/repo';
import { payload } from './helpers';
import { ok } from '../sync/world';
import { REF, seeded } from '../handoff/record/helpers';

const FRONT = path.join(ROOT, 'bin', 'git-handoff-guard');

/** One hook run as the wiring makes it: `git-handoff-guard --client=<client>` with the payload on stdin. */
async function hook(repo: TestRepo, client: string, p: Record<string, unknown>, extra: string[] = []) {
  const r = await execa(FRONT, [`--client=${client}`, ...extra], { cwd: repo.dir, env: repo.env, extendEnv: false, input: JSON.stringify(p), reject: false, timeout: 60_000 });
  expect(r.exitCode).toBe(0);
  const out = String(r.stdout).trim();
  return out ? JSON.parse(out) : null;
}

const bash = (repo: TestRepo, fixture: string, session: string, command = 'ls -la', over: Record<string, unknown> = {}) => {
  const p = payload(repo, fixture, over, session);
  return { ...p, tool_input: { ...(p.tool_input as object), command } };
};


const LOST = /refs\/handoffs\/main\/login-redirect-loop was deleted outside git-handoff \(its recorded tip [0-9a-f]{12}\); last seen in place \d{4}-\d\d-\d\dT[^\n]*\n\s+restore it: git handoff recover refs\/handoffs\/main\/login-redirect-loop/;

describe("the guard's first sight of a session checks the loss record", () => {
  it('Claude Code: a handoff deleted with raw git between two tool calls is reported at the new session\'s first call', async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF)!;
    // a session at work: its first call finds everything in place, and so does its next
    for (let i = 0; i < 2; i++) expect(await hook(repo, 'claude-code', bash(repo, 'claude-code/pre-tool-use-bash.json', 'sess-before'))).toBeNull();
    repo.git(['-c', 'core.hooksPath=/dev/null', 'update-ref', '-d', REF]);
    // a new session's first tool call: the model is told, before the tool runs, and the person too
    const a = await hook(repo, 'claude-code', bash(repo, 'claude-code/pre-tool-use-bash.json', 'sess-after'));
    expect(a?.hookSpecificOutput?.permissionDecision ?? 'allow').toBe('allow');
    expect(a.hookSpecificOutput.additionalContext).toMatch(LOST);
    expect(a.systemMessage).toMatch(LOST);
    // said once per session: its next call is an ordinary one
    expect(JSON.stringify(await hook(repo, 'claude-code', bash(repo, 'claude-code/pre-tool-use-bash.json', 'sess-after')))).not.toMatch(/outside git-handoff/);
    // restored: the next new session hears nothing
    await ok(repo, ['recover']);
    expect(refOf(repo, REF)).toBe(tip);
    // (another live session works here: that warning is the lease's, not the record's)
    expect(JSON.stringify(await hook(repo, 'claude-code', bash(repo, 'claude-code/pre-tool-use-bash.json', 'sess-third')))).not.toMatch(/outside git-handoff|recover/);
  });

  it('Codex (context before the tool) and Gemini CLI (printed by a shell call, after any other tool) hear of it at their first call', async () => {
    const repo = await seeded();
    await ok(repo, ['list']);
    repo.git(['-c', 'core.hooksPath=/dev/null', 'update-ref', '-d', REF]);
    const codex = await hook(repo, 'codex', bash(repo, 'codex/real-pre-tool-use-bash.json', 'sess-codex', 'echo hi'));
    expect(codex.hookSpecificOutput.additionalContext).toMatch(LOST);
    // Gemini CLI reads a hook's context only with the tool's output: a shell call's command prints it first
    const before = await hook(repo, 'gemini-cli', bash(repo, 'gemini-cli/real-before-tool-run-shell-command.json', 'sess-gemini', 'echo hi'));
    expect(before.hookSpecificOutput.tool_input.command).toMatch(/^printf '%s\\n' '[^]*was deleted outside git-handoff[^]*' >&2\necho hi$/);
    expect(before.hookSpecificOutput.tool_input.command).toContain(`git handoff recover ${REF}`);
    // a file tool's before-tool answer allows, its after-tool one tells
    const write = payload(repo, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: path.join(repo.dir, 'w.txt'), content: 'x\n' } }, 'sess-gemini-2');
    expect(JSON.stringify((await hook(repo, 'gemini-cli', write)) ?? {})).not.toMatch(/deleted outside/);
    const after = await hook(repo, 'gemini-cli', payload(repo, 'gemini-cli/after-tool-write-file.json', {}, 'sess-gemini-2'), ['--after']);
    expect(after.hookSpecificOutput.additionalContext).toMatch(/was deleted outside git-handoff/);
    expect(after.hookSpecificOutput.additionalContext).toContain(`git handoff recover ${REF}`);
  });

  it('a first sight with nothing lost and nothing moved since the last check starts no git process', async () => {
    const repo = await seeded();
    await ok(repo, ['list']);
    const r = await execa(FRONT, ['--client=claude-code'], {
      cwd: repo.dir,
      env: { ...repo.env, GIT_TRACE: path.join(repo.home, 'trace') },
      extendEnv: false,
      input: JSON.stringify(bash(repo, 'claude-code/pre-tool-use-bash.json', 'sess-new')),
      reject: false,
    });
    expect(String(r.stdout).trim()).toBe('');
    const { existsSync, readFileSync } = await import('node:fs');
    const trace = existsSync(path.join(repo.home, 'trace')) ? readFileSync(path.join(repo.home, 'trace'), 'utf8') : '';
    expect(trace).not.toMatch(/handoff-record|cat-file/);
  });
});
