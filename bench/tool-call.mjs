#!/usr/bin/env node
// Per tool call (issue 16): every hook command `install --agent <client>` wires for one tool call, run as the
// client runs it (the payload on stdin, before the tool, then after it; Claude Code starts each through `/bin/sh -c`,
// Gemini CLI, Codex and Qwen Code through `bash -c`, Copilot CLI through `/bin/bash --norc --noprofile -c`, as
// execve traces and the real clients' sources show), summed, against `node -e ''`. OpenCode runs its plugin in its own process: no hook command to time.
// A session in the middle of its work: it has been seen and its lease is fresh (a first call and a lease refresh
// once a minute take the full guard; the median is an ordinary call).
//   node bench/tool-call.mjs [--client claude,gemini,codex,qwen,copilot] [--runs N] [--json]
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { leastHook } from './floor.mjs';
import { ROOT, emit, flags, interleave, interleaveMany, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

const ME = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const OTHER = '9b1e77d0-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const OWN = 'memory/handoff-main-auth-refactor.md';
const MARKER = `<!-- claude-session: ${ME} -->`;

const CLIENTS = {
  claude: { name: 'Claude Code', shell: '/bin/sh', settings: '.claude/settings.json', pre: 'PreToolUse', post: 'PostToolUse', fixture: 'claude-code/pre-tool-use-bash.json' },
  gemini: { name: 'Gemini CLI', shell: 'bash', settings: '.gemini/settings.json', pre: 'BeforeTool', post: 'AfterTool', fixture: 'gemini-cli/before-tool-shell.json' },
  codex: { name: 'Codex', shell: 'bash', settings: '.codex/hooks.json', pre: 'PreToolUse', post: 'PostToolUse', fixture: 'codex/pre-tool-use-bash.json' },
  qwen: { name: 'Qwen Code', shell: 'bash', settings: '.qwen/settings.json', pre: 'PreToolUse', post: 'PostToolUse', fixture: 'qwen-code/real-pre-tool-use-run-shell-command.json' },
  // its own hooks file: camelCase events, payloads that name no event (toolName/toolArgs; toolResult after the call)
  copilot: { name: 'Copilot CLI', shell: '/bin/bash', args: ['--norc', '--noprofile', '-c'], settings: '.github/hooks/git-handoff.json', pre: 'preToolUse', post: 'postToolUse', fixture: 'copilot/real-pre-tool-use-bash.json' },
};

const patch = (op, file, lines) => ({ tool: 'apply_patch', input: { command: ['*** Begin Patch', `*** ${op} File: ${file}`, ...lines, '*** End Patch'].join('\n') } });
/** One tool call in a client's own tool names and input shapes. */
function toolCall(client, kind, arg) {
  const shell = { claude: 'Bash', gemini: 'run_shell_command', codex: 'Bash', qwen: 'run_shell_command', copilot: 'bash' }[client];
  if (kind === 'shell') return { tool: shell, input: { command: arg } };
  if (kind === 'write') {
    if (client === 'codex') return patch('Add', arg.file, arg.content.split('\n').map((l) => `+${l}`));
    if (client === 'copilot') return { tool: 'create', input: { path: arg.file, file_text: arg.content } };
    return { tool: client === 'gemini' || client === 'qwen' ? 'write_file' : 'Write', input: { file_path: arg.file, content: arg.content } };
  }
  if (client === 'codex') return patch('Update', arg.file, ['@@', `-${arg.old}`, `+${arg.new}`]);
  if (client === 'copilot') return { tool: 'edit', input: { path: arg.file, old_str: arg.old, new_str: arg.new } };
  return { tool: { gemini: 'replace', qwen: 'edit' }[client] ?? 'Edit', input: { file_path: arg.file, old_string: arg.old, new_string: arg.new } };
}

const SOURCE = Array.from({ length: 120 }, (_, i) => `export const value${i} = ${i}; // an ordinary source line`).join('\n') + '\n';
// goals (issue 52): a call the sh front ends costs at most 1.3× its floor row (bench/floor.mjs: `floor`); a call that
// needs node, one node start: at most 1.5× `node -e ''` (`goal`)
export const CALLS = [
  { name: 'Write of an ordinary source file', kind: 'write', arg: { file: 'src/app.ts', content: SOURCE }, floor: 1.3 },
  { name: 'Edit of an ordinary source file', kind: 'edit', arg: { file: 'src/app.ts', old: 'value1 = 1', new: 'value1 = 2' }, floor: 1.3 },
  { name: 'Bash `npm test`', kind: 'shell', arg: 'npm test', floor: 1.3 },
  { name: 'Bash `ls -la`', kind: 'shell', arg: 'ls -la', floor: 1.3 },
  { name: 'Bash `cat README.md`', kind: 'shell', arg: 'cat README.md', floor: 1.3 },
  { name: 'Write of its own protected handoff file', kind: 'write', arg: { file: OWN, content: `${MARKER}\n# auth-refactor\n\nGoal: new notes.\n` }, goal: 1.5, node: true },
  // an agent's usual change to its own notes: an edit of the file it keeps (Codex: an Update File patch)
  { name: 'Edit of its own protected handoff file', kind: 'edit', arg: { file: OWN, old: 'Goal: the old notes.', new: 'Goal: the new notes.' }, goal: 1.5, node: true },
  { name: 'Bash `git commit -m x` in a shared worktree', kind: 'shell', arg: 'git commit -m x', goal: 1.5, node: true },
  { name: 'Bash `git update-ref refs/handoffs/…` (refused)', kind: 'shell', arg: 'git update-ref refs/handoffs/main/auth-refactor HEAD', goal: 1.5, node: true },
];

/** The hook commands wired for `tool` at `event`, in order (a matcher is a regular expression over the tool name; Copilot's own file has a `bash` command per event and no matcher). */
function hooksFor(settings, event, tool) {
  const groups = settings.hooks?.[event] ?? [];
  return groups.filter((g) => !g.matcher || new RegExp(`^(?:${g.matcher})$`).test(tool)).flatMap((g) => (g.bash ? [g.bash] : g.hooks.map((h) => h.command)));
}

/** A repository wired for `client`, with this session's own protected file and another live session's claim. */
export function wiredRepo(client) {
  const repo = tempRepo(`gh-bench-call-${client}-`);
  const env = { ...viaGit(repo.env) };
  mkdirSync(path.join(repo.dir, 'memory'));
  mkdirSync(path.join(repo.dir, 'src'));
  writeFileSync(path.join(repo.dir, OWN), `${MARKER}\n# auth-refactor\n\nGoal: the old notes.\n`);
  writeFileSync(path.join(repo.dir, 'src', 'app.ts'), SOURCE);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'handoff file and source']);
  timeSync('git', ['handoff', 'install', '--agent', client], { cwd: repo.dir, env });
  const settings = JSON.parse(readFileSync(path.join(repo.dir, CLIENTS[client].settings), 'utf8'));
  const base = JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'hook-payloads', CLIENTS[client].fixture), 'utf8').split('/home/user/my-project').join(repo.dir));
  // what each client's hook runner adds to every hook's environment (Claude Code and Codex add none here)
  if (client === 'gemini') Object.assign(env, { GEMINI_PROJECT_DIR: repo.dir, GEMINI_CWD: repo.dir, CLAUDE_PROJECT_DIR: repo.dir });
  if (client === 'qwen') Object.assign(env, { GEMINI_PROJECT_DIR: repo.dir, CLAUDE_PROJECT_DIR: repo.dir, QWEN_PROJECT_DIR: repo.dir });
  if (client === 'copilot') Object.assign(env, { COPILOT_PROJECT_DIR: repo.dir, CLAUDE_PROJECT_DIR: repo.dir, COPILOT_HOOK_DIR: path.join(repo.dir, '.github', 'hooks'), COPILOT_CLI: '1' });
  return { repo, env, settings, base, shell: CLIENTS[client].shell, args: CLIENTS[client].args ?? ['-c'] };
}

