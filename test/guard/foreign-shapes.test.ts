// A payload of another client's shape arriving at a client's wiring (issue 70, class 5): whatever wiring it reaches,
// a call of any client's shape that writes or removes another session's handoff file or deletes its handoff ref is
// refused, in that wiring's own protocol; each client's own harmless calls stay allowed.
import { describe, expect, it } from 'vitest';
import { answerParts } from '../../src/clients/answer';
import { detectClient, namedClient } from '../../src/clients/index';
import { RECORDS } from '../../src/clients/records';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { foreignWorld, FOREIGN_FILE, malformed, verdict } from './world';
import { ME } from './helpers';

const THEIR_REF = 'refs/handoffs/main/auth-refactor';

type Call = { kind: 'write'; file: string; content: string } | { kind: 'shell'; command: string };

/** One tool call in each client's own shape (its event, its session, its nesting, its tool vocabulary). */
const SHAPES: Record<string, (dir: string, c: Call) => Record<string, unknown>> = {
  'claude-code': (dir, c) => ({ hook_event_name: 'PreToolUse', session_id: ME, cwd: dir, ...(c.kind === 'write' ? { tool_name: 'Write', tool_input: { file_path: c.file, content: c.content } } : { tool_name: 'Bash', tool_input: { command: c.command } }) }),
  'gemini-cli': (dir, c) => ({ hook_event_name: 'BeforeTool', session_id: ME, cwd: dir, timestamp: '2026-11-27T00:00:00Z', ...(c.kind === 'write' ? { tool_name: 'write_file', tool_input: { file_path: c.file, content: c.content } } : { tool_name: 'run_shell_command', tool_input: { command: c.command } }) }),
  copilot: (dir, c) => ({ sessionId: ME, timestamp: 1795402127264, cwd: dir, ...(c.kind === 'write' ? { toolName: 'create', toolArgs: JSON.stringify({ path: c.file, file_text: c.content }) } : { toolName: 'bash', toolArgs: JSON.stringify({ command: c.command }) }) }),
  cline: (dir, c) => ({ hookName: 'tool_call', taskId: ME, sessionContext: { rootSessionId: ME }, workspaceRoots: [dir], tool_call: { id: 't1', ...(c.kind === 'write' ? { name: 'editor', input: { path: c.file, new_text: c.content } } : { name: 'run_commands', input: { commands: [c.command] } }) } }),
  // Cline's VS Code extension: Claude Code's event names, the call nested under preToolUse, its own tool names
  'cline-extension': (dir, c) => ({ clineVersion: '3.36.0', hookName: 'PreToolUse', timestamp: '1795402127264', taskId: ME, workspaceRoots: [dir], userId: 'u', preToolUse: c.kind === 'write' ? { toolName: 'write_to_file', parameters: { path: c.file, content: c.content } } : { toolName: 'execute_command', parameters: { command: c.command, requires_approval: 'false' } } }),
};

/** The decision on `p` as the wiring of `client` reads it, rendered in that client's protocol. */
async function through(client: string, p: Record<string, unknown>): Promise<{ verdict: string; out: string; reason: string }> {
  const adapter = detectClient(p, namedClient(['guard', `--client=${client}`]));
  const event = adapter.parse(p);
  const d = await decide(new GuardContext(event, { ...process.env, GIT_HANDOFF_SESSION: undefined }));
  const out = adapter.render(event, d) ?? '';
  return { verdict: verdict(out), out, reason: d.deny ?? '' };
}

