// One wiring, many readers (issue 56): Copilot CLI, VS Code's agent, Cursor (its third-party configs setting) and Devin
// CLI run the hooks of `.claude/settings.json` as `install --agent claude` writes them, each sending its own payload.
// Through the exact commands installed (this checkout's sh front on PATH, run with `sh -c`), the guard tells each
// reader apart, refuses in that reader's protocol with that reader's session, and, where the reader's own git-handoff
// wiring is there too, answers each call once: the wiring made for it answers, the other says nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matcherRoutes } from '../../src/clients/record';
import { WIRING } from '../../src/clients/records';
import { foreignWorld, FOREIGN_FILE, OWN_FILE } from '../guard/world';
import { json, ROOT, type TestRepo } from '../helpers/repo';
import { ME, payload } from '../guard/helpers';

const PATH_ENV = (repo: TestRepo) => ({ ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` });

interface Answer {
  /** which wiring's command gave it */
  by: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The before-tool hooks of a wiring's file, each [matcher, command], as install wrote them. */
function hooksOf(repo: TestRepo, agent: 'claude' | 'copilot' | 'cursor' | 'devin'): Array<{ matcher?: string; command: string }> {
  const file = path.join(repo.dir, WIRING[agent].settings);
  if (!existsSync(file)) return [];
  const j = JSON.parse(readFileSync(file, 'utf8'));
  if (agent === 'copilot') return j.hooks.preToolUse.map((h: any) => ({ command: h.bash }));
  if (agent === 'cursor') return j.hooks.preToolUse.map((h: any) => ({ command: h.command }));
  const groups = agent === 'devin' ? j.PreToolUse : j.hooks.PreToolUse;
  return groups.flatMap((g: any) => g.hooks.map((h: any) => ({ matcher: g.matcher, command: h.command })));
}

/**
 * Every before-tool hook the reader runs for a call of `tool`: those of Claude Code's file whose matcher routes it
 * (every group for a reader that ignores matchers: VS Code's agent), and those of its own wiring when there.
 */
function answers(repo: TestRepo, p: Record<string, unknown>, tool: string, o: { native?: 'copilot' | 'cursor' | 'devin'; allGroups?: boolean; env?: Record<string, string> }): Answer[] {
  const runs = [
    ...hooksOf(repo, 'claude').filter((h) => o.allGroups || matcherRoutes(h.matcher, tool)).map((h) => ({ by: 'claude', ...h })),
    ...(o.native ? hooksOf(repo, o.native).filter((h) => matcherRoutes(h.matcher, tool)).map((h) => ({ by: o.native!, ...h })) : []),
  ];
  return runs.map(({ by, command }) => ({ by, ...spawnHook(repo, command, p, o.env ?? {}) }));
}

/** The answers that said anything (a refusal, a context): the ones the reader acts on. */
const said = (as: Answer[]) => as.filter((a) => a.stdout !== '' || a.status !== 0);

async function installed(repo: TestRepo, agents: string): Promise<void> {
  const r = await repo.cli(['install', '--agent', agents, '--no-hooks'], { env: PATH_ENV(repo) });
  expect(r.exitCode, String(r.stderr)).toBe(0);
}

describe("Claude Code's wiring read by other clients: each answered in its own protocol, once a call", () => {
  it('Cursor: its payload is Cursor’s (its conversation_id its session), refused as Cursor reads a refusal; with .cursor/hooks.json there, that one answers, once', async () => {
    const repo = await foreignWorld();
    await installed(repo, 'claude');
    const write = payload(repo, 'cursor/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, FOREIGN_FILE), content: 'mine\n' } });
    const rm = payload(repo, 'cursor/pre-tool-use-shell.json', { tool_input: { command: `rm ${FOREIGN_FILE}`, working_directory: repo.dir } });
    // Cursor maps Claude Code's matchers onto its tools (Bash to Shell, Edit and Write to Write): Shell and Write can
    // match both of Claude Code's PreToolUse groups, and each group that runs refuses alike (docs/clients.md)
    for (const [p, tool] of [[write, 'Write'], [rm, 'Shell']] as const) {
      const got = said(answers(repo, p, tool, { allGroups: true }));
      expect(got.length, JSON.stringify(got)).toBeGreaterThan(0);
      for (const a of got) {
        expect(a.status).toBe(0);
        expect(JSON.parse(a.stdout)).toMatchObject({ permission: 'deny', agent_message: expect.stringContaining('auth-refactor') });
      }
    }
    // its session is its own: its own handoff file it may write
    const own = payload(repo, 'cursor/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, OWN_FILE), content: `<!-- claude-session: ${ME} -->\nmine\n` } });
    expect(said(answers(repo, own, 'Write', { allGroups: true })).filter((a) => JSON.parse(a.stdout).permission === 'deny')).toEqual([]);
    await installed(repo, 'cursor');
    for (const [p, tool] of [[write, 'Write'], [rm, 'Shell']] as const) {
      const got = said(answers(repo, p, tool, { native: 'cursor', allGroups: true }));
      expect(got.map((a) => a.by), JSON.stringify(got)).toEqual(['cursor']);
      expect(JSON.parse(got[0].stdout).permission).toBe('deny');
    }
    const doctor = json(await repo.cli(['doctor', '--json'], { env: PATH_ENV(repo) }));
    expect(doctor.items.find((i: any) => i.component === 'agent cursor').detail).toMatch(/stand aside for its calls, so this wiring answers each call once/);
  });

  it('Devin CLI: exec, write and edit reach the guard through the allBut matchers; refused by exit 2 with the reason on stderr; with .devin/hooks.v1.json there, that one answers', async () => {
    const repo = await foreignWorld();
    await installed(repo, 'claude');
    // Devin's tool names route through Claude Code's matchers (its read tool too: the guard reads it as a read)
    for (const tool of ['exec', 'write', 'edit', 'notebook_edit', 'mcp__fs__write_file']) expect(hooksOf(repo, 'claude').some((h) => matcherRoutes(h.matcher, tool)), tool).toBe(true);
    const env = { DEVIN_PROJECT_DIR: repo.dir };
    const write = payload(repo, 'devin/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, FOREIGN_FILE), content: 'mine\n' } });
    const rm = payload(repo, 'devin/pre-tool-use-exec.json', { tool_input: { command: `rm ${FOREIGN_FILE}` } });
    for (const [p, tool] of [[write, 'write'], [rm, 'exec']] as const) {
      const got = said(answers(repo, p, tool, { env }));
      expect(got, JSON.stringify(got)).toHaveLength(1);
      expect(got[0]).toMatchObject({ status: 2, stdout: '', stderr: expect.stringContaining('auth-refactor') });
    }
    expect(said(answers(repo, payload(repo, 'devin/pre-tool-use-exec.json', { tool_input: { command: 'git status' } }), 'exec', { env }))).toEqual([]);
    await installed(repo, 'devin');
    for (const [p, tool] of [[write, 'write'], [rm, 'exec']] as const) {
      const got = said(answers(repo, p, tool, { native: 'devin', env }));
      expect(got.map((a) => [a.by, a.status]), JSON.stringify(got)).toEqual([['devin', 2]]);
    }
  });

  it("VS Code's agent: Claude Code's answers from the Claude Code wiring; Copilot's hooks file, which it runs too, stands aside", async () => {
    const repo = await foreignWorld();
    await installed(repo, 'claude,copilot');
    const rm = payload(repo, 'vscode/pre-tool-use-run-in-terminal.json', { tool_input: { command: `rm ${FOREIGN_FILE}`, explanation: 'x', isBackground: false } });
    // VS Code ignores matchers: every group of both files runs
    const got = said(answers(repo, rm, 'run_in_terminal', { native: 'copilot', allGroups: true }));
    expect(got.map((a) => a.by), JSON.stringify(got)).toEqual(['claude']);
    expect(JSON.parse(got[0].stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    const doctor = json(await repo.cli(['doctor', '--json'], { env: PATH_ENV(repo) }));
    expect(doctor.items.find((i: any) => i.component === 'agent vscode').detail).toMatch(/git-handoff\.json too, which stands aside for its calls/);
    // without the Claude Code wiring, Copilot's file answers VS Code's call in VS Code's shape
    await repo.cli(['uninstall', '--agent', 'claude']);
    const alone = said(answers(repo, rm, 'run_in_terminal', { native: 'copilot', allGroups: true }));
    expect(alone.map((a) => a.by)).toEqual(['copilot']);
    expect(JSON.parse(alone[0].stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
  });

  it("Copilot CLI: Claude Code's answer with Copilot's session; with its own hooks file there, that one answers", async () => {
    const repo = await foreignWorld();
    await installed(repo, 'claude');
    const env = { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: repo.dir };
    const write = payload(repo, 'copilot/real-claude-pre-tool-use-write.json', { tool_input: { path: path.join(repo.dir, FOREIGN_FILE), file_text: 'mine\n' } });
    const got = said(answers(repo, write, 'Write', { env }));
    expect(got, JSON.stringify(got)).toHaveLength(1);
    expect(JSON.parse(got[0].stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    await installed(repo, 'copilot');
    const native = payload(repo, 'copilot/real-pre-tool-use-create.json', { sessionId: ME, toolArgs: { path: path.join(repo.dir, FOREIGN_FILE), file_text: 'mine\n' } }, null);
    // the same call reaches both: through Claude Code's file in Claude Code's shape, and natively in Copilot's
    expect(said(answers(repo, write, 'Write', { env }))).toEqual([]);
    const mine = said(hooksOf(repo, 'copilot').map((h) => ({ by: 'copilot', ...spawnHook(repo, h.command, native, env) })));
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0].stdout).permissionDecision).toBe('deny');
  });
});

function spawnHook(repo: TestRepo, command: string, p: unknown, env: Record<string, string>) {
  const r = spawnSync('sh', ['-c', command], { cwd: repo.dir, env: { ...PATH_ENV(repo), ...env }, input: JSON.stringify(p), encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}
