// Every call is seen (issue 52), in-process through each client's payload shape: the gaps the issue found (MCP tools
// writing another session's handoff file, a command given as command + args, code run by a tool, Qwen Code's monitor,
// Codex's interactive shell, a caller whose session cannot be read, another worktree's wiring, the clients' trust
// files) refused with nothing left to chance, and a corpus of ordinary calls (every client's read-only tools, an MCP
// server's read tools, searches, the web, todo lists, subagents, git status/log/diff, ordinary writes) never refused.
// The same calls through the real clients: test/clients/every-call.clients.test.ts.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClientName } from '../../src/clients/names';
import { detectClient } from '../../src/clients/index';
import { ALL_RECORDS, RECORDS } from '../../src/clients/records';
import { matcherRoutes } from '../../src/clients/record';
import { opencodePlugin } from '../../src/clients/opencode';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { foreignWorld, FOREIGN_FILE, OWN_FILE, verdict } from './world';
import { makeRepo, tempDir, type TestRepo } from '../helpers/repo';
import { ME, OTHER } from './helpers';

/** A before-tool call of `tool` with `input`, in `client`'s payload shape. */
function call(client: ClientName, repo: TestRepo, tool: string, input: Record<string, unknown>, session: string | null = ME): Record<string, unknown> {
  const s = session === null ? {} : { session_id: session };
  switch (client) {
    case 'gemini-cli':
      return { ...s, cwd: repo.dir, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: tool, tool_input: input };
    case 'codex':
      return { ...s, cwd: repo.dir, hook_event_name: 'PreToolUse', turn_id: 't1', permission_mode: 'default', tool_name: tool, tool_input: input };
    case 'copilot':
      return { ...(session === null ? {} : { sessionId: session }), timestamp: Date.now(), cwd: repo.dir, toolName: tool, toolArgs: input };
    case 'cursor':
      return { ...(session === null ? {} : { conversation_id: session }), generation_id: 'g1', cwd: repo.dir, workspace_roots: [repo.dir], hook_event_name: 'preToolUse', tool_name: tool, tool_input: input };
    case 'vscode':
      return { ...s, cwd: repo.dir, hook_event_name: 'PreToolUse', timestamp: new Date().toISOString(), tool_name: tool, tool_input: input, tool_use_id: 'call_1' };
    case 'cline':
      return { ...(session === null ? {} : { taskId: `conv_${session}`, sessionContext: { rootSessionId: session } }), hookName: 'tool_call', workspaceRoots: [repo.dir], agent_id: 'agent_1', parent_agent_id: null, tool_call: { id: 'call_1', name: tool, input } };
    case 'windsurf': {
      // a hook per kind of action: an MCP tool's, a command's, a file write's
      const common = { ...(session === null ? {} : { trajectory_id: session }), execution_id: 'e1', timestamp: new Date().toISOString() };
      const m = /^mcp_([^_]+)_(.*)$/.exec(tool);
      if (m) return { ...common, agent_action_name: 'pre_mcp_tool_use', tool_info: { mcp_server_name: m[1], mcp_tool_name: m[2], mcp_tool_arguments: input } };
      if (tool === 'run_command') return { ...common, agent_action_name: 'pre_run_command', tool_info: { command_line: input.command, cwd: repo.dir } };
      return { ...common, agent_action_name: 'pre_write_code', tool_info: { file_path: input.file_path, edits: [{ old_string: '', new_string: input.content }] } };
    }
    case 'kiro':
      // no session id in any Kiro payload
      return { cwd: repo.dir, hook_event_name: 'preToolUse', tool_name: tool, tool_input: input };
    case 'augment':
      return { ...(session === null ? {} : { conversation_id: session }), workspace_roots: [repo.dir], hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, is_mcp_tool: tool.includes('_') };
    case 'crush':
      return { ...s, cwd: repo.dir, event: 'PreToolUse', tool_name: tool, tool_input: input };
    case 'devin-cli':
      // Devin sends no cwd (its hooks get DEVIN_PROJECT_DIR): given here so that relative paths resolve in the repository
      return { ...s, cwd: repo.dir, hook_event_name: 'PreToolUse', prompt_id: 'p1', tool_name: tool, tool_input: input };
    default:
      return { ...s, cwd: repo.dir, hook_event_name: 'PreToolUse', permission_mode: 'default', tool_name: tool, tool_input: input };
  }
}

const CLIENTS = ALL_RECORDS.map((r) => r.name);
/** An MCP server's tool as `client` names it (its record's mcpNames). */
const mcp = (client: ClientName, tool: string, server = 'fs') => RECORDS[client].mcpNames.replace('<server>', server).replace('<tool>', tool);