/** The hook runs of one tool call: [command, payload] for each wired hook, before and after the tool. */
export function runsOf(w, client, call, session = ME) {
  const c = CLIENTS[client];
  const { tool, input } = toolCall(client, call.kind, call.arg);
  let pre = { ...w.base, session_id: session, cwd: w.repo.dir, hook_event_name: c.pre, tool_name: tool, tool_input: input };
  let post = { ...pre, hook_event_name: c.post, tool_response: client === 'codex' ? 'ok' : { success: true } };
  if (client === 'copilot') {
    pre = { ...w.base, sessionId: session, timestamp: Date.now(), cwd: w.repo.dir, toolName: tool, toolArgs: input };
    post = { ...pre, toolResult: { resultType: 'success', textResultForLlm: 'ok' } };
  }
  // Gemini CLI and Qwen Code give each hook the payload's session id in the environment too
  const env = { gemini: { GEMINI_SESSION_ID: session }, qwen: { QWEN_CODE_SESSION_ID: session } }[client] ?? {};
  return {
    pre: hooksFor(w.settings, c.pre, tool).map((cmd) => [cmd, JSON.stringify(pre), env]),
    post: hooksFor(w.settings, c.post, tool).map((cmd) => [cmd, JSON.stringify(post), env]),
  };
}

