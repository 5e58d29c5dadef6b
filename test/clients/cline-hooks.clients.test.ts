// The real Cline CLI (3.0.65, @cline/sdk), offline against a scripted Chat Completions API (provider
// openai-compatible, set up with `cline auth`), with a logging hook as every .clinerules/hooks/<Event> file: what it
// sends a hook for a shell call, a file create, an edit, a shell delete, an MCP tool and a read; how it starts the
// hook and with which environment; what a {"cancel": true} answer does; and the hub daemon it leaves behind, which
// runs the next turn's hooks with its own environment. Observed facts: test/clients/tools/cline/README.md.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { chatServer, type ScriptCall } from './chat-script';
import { clineLog, freePort, hubOf, runCline, stopHub } from './cline-run';
import { FAKE_MCP, HOOK_LOG_SCRIPT, logLines } from './deps';
const EVENTS = ['TaskStart', 'TaskResume', 'PreToolUse', 'PostToolUse', 'TaskComplete', 'TaskCancel', 'TaskError', 'SessionShutdown', 'UserPromptSubmit'];

/** A repository with the logging hook as every event file Cline reads, and the fake MCP server in its user settings. */
function hookedRepo(): TestRepo {
  const repo = makeRepo({ commit: true });
  const hooks = path.join(repo.dir, '.clinerules', 'hooks');
  mkdirSync(hooks, { recursive: true });
  for (const e of EVENTS) copyFileSync(HOOK_LOG_SCRIPT, path.join(hooks, e));
  const settings = path.join(repo.home, '.cline', 'data', 'settings');
  mkdirSync(settings, { recursive: true });
  writeFileSync(path.join(settings, 'cline_mcp_settings.json'), JSON.stringify({ mcpServers: { fake: { command: process.execPath, args: [FAKE_MCP] } } }));
  return repo;
}

const run = runCline;

const shell = (command: string): ScriptCall => ({ tool: 'run_commands', args: { commands: [command] } });