async function judge(p: Record<string, unknown>, named: ClientName, env: NodeJS.ProcessEnv = {}): Promise<{ verdict: string; reason: string }> {
  const adapter = detectClient(p, named);
  const event = adapter.parse(p);
  const ctx = new GuardContext(event, { ...process.env, GIT_HANDOFF_SESSION: undefined, GIT_HANDOFF_BYPASS: undefined, COPILOT_CLI: undefined, ...env });
  const d = await decide(ctx);
  return { verdict: verdict(adapter.render(event, d) ?? ''), reason: d.deny ?? '' };
}

const foreign = (repo: TestRepo) => path.join(repo.dir, FOREIGN_FILE);

describe('routing: every tool but the read-only ones', () => {
  it('each wiring’s before-tool matcher routes every tool name but its client’s read-only tools, read as the clients read it', () => {
    // the wirings that route by a matcher: those whose before-tool event names one
    const routed = ALL_RECORDS.filter((x) => x.wiring && Object.values(x.wiring.events).some((m) => m !== undefined));
    expect(routed.map((r) => r.name)).toEqual(['claude-code', 'gemini-cli', 'codex', 'qwen-code', 'factory-droid', 'devin-cli']);
    for (const r of routed) {
      const w = r.wiring!;
      const event = Object.keys(w.events).find((e) => w.events[e] !== undefined)!;
      const m = w.events[event]!;
      expect(m, r.name).not.toMatch(/\(\?[=!<]/); // no look-around (Rust's regex has none)
      for (const tool of r.readOnly) expect(matcherRoutes(m, tool), `${r.name} ${tool}`).toBe(false);
      for (const tool of [mcp(r.name, 'write_file'), mcp(r.name, 'read_text_file'), 'Bash', 'SomeNewTool', '', ...r.readOnly.flatMap((t) => [t.slice(0, -1), `${t}X`, `X${t}`])]) {
        expect(matcherRoutes(m, tool), `${r.name} ${JSON.stringify(tool)}`).toBe(true);
      }
    }
    // the OpenCode plugin asks about every tool but its read-only ones
    expect(opencodePlugin('git-handoff-guard --client=opencode')).toContain(`const READ_ONLY = new Set(${JSON.stringify(RECORDS.opencode.readOnly)})`);
  });

  it('no client’s read-only tool is a tool another client writes or runs with', () => {
    const writers = new Set(ALL_RECORDS.flatMap((r) => Object.keys(r.front?.tools ?? {})).concat(['Bash', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'PowerShell', 'apply_patch', 'patch', 'run_shell_command', 'write_file', 'replace', 'edit', 'create', 'bash', 'write', 'multiedit', 'exec', 'monitor', 'Shell', 'Delete', 'exec_command', 'shell']));
    for (const r of ALL_RECORDS) for (const t of r.readOnly) expect(writers.has(t), `${r.name} ${t}`).toBe(false);
  });
});

describe('an MCP server’s tools, in every client’s naming', () => {
  it('writing, editing, moving or deleting another session’s handoff file: refused, in every client', async () => {
    const repo = await foreignWorld();
    const theirs = foreign(repo);
    for (const client of CLIENTS) {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['write_file', { path: theirs, content: 'mine\n' }],
        ['edit_file', { path: theirs, edits: [{ oldText: 'their note', newText: 'mine' }], dryRun: false }],
        ['move_file', { source: theirs, destination: path.join(repo.dir, 'gone.md') }],
        ['delete_file', { path: FOREIGN_FILE }],
        ['write_file', { path: 'memory/./handoff-main-auth-refactor.md', content: 'x' }],
      ];
      for (const [tool, input] of calls) {
        const r = await judge(call(client, repo, mcp(client, tool), input), client);
        expect(r.verdict, `${client} ${mcp(client, tool)} ${JSON.stringify(input)}`).toBe('deny');
      }
    }
  });

  it('its read tools read any handoff, and a write of an ordinary file passes: allowed, in every client', async () => {
    const repo = await foreignWorld();
    const theirs = foreign(repo);
    const memory = path.join(repo.dir, 'memory');
    for (const client of CLIENTS) {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['read_file', { path: theirs }],
        ['read_text_file', { path: theirs, head: 5 }],
        ['read_media_file', { path: theirs }],
        ['read_multiple_files', { paths: [theirs, path.join(repo.dir, OWN_FILE)] }],
        ['list_directory', { path: memory }],
        ['list_directory_with_sizes', { path: memory, sortBy: 'name' }],
        ['directory_tree', { path: memory }],
        ['search_files', { path: repo.dir, pattern: 'handoff-*', excludePatterns: [] }],
        ['get_file_info', { path: theirs }],
        ['list_allowed_directories', {}],
        ['write_file', { path: path.join(repo.dir, 'src', 'new.ts'), content: 'export {};\n' }],
        ['create_directory', { path: path.join(repo.dir, 'src', 'lib') }],
      ];
      for (const [tool, input] of calls) {
        const r = await judge(call(client, repo, mcp(client, tool), input), client);
        expect(r.verdict, `${client} ${mcp(client, tool)}: ${r.reason}`).toBe('allow');
      }
    }
  });
});

