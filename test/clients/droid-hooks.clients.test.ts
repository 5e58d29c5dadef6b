// The real Factory droid (0.225.2), offline against a scripted Chat Completions API (a BYOK custom model of provider
// generic-chat-completion-api in ~/.factory/settings.json, no Factory login), with a logging hook on every event of
// the repository's .factory/hooks.json: what it sends for a shell call, a create, an edit, a shell delete, an MCP
// tool and a read; how it starts the hook; which answers refuse and what the model then reads; the session variable a
// SessionStart hook can hand the shell through CLAUDE_ENV_FILE. Observed facts: test/clients/tools/droid/README.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { chatServer, type ScriptCall } from './chat-script';
import { DROID_OFFLINE, ensureDroid, FAKE_MCP, HOOK_LOG_SCRIPT, logLines, useOffline } from './deps';

const client = useOffline(DROID_OFFLINE, 'droid', ensureDroid);
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'];

/** A repository whose .factory/hooks.json runs the logging hook on every event (its own top-level keys, no "hooks"). */
function hookedRepo(): TestRepo {
  const repo = makeRepo({ commit: true });
  mkdirSync(path.join(repo.dir, '.factory'));
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ ...(e.endsWith('ToolUse') ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: `${HOOK_LOG_SCRIPT} ${e}` }] }]]));
  writeFileSync(path.join(repo.dir, '.factory', 'hooks.json'), JSON.stringify(hooks, null, 2));
  return repo;
}

/** One `droid exec --auto high` turn with the script, the fake API as its custom model and the fake MCP server. */
async function run(repo: TestRepo, script: ScriptCall[], extra: Record<string, string> = {}) {
  const api = await chatServer(script);
  try {
    mkdirSync(path.join(repo.home, '.factory'), { recursive: true });
    const model = { model: 'fake-model', displayName: 'Fake', baseUrl: api.url, apiKey: 'sk-fake', provider: 'generic-chat-completion-api', maxOutputTokens: 4096 };
    writeFileSync(path.join(repo.home, '.factory', 'settings.json'), JSON.stringify({ customModels: [model] }));
    writeFileSync(path.join(repo.home, '.factory', 'mcp.json'), JSON.stringify({ mcpServers: { fake: { type: 'stdio', command: process.execPath, args: [FAKE_MCP] } } }));
    const env = { ...(repo.env as Record<string, string>), HOOK_LOG: path.join(repo.home, 'hook.log'), ...extra };
    const r = await execa(client.path, ['exec', '-m', 'custom:Fake-0', '-o', 'json', '--auto', 'high', 'do the task'], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 240_000, input: '' });
    return { r, api, log: logLines(env.HOOK_LOG) };
  } finally {
    await api.close();
  }
}

const execute = (command: string): ScriptCall => ({ tool: 'Execute', args: { summary: 'Run the given command now', command, riskLevelReason: 'It only touches scratch files.', riskLevel: 'low' } });