describe('Cline CLI, offline: the hook payloads', () => {
  it('sends each event file its payload: taskId, sessionContext.rootSessionId, the tool call twice over; runs it as `<shebang interpreter> <file>` with no session variable', async () => {
    const repo = hookedRepo();
    const file = path.join(repo.dir, 'new.txt');
    const api = await chatServer([
      shell('echo one > shell.txt'),
      { tool: 'editor', args: { path: file, new_text: 'hello\n' } },
      { tool: 'editor', args: { path: file, old_text: 'hello', new_text: 'bye' } },
      shell('rm shell.txt'),
      { tool: 'fake__write_note', args: { path: 'note.txt', content: 'x' } },
      { tool: 'read_files', args: { files: [{ path: file }] } },
    ]);
    try {
      const { r, result } = await run(repo, api);
      expect(result?.finishReason, r.stdout + r.stderr).toBe('completed');
    } finally {
      await api.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('bye\n');
    expect(existsSync(path.join(repo.dir, 'shell.txt'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, 'note.txt'), 'utf8')).toBe('x');
    const log = logLines(path.join(repo.home, 'hook.log'));
    const pre = log.filter((l) => l.event === 'PreToolUse').map((l) => l.stdin);
    expect(pre.map((p) => p.tool_call.name)).toEqual(['run_commands', 'editor', 'editor', 'run_commands', 'fake__write_note', 'read_files']);
    const start = log.find((l) => l.event === 'TaskStart').stdin;
    expect(start).toMatchObject({ hookName: 'agent_start', taskId: expect.stringMatching(/^conv_/), sessionContext: { rootSessionId: expect.any(String) }, workspaceRoots: [repo.dir], parent_agent_id: null });
    // every payload of the task carries the same taskId and root session id
    for (const p of log.map((l) => l.stdin)) expect([p.taskId, p.sessionContext.rootSessionId]).toEqual([start.taskId, start.sessionContext.rootSessionId]);
    // the tool call as the model sent it (tool_call.input) and again with every non-string value as JSON text
    expect(pre[0]).toMatchObject({ hookName: 'tool_call', tool_call: { name: 'run_commands', input: { commands: ['echo one > shell.txt'] } }, preToolUse: { toolName: 'run_commands', parameters: { commands: '["echo one > shell.txt"]' } } });
    expect(pre[1].tool_call.input).toEqual({ path: file, new_text: 'hello\n' });
    expect(pre[2].tool_call.input).toEqual({ path: file, old_text: 'hello', new_text: 'bye' });
    expect(pre[3].tool_call.input).toEqual({ commands: ['rm shell.txt'] });
    expect(pre[4].tool_call.input).toEqual({ path: 'note.txt', content: 'x' });
    expect(pre[5].preToolUse.parameters).toEqual({ files: JSON.stringify([{ path: file }]) });
    const post = log.find((l) => l.event === 'PostToolUse').stdin;
    expect(post).toMatchObject({ hookName: 'tool_result', tool_result: { name: 'run_commands', output: [{ query: 'echo one > shell.txt', success: true }] } });
    expect(log.find((l) => l.event === 'TaskComplete').stdin).toMatchObject({ hookName: 'agent_end', turn: { status: 'completed' } });
    // the file is started as its shebang's interpreter with the file as the argument, by the CLI process, in the repository
    const one = log.find((l) => l.event === 'PreToolUse');
    expect(one.cmdline.trim()).toBe(`sh ${path.join(repo.dir, '.clinerules', 'hooks', 'PreToolUse')}`);
    expect(one.parent).toMatch(/bin\/\.cline --json do the task/);
    expect(one.cwd).toBe(repo.dir);
    expect(Object.keys(one.env).filter((k) => /SESSION|TASK|CONV/.test(k))).toEqual([]);
  });

  it('{"cancel": true} stops the whole task before the call runs: the model is told nothing and the next calls never come', async () => {
    const repo = hookedRepo();
    const api = await chatServer([shell('echo BLOCKME > blocked.txt'), shell('echo after > after.txt')]);
    try {
      const { r, result, events } = await run(repo, api, { HOOK_ANSWER_PreToolUse: JSON.stringify({ cancel: true, errorMessage: 'blocked by the test hook' }) });
      expect(result?.finishReason, r.stdout).toBe('aborted');
      expect(events.some((e) => e.type === 'run_aborted')).toBe(true);
      // the reason reaches neither the model nor the output; Cline's own log has it
      expect(r.stdout + r.stderr).not.toContain('blocked by the test hook');
      expect(clineLog(repo)).toContain('blocked by the test hook');
    } finally {
      await api.close();
    }
    expect(existsSync(path.join(repo.dir, 'blocked.txt'))).toBe(false);
    expect(existsSync(path.join(repo.dir, 'after.txt'))).toBe(false);
    expect(api.results).toEqual([undefined, undefined]);
    expect(api.requests).toHaveLength(1);
  });

  it('exit 2, a Claude Code deny and text that is not JSON are all ignored: the call runs', async () => {
    const answers: Array<Record<string, string>> = [
      { HOOK_EXIT_PreToolUse: '2', HOOK_STDERR: 'blocked (exit 2)' },
      { HOOK_ANSWER_PreToolUse: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'claude shape' } }) },
      { HOOK_ANSWER_PreToolUse: 'not json' },
    ];
    for (const answer of answers) {
      const repo = hookedRepo();
      const api = await chatServer([shell('echo BLOCKME > blocked.txt')]);
      try {
        const { result } = await run(repo, api, answer);
        expect(result?.finishReason).toBe('completed');
      } finally {
        await api.close();
      }
      expect(existsSync(path.join(repo.dir, 'blocked.txt')), JSON.stringify(answer)).toBe(true);
    }
  });

  it('leaves a hub daemon; the next turn runs through it, and its hooks get the environment of the turn that started it', async () => {
    const repo = hookedRepo();
    const port = await freePort();
    const api = await chatServer([shell('echo one >> runs.txt')]);
    const api2 = await chatServer([shell('echo two >> runs.txt')]);
    let hubPid: number | undefined;
    try {
      const first = await run(repo, api, { HOOK_LOG: path.join(repo.home, 'first.log') }, port);
      expect(first.result?.finishReason).toBe('completed');
      // the hub starts in the background: wait for its discovery file
      for (let i = 0; i < 100 && !existsSync(first.hub.file); i++) await new Promise((res) => setTimeout(res, 100));
      hubPid = JSON.parse(readFileSync(first.hub.file, 'utf8')).pid;
      const second = await run(repo, api2, { HOOK_LOG: path.join(repo.home, 'second.log') }, port);
      expect(second.result?.finishReason).toBe('completed');
    } finally {
      await api.close();
      await api2.close();
    }
    expect(readFileSync(path.join(repo.dir, 'runs.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(logLines(path.join(repo.home, 'second.log'))).toEqual([]);
    const viaHub = logLines(path.join(repo.home, 'first.log')).filter((l) => l.stdin.tool_call?.input?.commands?.[0] === 'echo two >> runs.txt');
    expect(viaHub).toHaveLength(1);
    expect(viaHub[0].parent).toMatch(new RegExp(`--cline-hub-daemon .*--port ${port}`));
    expect(viaHub[0].env.HOOK_LOG).toBe(path.join(repo.home, 'first.log'));
    expect(hubPid).toBeGreaterThan(0);
    const stopped = await stopHub(hubOf(repo.home)!);
    expect(stopped).toBe(hubPid);
    for (let i = 0; i < 50 && existsSync(`/proc/${hubPid}`); i++) await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(`/proc/${hubPid}`), 'the hub is gone').toBe(false);
  });
});