describe('the clients’ own tools', () => {
  it('every read-only tool of every client reads, whatever it is given (another session’s handoff file named)', async () => {
    const repo = await foreignWorld();
    const theirs = foreign(repo);
    const input = { file_path: theirs, path: theirs, paths: [theirs], filePath: theirs, pattern: 'memory/**', query: 'handoff', url: 'https://example.com', prompt: `read ${FOREIGN_FILE}`, todos: [{ content: 'x', status: 'pending' }] };
    for (const r of ALL_RECORDS) {
      for (const tool of r.readOnly) {
        const v = await judge(call(r.name, repo, tool, input), r.name);
        expect(v.verdict, `${r.name} ${tool}: ${v.reason}`).toBe('allow');
      }
    }
  });

  it('git status, log and diff, searches and an ordinary write through each client’s shell and file tools: allowed', async () => {
    const repo = await foreignWorld();
    for (const r of ALL_RECORDS) {
      const probe = r.probes(repo.dir, 'git status');
      for (const command of ['git status', 'git log --oneline -3', 'git diff HEAD~1', `grep -rn note memory`, `cat ${FOREIGN_FILE}`, 'ls -la memory']) {
        for (const [shape, payload] of r.probes(repo.dir, command)) {
          const v = await judge({ ...payload, session_id: payload.session_id === undefined ? undefined : ME, sessionId: payload.sessionId === undefined ? undefined : ME, conversation_id: payload.conversation_id === undefined ? undefined : ME }, r.name);
          expect(v.verdict, `${r.name} ${shape} ${command}: ${v.reason}`).toBe('allow');
        }
      }
      expect(probe.length).toBeGreaterThan(0);
    }
  });
});

describe('an unknown tool is judged on every argument', () => {
  it('VS Code’s create_and_run_task: command and args are one command line', async () => {
    const repo = await foreignWorld();
    const task = (command: string, args: string[]) => call('vscode', repo, 'create_and_run_task', { workspaceFolder: repo.dir, task: { label: 'x', type: 'shell', command, args, isBackground: false, problemMatcher: [] } });
    expect((await judge(task('sh', ['-c', `echo mine > ${FOREIGN_FILE}`]), 'vscode')).verdict).toBe('deny');
    expect((await judge(task('git', ['update-ref', '-d', 'refs/handoffs/main/auth-refactor']), 'vscode')).verdict).toBe('deny');
    expect((await judge(task('rm', ['-f', FOREIGN_FILE]), 'vscode')).verdict).toBe('deny');
    expect((await judge(task('npm', ['test']), 'vscode')).verdict).toBe('allow');
  });

  it('code a tool runs is judged as its interpreter would run it: Pylance’s run-code-snippet, Qwen Code’s exec', async () => {
    const repo = await foreignWorld();
    const pylance = (code: string) => call('vscode', repo, 'mcp_pylance_mcp_s_pylanceRunCodeSnippet', { workspaceRoot: `file://${repo.dir}`, codeSnippet: code, workingDirectory: repo.dir });
    expect((await judge(pylance(`open('${FOREIGN_FILE}', 'w').write('mine')`), 'vscode')).verdict).toBe('deny');
    expect((await judge(pylance(`import os\nos.remove('${FOREIGN_FILE}')`), 'vscode')).verdict).toBe('deny');
    expect((await judge(pylance('print(sum(range(10)))'), 'vscode')).verdict).toBe('allow');
    const exec = (source: string) => call('qwen-code', repo, 'exec', { source });
    expect((await judge(exec(`require('fs').writeFileSync('${FOREIGN_FILE}', 'mine')`), 'qwen-code')).verdict).toBe('deny');
    expect((await judge(exec('console.log(1 + 1)'), 'qwen-code')).verdict).toBe('allow');
  });

  it('Qwen Code’s monitor runs a shell command: judged as one', async () => {
    const repo = await foreignWorld();
    const monitor = (command: string) => call('qwen-code', repo, 'monitor', { command, description: 'watch', directory: repo.dir });
    expect((await judge(monitor(`rm -f ${FOREIGN_FILE}`), 'qwen-code')).verdict).toBe('deny');
    expect((await judge(monitor('git update-ref -d refs/handoffs/main/auth-refactor'), 'qwen-code')).verdict).toBe('deny');
    expect((await judge(monitor('tail -f build.log'), 'qwen-code')).verdict).toBe('allow');
    // Claude Code's Monitor too (an unknown tool with one command)
    expect((await judge(call('claude-code', repo, 'Monitor', { command: `rm -f ${FOREIGN_FILE}`, description: 'x' }), 'claude-code')).verdict).toBe('deny');
  });
});