/** One hook run as the client starts it: its shell, `-c`, the command; the payload on stdin. */
const runHook = (w, cmd, input, env = {}) => timeSync(w.shell, [...w.args, cmd], { cwd: w.repo.dir, env: { ...w.env, ...env }, input, allowFail: true });
const runAll = (w, hooks) => hooks.reduce((ms, [cmd, input, env]) => ms + runHook(w, cmd, input, env).ms, 0);

/**
 * What the node of a call's before-tool hooks allocated in V8's young generation (bench/young.cjs), against what node's
 * start left free there: a run that allocates more meets a scavenge. Deterministic for one build and payload: 3 runs.
 */
function youngRow(w, name, pre) {
  const file = path.join(w.repo.dir, '.git', 'bench-young.jsonl');
  const env = { NODE_OPTIONS: `--require ${path.join(ROOT, 'bench', 'young.cjs')}`, GIT_HANDOFF_BENCH_YOUNG: file };
  let seen = [];
  for (let i = 0; i < 3; i++) {
    rmSync(file, { force: true });
    for (const [cmd, input, e] of pre) runHook(w, cmd, input, { ...e, ...env });
    seen = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  }
  const top = seen.reduce((a, b) => (b.allocated > (a?.allocated ?? -1) ? b : a), null);
  const collections = seen.reduce((n, r) => n + r.collections, 0);
  const kib = (b) => b / 1024;
  return {
    name: `${name}: its node's young generation, allocated vs free at start`,
    measured: top ? kib(top.allocated) : null,
    baseline: top ? kib(top.room) : null,
    ratio: top ? top.allocated / top.room : null,
    goal: null,
    met: null,
    runs: 3,
    unit: ' KiB',
    note: top ? `${collections} collection${collections === 1 ? '' : 's'}${collections ? ` (${seen.reduce((m, r) => m + r.ms, 0).toFixed(1)} ms)` : ''}` : 'no node ran',
  };
}

export function benchToolCalls({ runs, clients } = {}) {
  const rows = [];
  for (const client of clients ?? Object.keys(CLIENTS)) {
    const w = wiredRepo(client);
    try {
      // another session is live here and claims a file: the shared worktree `git commit` is checked against
      const theirs = runsOf(w, client, { kind: 'write', arg: { file: 'src/theirs.ts', content: 'x' } }, OTHER);
      runAll(w, [...theirs.pre, ...theirs.post]);
      writeFileSync(path.join(w.repo.dir, 'src', 'theirs.ts'), 'x\n');
      for (const call of CALLS) {
        const { pre, post } = runsOf(w, client, call);
        const first = pre.map(([cmd, input, env]) => runHook(w, cmd, input, env));
        const said = first.map((r) => String(r.stdout).trim()).filter(Boolean).join(' ');
        const answer = /deny/.test(said) ? 'refused' : 'allowed';
        // a refused call never runs its tool, so no client runs the after-tool hooks for it (seen in the real
        // Gemini CLI 0.61.0 and Codex 0.169.0; Qwen Code's and Copilot CLI's READMEs; Claude Code runs PostToolUse
        // after a tool that ran): what the user pays for it is the before-tool hooks alone
        const hooks = answer === 'refused' ? pre : [...pre, ...post];
        const note = `(${answer}; ${hooks.length} hook run${hooks.length === 1 ? '' : 's'}: ${[...new Set(hooks.map(([cmd]) => cmd))].join(', ')})`;
        const name = `${CLIENTS[client].name} tool call: ${call.name}`;
        if (client !== 'claude' || !call.floor) {
          rows.push(row(name, interleave(Number(runs ?? 21), () => runAll(w, hooks), nodeFloor(w.repo.env)), call.goal ?? null, note));
          if (call.node) rows.push(youngRow(w, name, pre));
          continue;
        }
        // a call the sh front ends (goal: at most call.floor × its floor): its floor (bench/floor.mjs) timed in the same
        // rounds as the call and node, so the ratio to it sees the same load
        const [least] = leastHook(call, w.repo.dir, path.join(w.repo.dir, '.git', 'bench-floor.jsonl'));
        const floor = () => timeSync(w.shell, [...w.args, least], { cwd: w.repo.dir, env: w.env, input: pre[0][1] }).ms;
        const m = interleaveMany(Number(runs ?? 21), [nodeFloor(w.repo.env), () => runAll(w, hooks), floor]);
        rows.push({ ...row(name, m.vs(1), null, note), vsFloor: { ...m.vs(1, 2), floorVsNode: m.vs(2).ratio, goal: call.floor } });
      }
    } finally {
      w.repo.cleanup();
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchToolCalls({ runs: f.runs, clients: f.client ? String(f.client).split(',') : undefined }), f.json);
}
