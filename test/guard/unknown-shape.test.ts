// No unknown shape is allowed silently (issue 37): a payload whose event or field names the guard does not know, or a
// tool it does not know, is judged on the command lines and paths its tool input carries; a parse that throws is too.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/clients/wiring';
import { FRONT } from './spellings';
import { detectClient, namedClient, readsUnknownShapes } from '../../src/clients/index';
import { RECORDS, WIRING } from '../../src/clients/records';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { unknownShape } from '../../src/clients/event';
import { foreignWorld, FOREIGN_FILE, verdict } from './world';
import { ME } from './helpers';
import { makeRepo } from '../helpers/repo';

const THEIR_REF = 'refs/handoffs/main/auth-refactor';

async function judged(p: Record<string, unknown>, client = 'claude-code'): Promise<{ verdict: string; reason: string; kind: string }> {
  const adapter = detectClient(p, namedClient(['guard', `--client=${client}`]));
  const event = adapter.parse(p);
  const d = await decide(new GuardContext(event, { ...process.env, GIT_HANDOFF_SESSION: undefined }));
  return { verdict: verdict(adapter.render(event, d) ?? ''), reason: d.deny ?? '', kind: event.kind };
}

describe('unknown shapes are judged', () => {
  it('reads a command line under any command-like key, at any depth, and never as a path', () => {
    expect(unknownShape('mcp__shell__exec', { command: 'git status', cwd: '/tmp/x' })).toEqual({ type: 'shell', command: 'git status', cwd: '/tmp/x', stdinUnseen: true });
    expect(unknownShape('mcp__shell__exec', { cmd: ['git', 'update-ref', '-d', THEIR_REF] })).toEqual({ type: 'paths', paths: [], commands: [`git update-ref -d ${THEIR_REF}`] });
    expect(unknownShape('run_task', { task: { label: 'x', command: 'rm -rf memory', args: [] } })).toMatchObject({ type: 'paths', commands: ['rm -rf memory'] });
    // a program and its arguments as an array alone, and a command line under a shell's own name
    expect(unknownShape('mcp__x__exec', { argv: ['git', 'update-ref', '-d', THEIR_REF] })).toMatchObject({ type: 'paths', commands: [`git update-ref -d ${THEIR_REF}`] });
    expect(unknownShape('mcp__x__do', { shell: 'rm -rf memory' })).toMatchObject({ type: 'paths', commands: ['rm -rf memory'] });
    expect(unknownShape('mcp__x__do', { job: { bash: 'rm -rf memory', exec: 'ls' } })).toMatchObject({ type: 'paths', commands: ['rm -rf memory', 'ls'] });
    // a client's read-only tool reads whatever it is given (the clients' records: src/clients/index.ts)
    expect(detectClient({ hook_event_name: 'PreToolUse', session_id: ME, cwd: '/tmp', tool_name: 'Read', tool_input: { command: 'rm -rf memory' } }, 'claude-code').parse({ hook_event_name: 'PreToolUse', session_id: ME, cwd: '/tmp', tool_name: 'Read', tool_input: { command: 'rm -rf memory' } }).action).toEqual({ type: 'other' });
  });

  it('refuses what an unknown event, unknown field names or an unknown tool carry, in several spellings', async () => {
    const repo = await foreignWorld();
    const base = { session_id: ME, cwd: repo.dir };
    const update = `git update-ref -d ${THEIR_REF}`;
    const refused: Array<Record<string, unknown>> = [
      // an event the guard does not know, Claude Code's field names
      { ...base, hook_event_name: 'BeforeToolCall', tool_name: 'Bash', tool_input: { command: update } },
      { ...base, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: update } },
      // no event name at all
      { ...base, tool_name: 'Bash', tool_input: { command: update } },
      // a known event with its tool input under another name (camelCase, a JSON string of arguments)
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', toolInput: { command: update } },
      { ...base, hook_event_name: 'PreToolUse', toolName: 'shell', arguments: JSON.stringify({ command: update }) },
      { ...base, hook_event_name: 'PreToolUse', tool: 'exec', params: { argv: ['x'], cmd: update } },
      // a tool the guard does not know, its command where a path was looked for before
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'mcp__shell__run', tool_input: { command: update } },
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'mcp__shell__run', tool_input: { script: `rm -f ${FOREIGN_FILE}` } },
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'run_task', tool_input: { task: { label: 'x', type: 'shell', command: update } } },
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'mcp__x__exec', tool_input: { argv: ['git', 'update-ref', '-d', THEIR_REF] } },
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'mcp__x__exec', tool_input: { job: { run: update } } },
      { ...base, hook_event_name: 'SomeFutureEvent', tool_name: 'write_anything', tool_input: { target: `${repo.dir}/${FOREIGN_FILE}`, text: 'mine' } },
    ];
    const allowed: Array<Record<string, unknown>> = [
      { ...base, hook_event_name: 'BeforeToolCall', tool_name: 'Bash', tool_input: { command: 'npm test' } },
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'mcp__shell__run', tool_input: { command: `git log -1 ${THEIR_REF}` } },
      // events that carry no tool input stay unjudged, whatever their text says
      { ...base, hook_event_name: 'UserPromptSubmit', prompt: `please run ${update}` },
      { ...base, hook_event_name: 'Notification', message: update },
    ];
    const wrong: string[] = [];
    for (const p of refused) {
      const r = await judged(p);
      if (r.verdict !== 'deny') wrong.push(`allowed (${r.kind}) ${JSON.stringify(p).slice(0, 160)}`);
    }
    for (const p of allowed) {
      const r = await judged(p);
      if (r.verdict !== 'allow') wrong.push(`refused ${JSON.stringify(p).slice(0, 160)}: ${r.reason.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    // through the real sh front as wired for Claude Code: it hands an unknown shape to node, whose refusal comes back
    const command = hookCommand(WIRING.claude, `"${FRONT}" --client=claude-code`);
    for (const p of [refused[0], refused[3], refused[6]]) {
      const r = spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: repo.env, input: JSON.stringify(p), encoding: 'utf8', timeout: 60_000 });
      expect(verdict(r.stdout), JSON.stringify(p).slice(0, 120)).toBe('deny');
    }
  });

  it('an interactive program through an unknown tool is refused where handoffs are, naming the non-interactive way', async () => {
    const repo = await foreignWorld();
    const call = (tool: string, input: Record<string, unknown>) => ({ session_id: ME, cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });
    for (const p of [
      call('mcp__shell__run', { command: 'bash' }),
      call('mcp__shell__run', { cmd: 'python3' }),
      // every interpreter of the one table (src/guard/rules/refs.ts) given no code, and a read-eval loop
      call('mcp__shell__run', { cmd: 'pypy3' }),
      call('mcp__shell__run', { cmd: 'pwsh' }),
      call('mcp__shell__run', { cmd: 'psql' }),
      call('mcp__shell__exec', { command: 'sh', args: [] }),
      call('mcp__shell__exec', { command: 'node', name: 'repl' }),
      call('mcp__term__open', { command: 'bash -i', cwd: repo.dir }),
      call('run_task', { task: { label: 'x', command: 'vim', args: [] } }),
    ]) {
      const r = await judged(p);
      expect(r.verdict, JSON.stringify(p.tool_input)).toBe('deny');
      expect(r.reason).toMatch(/bash -c '<commands>'.*python3 -c/);
    }
    // through the real sh front as wired for Claude Code
    const front = spawnSync('/bin/sh', ['-c', hookCommand(WIRING.claude, `"${FRONT}" --client=claude-code`)], { cwd: repo.dir, env: repo.env, input: JSON.stringify(call('mcp__shell__run', { command: 'bash' })), encoding: 'utf8', timeout: 60_000 });
    expect(verdict(front.stdout)).toBe('deny');
    for (const p of [call('mcp__shell__run', { command: 'ls' }), call('mcp__shell__run', { cmd: 'python3 -c "print(1)"' }), call('mcp__shell__run', { cmd: 'pwsh -Command "Get-Date"' }), call('mcp__shell__run', { cmd: 'nodejs -p 1' }), call('mcp__shell__exec', { command: 'bash', args: ['-c', 'echo hi'] })]) {
      expect((await judged(p)).verdict, JSON.stringify(p.tool_input)).toBe('allow');
    }
    // where git-handoff protects nothing, an interactive program is the tool's business
    const plain = makeRepo({ commit: true });
    const r = await judged({ session_id: ME, cwd: plain.dir, hook_event_name: 'PreToolUse', tool_name: 'mcp__shell__run', tool_input: { command: 'bash' } });
    expect(r.verdict).toBe('allow');
  });

  it("a terminal tool's typed text is a command line: VS Code's sendSequence and send-text tools, its tasks, Copilot's toolArgs as JSON text", async () => {
    const repo = await foreignWorld();
    const vscode = (tool: string, input: Record<string, unknown>) => ({ timestamp: '2026-11-23T21:58:02.117Z', hook_event_name: 'PreToolUse', session_id: ME, cwd: repo.dir, tool_name: tool, tool_input: input });
    const copilot = (tool: string, args: Record<string, unknown>) => ({ sessionId: ME, timestamp: 1795402127264, cwd: repo.dir, toolName: tool, toolArgs: JSON.stringify(args) });
    const refused: Array<[Record<string, unknown>, string]> = [
      [vscode('run_in_terminal', { command: `rm ${FOREIGN_FILE}`, explanation: 'x' }), 'vscode'],
      [vscode('terminal_send_sequence', { sequence: `rm ${FOREIGN_FILE}\n` }), 'vscode'],
      [vscode('sendSequence', { text: `rm ${FOREIGN_FILE}\r` }), 'vscode'],
      [vscode('send_to_terminal', { terminalId: 't1', text: `git update-ref -d ${THEIR_REF}` }), 'vscode'],
      [vscode('create_and_run_task', { workspaceFolder: repo.dir, task: { label: 'x', type: 'shell', command: 'rm', args: [FOREIGN_FILE] } }), 'vscode'],
      [vscode('create_and_run_task', { command: 'git', args: ['update-ref', '-d', THEIR_REF] }), 'vscode'],
      [copilot('bash', { command: `git update-ref -d ${THEIR_REF}` }), 'copilot'],
      [copilot('create', { path: `${repo.dir}/${FOREIGN_FILE}`, file_text: 'x' }), 'copilot'],
    ];
    const allowed: Array<[Record<string, unknown>, string]> = [
      [vscode('terminal_send_sequence', { sequence: 'npm test\n' }), 'vscode'],
      [vscode('get_terminal_output', { id: 'x' }), 'vscode'],
      [copilot('bash', { command: 'npm test' }), 'copilot'],
    ];
    const wrong: string[] = [];
    for (const [p, client] of refused) if ((await judged(p, client)).verdict !== 'deny') wrong.push(`allowed ${JSON.stringify(p).slice(0, 200)}`);
    for (const [p, client] of allowed) if ((await judged(p, client)).verdict !== 'allow') wrong.push(`refused ${JSON.stringify(p).slice(0, 200)}`);
    expect(wrong).toEqual([]);
  });

  it('an adapter that throws is read as an unknown shape: the call it carries is judged, not allowed for the throw', async () => {
    const repo = await foreignWorld();
    const throwing = readsUnknownShapes({ ...RECORDS['claude-code'].adapter, parse: () => { throw new Error('boom'); } });
    const p = { session_id: ME, cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `git update-ref -d ${THEIR_REF}` } };
    const event = throwing.parse(p);
    expect(event).toMatchObject({ kind: 'pre-tool', action: { type: 'shell' } });
    const d = await decide(new GuardContext(event, process.env));
    expect(d.deny).toMatch(/refs\/handoffs/);
    // with nothing to judge the error stays an error (logged by the guard, which allows only what names nothing)
    expect(() => throwing.parse({ session_id: ME, hook_event_name: 'Stop' })).toThrow('boom');
  });
});