describe('Codex’s shell keeps its input open (write_stdin reaches no hook)', () => {
  it('a shell, interpreter, editor or xargs reading it is refused where git-handoff keeps state, naming the one-call way', async () => {
    const repo = await foreignWorld();
    const bash = (command: string) => call('codex', repo, 'Bash', { command });
    for (const command of ['bash', 'sh -i', 'bash -s', 'python3', 'python3 -i', 'python3 -', 'node', 'perl', 'vim notes.txt', 'ed b.txt', 'GIT_EDITOR=vim git commit', 'xargs rm', 'git update-ref --stdin', 'tar -x', 'cd memory && bash']) {
      const r = await judge(bash(command), 'codex');
      expect(r.verdict, command).toBe('deny');
      expect(r.reason, command).toMatch(/one call/);
    }
    for (const command of ['bash -c "ls"', 'python3 -c "print(1)"', 'python3 tools/x.py', 'node -e "1"', 'ls | xargs echo', 'cat b.txt', 'less b.txt', 'git status', 'bash < script.sh', 'echo hi | python3', 'git config --global core.editor vim']) {
      const r = await judge(bash(command), 'codex');
      expect(r.verdict, `${command}: ${r.reason}`).toBe('allow');
    }
    // the same line from a client whose shell takes no later input: not this rule's
    expect((await judge(call('claude-code', repo, 'Bash', { command: 'python3' }), 'claude-code')).verdict).toBe('allow');
  });

  it('where git-handoff keeps no state, an interactive shell harms nothing of it: allowed', async () => {
    const repo = makeRepo({ commit: true });
    expect(existsSync(path.join(repo.dir, '.git', 'handoff'))).toBe(false);
    expect((await judge(call('codex', repo, 'Bash', { command: 'bash' }), 'codex')).verdict).toBe('allow');
  });
});

describe('a caller whose session cannot be read is a stranger’s', () => {
  it('a caller with no session, or one of no session id’s form, may change no session’s handoff file; Cursor’s payload through the Claude Code wiring is Cursor’s, with its session', async () => {
    const repo = await foreignWorld();
    // Cursor's payload through the Claude Code wiring: read as Cursor's (its conversation_id its session), answered in its shape
    const cursorish = (tool: string, input: Record<string, unknown>) => ({ conversation_id: ME, generation_id: 'g', hook_event_name: 'preToolUse', cwd: repo.dir, workspace_roots: [repo.dir], tool_name: tool, tool_input: input });
    expect(detectClient(cursorish('Shell', { command: 'ls' }), 'claude-code').client).toBe('cursor');
    expect((await judge(cursorish('Write', { file_path: path.join(repo.dir, OWN_FILE), content: `<!-- claude-session: ${ME} -->\nx\n` }), 'claude-code')).verdict).toBe('allow');
    const refused: Array<Record<string, unknown>> = [
      cursorish('Write', { file_path: foreign(repo), content: 'mine\n' }),
      cursorish('Shell', { command: `rm -f ${FOREIGN_FILE}` }),
      cursorish('Bash', { command: `echo x >> ${FOREIGN_FILE}` }),
      // Claude Code's own shape with the session left out
      call('claude-code', repo, 'Write', { file_path: foreign(repo), content: 'x' }, null),
      call('claude-code', repo, 'Bash', { command: `rm ${FOREIGN_FILE}` }, null),
      call('claude-code', repo, 'Bash', { command: `git handoff write auth-refactor -m x --session ${OTHER}` }, null),
      // a session id no session can have (not a session id's form)
      call('claude-code', repo, 'Write', { file_path: foreign(repo), content: 'x' }, 'bad id with spaces'),
    ];
    for (const p of refused) expect((await judge(p, 'claude-code')).verdict, JSON.stringify(p).slice(0, 200)).toBe('deny');
    const allowed = [cursorish('Write', { file_path: path.join(repo.dir, 'src', 'a.ts'), content: 'x' }), cursorish('Bash', { command: 'git status' }), call('claude-code', repo, 'Read', { file_path: foreign(repo) }, null)];
    for (const p of allowed) expect((await judge(p, 'claude-code')).verdict, JSON.stringify(p).slice(0, 200)).toBe('allow');
  });

  it('a stranger’s git clean of another session’s untracked handoff file is refused, as a known session’s is', async () => {
    const repo = await foreignWorld();
    repo.write('memory/handoff-main-their-scratch.md', `<!-- claude-session: ${OTHER} -->\nx\n`);
    expect((await judge(call('claude-code', repo, 'Bash', { command: 'git clean -fd memory' }, null), 'claude-code')).verdict).toBe('deny');
    expect((await judge(call('claude-code', repo, 'Bash', { command: 'git clean -fd memory' }), 'claude-code')).verdict).toBe('deny');
  });
});

