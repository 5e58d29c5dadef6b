// Every call is seen (issue 52), through the real clients offline, each with the filesystem MCP server wired in and
// git-handoff wired by `install --agent`: an MCP server's write, edit or move of another session's handoff file and
// of the client's own wiring refused with nothing changed; its read tools, the client's own read tool, git status and
// an ordinary MCP write allowed; and each client's own gap (Qwen Code's monitor, Codex's interactive shell, Copilot
// CLI's MCP tools through the Claude Code wiring). The same calls in-process, every shape: test/guard/every-call.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientName } from '../../src/clients/names';
import { RECORDS } from '../../src/clients/records';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { PATH_WITH_BIN } from './deps';
import { ENSURE, mcpCall, runClient, type Call, type Run } from './every-client';

const OTHER = 'other-session-5b1e';
const FOREIGN = 'memory/handoff-main-auth-refactor.md';
const THEIRS = `<!-- claude-session: ${OTHER} -->\ntheir note\n`;

/** A committed repository wired for the client, with another session's handoff file and handoff. */
async function world(agent: string): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['install', '--agent', agent], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
  repo.write(FOREIGN, THEIRS);
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', 'wiring and their note']);
  expect((await repo.cli(['write', 'auth-refactor', '-m', 'their plan'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
  return repo;
}

/** Each client's own tools for the ordinary calls: its shell, its read tool. */
/** Each client's own tools for the ordinary calls: its shell, its read tool, its searches and todo list. */
const OWN: Record<string, { shell: (c: string) => Call; read?: (f: string) => Call; more: (dir: string) => Call[] }> = {
  'claude-code': {
    shell: (command) => ({ name: 'Bash', args: { command } }),
    read: (file_path) => ({ name: 'Read', args: { file_path } }),
    more: (dir) => [{ name: 'Grep', args: { pattern: 'their', path: path.join(dir, 'memory') } }, { name: 'Glob', args: { pattern: 'memory/*.md' } }],
  },
  codex: { shell: (cmd) => ({ name: 'exec_command', args: { cmd, login: false, yield_time_ms: 2000 } }), more: () => [] },
  'gemini-cli': {
    shell: (command) => ({ name: 'run_shell_command', args: { command } }),
    read: (file_path) => ({ name: 'read_file', args: { file_path } }),
    // (its todo tool is not offered in -p mode)
    more: () => [{ name: 'grep_search', args: { pattern: 'their' } }, { name: 'glob', args: { pattern: 'memory/*.md' } }],
  },
  copilot: {
    shell: (command) => ({ name: 'bash', args: { command, description: 'run' } }),
    read: (p) => ({ name: 'view', args: { path: p } }),
    more: (dir) => [{ name: 'grep', args: { pattern: 'their', path: path.join(dir, 'memory') } }, { name: 'glob', args: { pattern: 'memory/*.md' } }],
  },
  'qwen-code': {
    shell: (command) => ({ name: 'run_shell_command', args: { command, description: 'run' } }),
    read: (file_path) => ({ name: 'read_file', args: { file_path } }),
    more: () => [{ name: 'grep_search', args: { pattern: 'their' } }, { name: 'glob', args: { pattern: 'memory/*.md' } }, { name: 'todo_write', args: { todos: [{ id: '1', content: 'look', status: 'pending' }] } }],
  },
  opencode: {
    shell: (command) => ({ name: 'bash', args: { command, description: 'run' } }),
    read: (filePath) => ({ name: 'read', args: { filePath } }),
    more: () => [{ name: 'grep', args: { pattern: 'their' } }, { name: 'glob', args: { pattern: 'memory/*.md' } }, { name: 'todowrite', args: { todos: [{ id: '1', content: 'look', status: 'pending', priority: 'low' }] } }],
  },
};

/** A result that is the guard's refusal, in any client's words. */
const REFUSED = /belongs to session|PreToolUse hook|Tool execution blocked|Denied by preToolUse|git handoff (write|archive)|where .* reads its hooks/;

/** What a wiring file wires: a JSON settings file's hooks, any other file's whole text. */
const wiredPart = (text: string): unknown => {
  try {
    return JSON.parse(text).hooks;
  } catch {
    return text;
  }
};

interface Case {
  call: Call;
  /** refused: what must stay as it was; allowed: what the result or the tree shows */
  refused?: () => void;
  allowed?: (result: string) => void;
}

function cases(client: ClientName, repo: TestRepo): Case[] {
  const theirs = path.join(repo.dir, FOREIGN);
  const wiring = path.join(repo.dir, RECORDS[client].wiring!.settings);
  const wiringText = readFileSync(wiring, 'utf8');
  const unchanged = () => expect(readFileSync(theirs, 'utf8')).toBe(THEIRS);
  const own = OWN[client];
  return [
    { call: mcpCall(client, 'write_file', { path: theirs, content: 'mine\n' }), refused: unchanged },
    { call: mcpCall(client, 'edit_file', { path: theirs, edits: [{ oldText: 'their note', newText: 'my note' }] }), refused: unchanged },
    { call: mcpCall(client, 'move_file', { source: theirs, destination: path.join(repo.dir, 'moved.md') }), refused: () => (unchanged(), expect(existsSync(path.join(repo.dir, 'moved.md'))).toBe(false)) },
    // (Qwen Code itself stamps its settings file with a "$version" when it starts: its hooks are what must stay)
    { call: mcpCall(client, 'write_file', { path: wiring, content: '{}\n' }), refused: () => expect(wiredPart(readFileSync(wiring, 'utf8'))).toEqual(wiredPart(wiringText)) },
    { call: mcpCall(client, 'read_text_file', { path: theirs }), allowed: (r) => expect(r).toContain('their note') },
    { call: mcpCall(client, 'list_directory', { path: path.join(repo.dir, 'memory') }), allowed: (r) => expect(r).toContain('handoff-main-auth-refactor.md') },
    { call: mcpCall(client, 'write_file', { path: path.join(repo.dir, 'notes.txt'), content: 'ordinary\n' }), allowed: () => expect(readFileSync(path.join(repo.dir, 'notes.txt'), 'utf8')).toBe('ordinary\n') },
    ...(own.read ? [{ call: own.read(theirs), allowed: (r: string) => expect(r).toContain('their note') }] : []),
    // the line checked first on the line: Qwen Code's terminal capture can lose the end of a chain's output under load
    { call: own.shell('git log --oneline -1 && git status --short'), allowed: (r) => (expect(r).not.toMatch(REFUSED), expect(r).toContain('wiring and their note')) },
    { call: own.shell(`cat ${FOREIGN}; git diff HEAD --stat`), allowed: (r) => (expect(r).not.toMatch(REFUSED), expect(r).toContain('their note')) },
    ...own.more(repo.dir).map((call) => ({ call, allowed: (r: string) => expect(r).not.toMatch(REFUSED) })),
  ];
}

/** Every case's result checked: each call offered and answered, refused ones refused with nothing changed. */
function check(client: string, list: Case[], run: Run): void {
  for (const [i, c] of list.entries()) {
    const what = `${client} #${i} ${c.call.namespace ?? ''}${c.call.name} ${JSON.stringify(c.call.args).slice(0, 120)}`;
    // (a client may offer a tool late: Claude Code's MCP tools are deferred, yet run; what came back tells)
    expect(run.results[i], `${what}: no result came back (offered: ${run.offered[i]})\n${run.out.slice(-2000)}`).toBeDefined();
    expect(run.results[i], `${what}: the client knows no such tool`).not.toMatch(/no such tool|unknown tool|unsupported call|tool .{0,40}not found/i);
    if (c.refused) {
      c.refused();
      expect(run.results[i], what).toMatch(/handoff|hooks|session/);
    } else c.allowed!(run.results[i]!);
  }
}

const RUNS: ClientName[] = ['claude-code', 'codex', 'gemini-cli', 'copilot', 'qwen-code', 'opencode'];

describe('every call is seen, in every real client with an MCP server', () => {
  beforeAll(() => {
    for (const c of RUNS) ENSURE[c]();
  }, 1_800_000);

  for (const client of RUNS) {
    it(`${client}: its MCP server's writes of another session's handoff and of the wiring refused; reads, git status and ordinary writes allowed`, async () => {
      const repo = await world(RECORDS[client].agent!);
      const list = cases(client, repo);
      if (client === 'qwen-code') {
        // monitor runs any shell command (judged as one)
        list.push({ call: { name: 'monitor', args: { command: `rm -f ${FOREIGN}`, description: 'watch' } }, refused: () => expect(readFileSync(path.join(repo.dir, FOREIGN), 'utf8')).toBe(THEIRS) });
      }
      if (client === 'codex') {
        // a shell whose later input (write_stdin) no hook sees: refused, so nothing is typed into it
        list.push({ call: { name: 'exec_command', args: { cmd: 'bash', tty: true, login: false, yield_time_ms: 1000 } }, refused: () => undefined });
        list.push({ call: { name: 'write_stdin', args: { session_id: 1, chars: `echo mine > ${FOREIGN}\n`, yield_time_ms: 1000 } }, refused: () => expect(readFileSync(path.join(repo.dir, FOREIGN), 'utf8')).toBe(THEIRS) });
      }
      const run = await runClient(client, repo, list.map((c) => c.call));
      if (process.env.EVERY_CALL_SHOW) console.log(client, JSON.stringify(run.results.map((r) => r?.slice(0, 160)), null, 1));
      if (client === 'codex') {
        // write_stdin reaches no hook: it finds no shell to type into, since the guard refused the one asked for
        const last = list.pop()!;
        last.refused!();
        expect(run.results[list.length], run.out.slice(-2000)).toMatch(/Unknown process|session|not found/i);
      }
      check(client, list, run);
    }, 600_000);
  }

  it("claude-code reads install's matchers as meant: a read-only tool starts no hook, Bash and Edit the line group, every other tool the rest", async () => {
    const repo = await world('claude');
    // each group's command replaced by one that logs which group got which tool (matchers as install wrote them)
    const file = path.join(repo.dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    const log = path.join(repo.home, 'hooks.log');
    settings.hooks.PreToolUse.forEach((g: any, i: number) => (g.hooks = [{ type: 'command', command: `${process.execPath} -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>require("fs").appendFileSync(process.argv[1], "${i} "+JSON.parse(s).tool_name+"\\n"))' ${log}` }]));
    writeFileSync(file, JSON.stringify(settings));
    const theirs = path.join(repo.dir, FOREIGN);
    const script: Call[] = [
      { name: 'Read', args: { file_path: theirs } },
      { name: 'Glob', args: { pattern: 'memory/*.md' } },
      { name: 'Grep', args: { pattern: 'their' } },
      { name: 'Bash', args: { command: 'true' } },
      { name: 'Write', args: { file_path: path.join(repo.dir, 'notes.txt'), content: 'x\n' } },
      // (Claude Code edits only a file read in the session)
      { name: 'Read', args: { file_path: path.join(repo.dir, 'notes.txt') } },
      { name: 'Edit', args: { file_path: path.join(repo.dir, 'notes.txt'), old_string: 'x', new_string: 'y' } },
      mcpCall('claude-code', 'read_text_file', { path: theirs }),
      mcpCall('claude-code', 'write_file', { path: path.join(repo.dir, 'other.txt'), content: 'x\n' }),
    ];
    const run = await runClient('claude-code', repo, script);
    expect(run.results.every((r) => r !== undefined), run.out.slice(-2000)).toBe(true);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['0 Bash', '1 Write', '0 Edit', '1 mcp__fs__read_text_file', '1 mcp__fs__write_file']);
  }, 600_000);

  it('copilot through the Claude Code wiring alone: its MCP tools (<server>-<tool>) reach the guard', async () => {
    const repo = await world('claude');
    const theirs = path.join(repo.dir, FOREIGN);
    const list: Case[] = [
      { call: mcpCall('copilot', 'write_file', { path: theirs, content: 'mine\n' }), refused: () => expect(readFileSync(theirs, 'utf8')).toBe(THEIRS) },
      { call: mcpCall('copilot', 'move_file', { source: theirs, destination: path.join(repo.dir, 'moved.md') }), refused: () => expect(readFileSync(theirs, 'utf8')).toBe(THEIRS) },
      { call: mcpCall('copilot', 'read_text_file', { path: theirs }), allowed: (r) => expect(r).toContain('their note') },
      { call: { name: 'view', args: { path: theirs } }, allowed: (r) => expect(r).toContain('their note') },
    ];
    const run = await runClient('copilot', repo, list.map((c) => c.call));
    check('copilot (Claude Code wiring)', list, run);
  }, 600_000);
});
