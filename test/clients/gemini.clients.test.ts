// Gemini CLI's own hook runner (@google/gemini-cli-core) runs the hooks that `install --agent gemini` wrote,
// and Gemini's own output classes decide, exactly as the CLI does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { ensureGeminiCore } from './deps';

const OTHER = 'other-session-77aa';
const ME = 'c1d2e3f4-0000-4000-8000-000000000001';
let HookRunner: any;
let createHookOutput: any;

beforeAll(async () => {
  const core = ensureGeminiCore();
  ({ HookRunner } = await import(pathToFileURL(path.join(core, 'dist', 'src', 'hooks', 'hookRunner.js')).href));
  ({ createHookOutput } = await import(pathToFileURL(path.join(core, 'dist', 'src', 'hooks', 'types.js')).href));
}, 900_000);

async function wired(): Promise<{ repo: TestRepo; hooks: Record<string, any[]> }> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['install', '--agent', 'gemini'])).exitCode).toBe(0);
  const settings = JSON.parse(readFileSync(path.join(repo.dir, '.gemini', 'settings.json'), 'utf8'));
  // The runner passes its own process environment to hooks: make it the test repository's.
  Object.assign(process.env, repo.env, { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` });
  return { repo, hooks: settings.hooks };
}

/** Runs every hook wired for `event` whose matcher takes the tool, as Gemini CLI would, and returns its outputs. */
async function fire(repo: TestRepo, hooks: Record<string, any[]>, event: string, input: Record<string, unknown>) {
  const plans = tempDir();
  const runner = new HookRunner({
    isTrustedFolder: () => true,
    storage: { getPlansDir: () => plans },
    sanitizationConfig: { enableEnvironmentVariableRedaction: false, allowedEnvironmentVariables: [], blockedEnvironmentVariables: [] },
  });
  const payload = { session_id: ME, transcript_path: '/dev/null', cwd: repo.dir, hook_event_name: event, timestamp: new Date().toISOString(), ...input };
  const outs = [];
  for (const group of hooks[event] ?? []) {
    if (group.matcher && input.tool_name && !new RegExp(group.matcher).test(String(input.tool_name))) continue;
    for (const h of group.hooks) {
      const result = await runner.executeHook(h, event, payload);
      expect(result.success, String(result.error ?? result.stderr)).toBe(true);
      outs.push(createHookOutput(event, result.output));
    }
  }
  return outs;
}

describe('Gemini CLI hook runner', () => {
  it('blocks a foreign handoff write and a raw ref deletion, lets ordinary work through', async () => {
    const { repo, hooks } = await wired();
    repo.write('memory/handoff-main-auth-refactor.md', `<!-- claude-session: ${OTHER} -->\n# theirs\n`);
    const write = await fire(repo, hooks, 'BeforeTool', {
      tool_name: 'write_file',
      tool_input: { file_path: path.join(repo.dir, 'memory/handoff-main-auth-refactor.md'), content: '# mine' },
    });
    expect(write).toHaveLength(1);
    expect(write[0].isBlockingDecision()).toBe(true);
    expect(write[0].getEffectiveReason()).toContain(OTHER.slice(0, 8));

    const del = await fire(repo, hooks, 'BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } });
    expect(del[0].isBlockingDecision()).toBe(true);

    const ok = await fire(repo, hooks, 'BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'npm test' } });
    expect(ok[0].isBlockingDecision()).toBe(false);
    expect(ok[0].getModifiedToolInput()).toBeUndefined();
    expect(await fire(repo, hooks, 'BeforeTool', { tool_name: 'read_file', tool_input: { file_path: 'x' } })).toHaveLength(0);
  });

  it('injects the session into git handoff commands, and the rewritten command writes as this session', async () => {
    const { repo, hooks } = await wired();
    const [out] = await fire(repo, hooks, 'BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'git handoff write auth-refactor -m "note"', dir_path: repo.dir } });
    expect(out.isBlockingDecision()).toBe(false);
    const input = out.getModifiedToolInput();
    expect(input.command).toContain(`GIT_HANDOFF_SESSION='${ME}'`);
    const { execaSync } = await import('execa');
    expect(execaSync('bash', ['-c', input.command], { cwd: repo.dir, reject: false }).exitCode).toBe(0);
    expect(repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/auth-refactor']).stdout.trim()).toBe(ME);
  });

  it('gives context at session start and after a tool, and asks once for a handoff after the agent', async () => {
    const { repo, hooks } = await wired();
    await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } });
    const [start] = await fire(repo, hooks, 'SessionStart', { source: 'startup' });
    expect(start.getAdditionalContext()).toContain('auth-refactor');
    // The write is recorded before the tool runs and counts once the file shows it ran (src/handoff/state/ledger.ts).
    const tool = { tool_name: 'write_file', tool_input: { file_path: path.join(repo.dir, 'a.txt'), content: 'x' } };
    const [before] = await fire(repo, hooks, 'BeforeTool', tool);
    expect(before.isBlockingDecision()).toBe(false);
    repo.write('a.txt', 'x');
    const [after] = await fire(repo, hooks, 'AfterTool', { ...tool, tool_response: {} });
    expect(after.isBlockingDecision()).toBe(false);
    const [stop] = await fire(repo, hooks, 'AfterAgent', { prompt: 'p', prompt_response: 'done', stop_hook_active: false });
    expect(stop.isBlockingDecision()).toBe(true);
    expect(stop.getEffectiveReason()).toContain('git handoff write');
    const [again] = await fire(repo, hooks, 'AfterAgent', { prompt: 'p', prompt_response: 'done', stop_hook_active: false });
    expect(again.isBlockingDecision()).toBe(false);
  });
});