describe('the perimeter’s client part: every worktree’s wiring, the clients’ trust files', () => {
  it('another worktree’s .claude/settings.json: edited, removed with its folder, or checked out from before: refused', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'claude', '--no-hooks'])).exitCode).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'wiring']);
    const linked = path.join(tempDir('gh-linked-'), 'wt');
    repo.git(['worktree', 'add', '-q', linked, '-b', 'side']);
    await foreignWorldIn(repo);
    const settings = path.join(linked, '.claude', 'settings.json');
    const refused = [
      call('claude-code', repo, 'Write', { file_path: settings, content: '{}\n' }),
      call('claude-code', repo, 'Edit', { file_path: settings, old_string: 'git-handoff-guard', new_string: 'true' }),
      call('claude-code', repo, 'Bash', { command: `rm -rf ${linked}/.claude` }),
      call('claude-code', repo, 'Bash', { command: `git -C ${linked} checkout HEAD~1 -- .claude` }),
      call('claude-code', repo, 'Bash', { command: `echo '{}' > ${settings}` }),
    ];
    for (const p of refused) {
      const r = await judge(p, 'claude-code');
      expect(r.verdict, JSON.stringify(p.tool_input)).toBe('deny');
    }
    // the linked worktree's own files elsewhere stay free
    expect((await judge(call('claude-code', repo, 'Write', { file_path: path.join(linked, 'src', 'x.ts'), content: 'x' }), 'claude-code')).verdict).toBe('allow');
  });

  it('Gemini CLI’s and Qwen Code’s trustedFolders.json, Copilot CLI’s config.json, Codex’s config.toml: changed by no tool', async () => {
    const repo = await foreignWorld();
    const home = tempDir('gh-trust-home-');
    const env = { HOME: home, CODEX_HOME: undefined, COPILOT_HOME: undefined };
    for (const d of ['.gemini', '.qwen', '.copilot', '.codex']) mkdirSync(path.join(home, d));
    writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
    writeFileSync(path.join(home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [repo.dir] }));
    writeFileSync(path.join(home, '.codex', 'config.toml'), `[projects."${repo.dir}"]\ntrust_level = "trusted"\n`);
    const refused: Array<[ClientName, Record<string, unknown>]> = [
      ['gemini-cli', call('gemini-cli', repo, 'write_file', { file_path: path.join(home, '.gemini', 'trustedFolders.json'), content: JSON.stringify({ [repo.dir]: 'DO_NOT_TRUST' }) })],
      ['qwen-code', call('qwen-code', repo, 'write_file', { file_path: path.join(home, '.qwen', 'trustedFolders.json'), content: JSON.stringify({ [repo.dir]: 'DO_NOT_TRUST' }) })],
      ['copilot', call('copilot', repo, 'edit', { path: path.join(home, '.copilot', 'config.json'), old_str: repo.dir, new_str: '/elsewhere' })],
      ['codex', call('codex', repo, 'Bash', { command: `sed -i 's/trusted/untrusted/' ${home}/.codex/config.toml` })],
      ['claude-code', call('claude-code', repo, 'Bash', { command: `echo '{}' > ${home}/.gemini/trustedFolders.json` })],
      ['claude-code', call('claude-code', repo, mcp('claude-code', 'write_file'), { path: path.join(home, '.qwen', 'trustedFolders.json'), content: '{}' })],
    ];
    for (const [client, p] of refused) {
      const r = await judge(p, client, env);
      expect(r.verdict, `${client} ${JSON.stringify(p.tool_input ?? p.toolArgs)}`).toBe('deny');
      expect(r.reason).toMatch(/trust/);
    }
  });
});

/** foreignWorld's files and handoff, in an existing repository. */
async function foreignWorldIn(repo: TestRepo): Promise<void> {
  repo.write(FOREIGN_FILE, `<!-- claude-session: ${OTHER} -->\ntheir note\n`);
}