describe("another client's shape at a client's wiring", () => {
  it("refuses another session's handoff file written or removed and its ref deleted, whichever wiring the call reaches", async () => {
    const repo = await foreignWorld();
    const theirs = `${repo.dir}/${FOREIGN_FILE}`;
    const calls: Call[] = [
      { kind: 'write', file: theirs, content: `<!-- claude-session: ${ME} -->\nmine now\n` },
      { kind: 'shell', command: `rm -f ${theirs}` },
      { kind: 'shell', command: `git -C ${repo.dir} update-ref -d ${THEIR_REF}` },
    ];
    const wrong: string[] = [];
    for (const client of Object.keys(RECORDS)) {
      for (const [shape, make] of Object.entries(SHAPES)) {
        // a client's own shape is its reader's to judge (its own tests); here every other one
        if (shape === client || (shape === 'cline-extension' && client === 'cline')) continue;
        for (const c of calls) {
          const p = make(repo.dir, c);
          const r = await through(client, p);
          if (r.verdict !== 'deny') wrong.push(`${client} allowed ${shape}'s ${c.kind === 'write' ? 'write' : c.command.split(' ')[0]}: ${r.out.slice(0, 100)}`);
          const bad = malformed(client as never, answerParts(r.out).stdout);
          if (bad) wrong.push(`${client} answered ${shape}'s call badly: ${bad}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("Cline's extension shape is read as Cline's: its session from taskId, its tools judged, its refusal a cancel", async () => {
    const repo = await foreignWorld();
    const ext = SHAPES['cline-extension'];
    const theirs = `${repo.dir}/${FOREIGN_FILE}`;
    const p = ext(repo.dir, { kind: 'write', file: 'src/a.ts', content: 'a\n' });
    const event = detectClient(p, 'cline').parse(p);
    expect(event).toMatchObject({ kind: 'pre-tool', session: ME, tool: 'write_to_file', action: { type: 'write', path: 'src/a.ts' } });
    const edit = { ...p, preToolUse: { toolName: 'replace_in_file', parameters: { path: theirs, diff: '------- SEARCH\ntheir note\n=======\nmine\n+++++++ REPLACE' } } };
    expect(detectClient(edit, 'cline').parse(edit).action).toEqual({ type: 'edit', path: theirs, edits: [{ oldText: 'their note', newText: 'mine' }] });
    const refused = await through('cline', edit);
    expect(refused.verdict).toBe('deny');
    expect(JSON.parse(refused.out)).toEqual({ cancel: true, errorMessage: expect.stringContaining(FOREIGN_FILE) });
    // its own calls that would delete their ref, remove their file or rewrite the wiring are refused too
    expect((await repo.cli(['install', '--agent', 'cline'])).exitCode).toBe(0);
    for (const c of [{ kind: 'shell', command: `git update-ref -d ${THEIR_REF}` }, { kind: 'shell', command: `rm ${FOREIGN_FILE}` }, { kind: 'write', file: `${repo.dir}/.clinerules/hooks/PreToolUse`, content: '#!/bin/sh\nexit 0\n' }] as Call[]) {
      expect((await through('cline', ext(repo.dir, c))).verdict, JSON.stringify(c)).toBe('deny');
    }
    // through the real guard as Cline's hook file runs it
    const real = await repo.cli(['guard', '--client=cline'], { input: JSON.stringify(edit) });
    expect(JSON.parse(String(real.stdout))).toMatchObject({ cancel: true });
    const harmless = await repo.cli(['guard', '--client=cline'], { input: JSON.stringify(ext(repo.dir, { kind: 'shell', command: 'npm test' })) });
    expect(String(harmless.stdout).trim()).toBe('');
    // its reading tools read, whatever they name
    const read = { ...p, preToolUse: { toolName: 'read_file', parameters: { path: theirs } } };
    expect(detectClient(read, 'cline').parse(read).action).toEqual({ type: 'other' });
  });

  it("each client's own harmless calls stay allowed", async () => {
    const repo = await foreignWorld();
    const wrong: string[] = [];
    for (const [shape, make] of Object.entries(SHAPES)) {
      const client = shape === 'cline-extension' ? 'cline' : shape;
      for (const c of [{ kind: 'write', file: `${repo.dir}/src/new.ts`, content: 'x\n' }, { kind: 'shell', command: 'npm test' }, { kind: 'shell', command: `git -C ${repo.dir} log -1 ${THEIR_REF}` }] as Call[]) {
        const r = await through(client, make(repo.dir, c));
        if (r.verdict !== 'allow') wrong.push(`${shape} refused ${JSON.stringify(c).slice(0, 100)}: ${r.reason.slice(0, 160)}`);
      }
    }
    // an extension event that carries no call is no call
    for (const hookName of ['TaskStart', 'UserPromptSubmit', 'TaskComplete']) {
      const r = await through('cline', { clineVersion: '3.36.0', hookName, taskId: ME, workspaceRoots: [repo.dir], userPromptSubmit: { prompt: `rm ${FOREIGN_FILE}` } });
      if (r.verdict !== 'allow') wrong.push(`${hookName} refused: ${r.reason.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('an unknown event naming a tool whose arguments cannot be read is refused, not allowed unseen', async () => {
    const repo = await foreignWorld();
    const p = { hookName: 'BeforeSomething', taskId: ME, workspaceRoots: [repo.dir], toolUse: { toolName: 'write_to_file', blob: 42 } };
    for (const client of ['cline', 'claude-code', 'gemini-cli']) {
      const r = await through(client, p);
      expect(r.verdict, client).toBe('deny');
      expect(r.reason).toMatch(/shape git-handoff cannot read/);
    }
  });
});