describe('Factory droid, offline: the hook payloads', () => {
  it("sends Claude Code's payload with droid's own tools (Execute, Create, Edit, <server>___<tool>), session_id; runs the command with sh -c", async () => {
    const repo = hookedRepo();
    const file = path.join(repo.dir, 'new.txt');
    const { r, api, log } = await run(repo, [
      execute('echo one > shell.txt'),
      { tool: 'Create', args: { file_path: file, content: 'hello\n' } },
      { tool: 'Edit', args: { file_path: file, old_str: 'hello', new_str: 'bye' } },
      execute('rm shell.txt'),
      { tool: 'ToolSearch', args: { query: 'select:fake___write_note' } },
      { tool: 'fake___write_note', args: { path: 'note.txt', content: 'x' } },
      { tool: 'Read', args: { file_path: file } },
    ]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'result', is_error: false, session_id: expect.any(String) });
    const session = JSON.parse(r.stdout).session_id;
    expect(readFileSync(file, 'utf8')).toBe('bye\n');
    expect(existsSync(path.join(repo.dir, 'shell.txt'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, 'note.txt'), 'utf8')).toBe('x');
    expect(api.results.every((x) => x !== undefined)).toBe(true);
    const pre = log.filter((l) => l.event === 'PreToolUse').map((l) => l.stdin);
    expect(pre.map((p) => p.tool_name)).toEqual(['Execute', 'Create', 'Edit', 'Execute', 'ToolSearch', 'fake___write_note', 'Read']);
    for (const p of log.map((l) => l.stdin)) expect(p).toMatchObject({ session_id: session, cwd: repo.dir, hook_event_name: expect.any(String), transcript_path: expect.stringContaining(`${session}.jsonl`) });
    expect(pre[0]).toMatchObject({ hook_event_name: 'PreToolUse', permission_mode: 'auto-high', tool_input: { command: 'echo one > shell.txt', riskLevel: 'low' } });
    expect(pre[1].tool_input).toEqual({ file_path: file, content: 'hello\n' });
    expect(pre[2].tool_input).toEqual({ file_path: file, old_str: 'hello', new_str: 'bye' });
    expect(pre[3].tool_input.command).toBe('rm shell.txt');
    expect(pre[5].tool_input).toEqual({ path: 'note.txt', content: 'x' });
    expect(log.find((l) => l.event === 'SessionStart').stdin).toMatchObject({ source: 'startup', CLAUDE_ENV_FILE: expect.any(String) });
    expect(log.find((l) => l.event === 'SessionEnd').stdin).toMatchObject({ reason: 'other' });
    expect(log.find((l) => l.event === 'Stop').stdin).toMatchObject({ stop_hook_active: false });
    const one = log.find((l) => l.event === 'PreToolUse');
    expect(one.parent.trim()).toBe(`sh -c ${HOOK_LOG_SCRIPT} PreToolUse`);
    expect(one.env).toMatchObject({ FACTORY_PROJECT_DIR: repo.dir, DROID_PROJECT_DIR: repo.dir, CLAUDE_PROJECT_DIR: repo.dir });
    expect(Object.keys(one.env).filter((k) => /SESSION/.test(k))).toEqual([]);
  });

  it("refuses on Claude Code's hookSpecificOutput deny or on exit 2 (the model reads `Error: <reason>`, the session goes on); ignores a flat permissionDecision, decision block, bad JSON and exit 1", async () => {
    const deny = (reason: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
    const cases: Array<[Record<string, string>, string | null]> = [
      [{ HOOK_ANSWER_PreToolUse: deny('refused (claude shape)') }, 'Error: refused (claude shape)'],
      [{ HOOK_EXIT_PreToolUse: '2', HOOK_STDERR: 'refused (exit 2)' }, 'Error: refused (exit 2)'],
      [{ HOOK_ANSWER_PreToolUse: JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'flat' }) }, null],
      [{ HOOK_ANSWER_PreToolUse: JSON.stringify({ decision: 'block', reason: 'decision block' }) }, null],
      [{ HOOK_ANSWER_PreToolUse: 'not json' }, null],
      [{ HOOK_EXIT_PreToolUse: '1', HOOK_STDERR: 'exit one' }, null],
    ];
    for (const [answer, refused] of cases) {
      const repo = hookedRepo();
      const { api } = await run(repo, [execute('echo BLOCKME > blocked.txt'), execute('echo after > after.txt')], answer);
      expect(existsSync(path.join(repo.dir, 'blocked.txt')), JSON.stringify(answer)).toBe(refused === null);
      expect(existsSync(path.join(repo.dir, 'after.txt')), 'the session goes on').toBe(true);
      if (refused) expect(api.results[0]?.trim()).toBe(refused);
    }
  });

  it('a SessionStart hook that appends to CLAUDE_ENV_FILE puts a variable in every Execute shell; SessionStart additionalContext reaches the model', async () => {
    const repo = hookedRepo();
    const { api } = await run(repo, [execute('env > env.txt')], {
      HOOK_ENV_LINE: 'export GIT_HANDOFF_SESSION=from-session-start',
      HOOK_ALWAYS: '1',
      HOOK_ANSWER_SessionStart: JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'NOTE-FROM-SESSION-START' } }),
    });
    expect(readFileSync(path.join(repo.dir, 'env.txt'), 'utf8')).toContain('GIT_HANDOFF_SESSION=from-session-start');
    expect(JSON.stringify(api.requests[0].messages)).toContain('NOTE-FROM-SESSION-START');
  });
});
