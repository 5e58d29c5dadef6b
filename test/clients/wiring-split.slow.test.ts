// Claude Code's PreToolUse is wired as two groups (src/clients/wiring.ts, Wiring.split, hookGroups): Bash, whose
// front reads the one-line payload with sh's `read` (no `cat` process), and the file tools, read with `cat`. A client
// that ignores matchers (VS Code's agent) runs both for every call: each front leaves the other group's calls to it,
// so a call is decided once. Nothing inherited may make a front leave a call alone. Real fronts, real sh, real node.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookGroups, shPayloadCommand, SPLIT_FLAGS, SPLIT_NAME, takeSh } from '../../src/clients/wiring';
import { matcherRoutes } from '../../src/clients/record';
import { RECORDS, WIRING } from '../../src/clients/records';
import { eventGroups } from '../../src/install/agents';
import { pluginGuardCommand, pluginHooks } from '../../src/install/plugin-folders';
import { foreignWorld, FOREIGN_FILE } from '../guard/world';
import { ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { ME, payload } from '../guard/helpers';

const w = WIRING.claude;
const THEIR_REF = 'refs/handoffs/main/auth-refactor';
const FRONT = path.join(ROOT, 'bin', 'git-handoff-guard');

/** A `node` ahead on PATH that marks each start, then runs the real node: how many calls reached node. */
function countingNode(): { dir: string; count: () => number } {
  const dir = tempDir('gh-split-node-');
  const marks = path.join(dir, 'starts');
  writeFileSync(path.join(dir, 'node'), `#!/bin/sh\necho x >> '${marks}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(path.join(dir, 'node'), 0o755);
  return { dir, count: () => (existsSync(marks) ? readFileSync(marks, 'utf8').split('\n').filter(Boolean).length : 0) };
}

/** The groups `install --agent claude` writes for PreToolUse, with this checkout's front by path. */
const groups = () => eventGroups(w, 'PreToolUse', w.events.PreToolUse, `"${FRONT}" --client=claude-code`);

function run(repo: TestRepo, command: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: { ...repo.env, ...env }, input, encoding: 'utf8', timeout: 60_000 });
  const out = r.stdout.trim();
  const decision = out ? JSON.parse(out).hookSpecificOutput?.permissionDecision ?? 'answered' : '';
  return { status: r.status, out, decision, stderr: r.stderr };
}

describe('Claude Code’s PreToolUse in two groups', () => {
  it('install and the plugin write a Bash group read by line and a group of the file tools, each through the split name', () => {
    const g = groups();
    expect(g.map((x) => x.matcher)).toEqual(['Bash|Edit', w.split!.rest]);
    expect(g[0].command).toContain(`set -- ${SPLIT_FLAGS.line} `);
    expect(g[1].command).toContain(`set -- ${SPLIT_FLAGS.rest} `);
    const onPath = eventGroups(w, 'PreToolUse', w.events.PreToolUse, 'git-handoff-guard --client=claude-code');
    for (const x of onPath) expect(x.command).toContain(`command . ${SPLIT_NAME}; exec git-handoff-guard --client=claude-code`);
    // every tool the single group routes is in exactly one group, and a read-only tool in none
    for (const tool of ['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'PowerShell', 'Monitor', 'mcp__fs__write_file', 'BashX', 'Edi']) {
      expect(g.filter((x) => matcherRoutes(x.matcher, tool)), tool).toHaveLength(1);
      expect(matcherRoutes(w.events.PreToolUse, tool), tool).toBe(true);
    }
    for (const tool of RECORDS['claude-code'].readOnly) expect(g.filter((x) => matcherRoutes(x.matcher, tool)), tool).toHaveLength(0);
    // only the sh front knows the groups' flags: a launcher's `guard` (node for every call) stays one group
    expect(eventGroups(w, 'PreToolUse', w.events.PreToolUse, '"/opt/my tools/git-handoff" guard --client=claude-code')).toEqual([{ matcher: w.events.PreToolUse, command: '"/opt/my tools/git-handoff" guard --client=claude-code' }]);
    // other events, and other clients, keep one group
    expect(eventGroups(w, 'SessionStart', undefined, 'git-handoff-guard --client=claude-code')).toHaveLength(1);
    expect(hookGroups(WIRING.gemini, 'BeforeTool', WIRING.gemini.events.BeforeTool, () => 'x')).toHaveLength(1);
    const plugin = pluginHooks('claude').hooks as Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
    expect(plugin.PreToolUse.map((x) => x.matcher)).toEqual(['Bash|Edit', w.split!.rest]);
    expect(plugin.PreToolUse[0].hooks[0].command).toBe(shPayloadCommand(pluginGuardCommand('${CLAUDE_PLUGIN_ROOT}', 'claude-code'), 'line'));
    // the split name is installed with the package, and reads the front in
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin[SPLIT_NAME]).toBe(`bin/${SPLIT_NAME}`);
    expect(readFileSync(path.join(ROOT, 'bin', SPLIT_NAME), 'utf8')).toContain('. "$d/git-handoff-guard"');
  });

  it('the line group reads a payload exactly as `$(cat)` does, whatever its lines', () => {
    const take = takeSh('take');
    const shapes = ['', '\n', '{"a":1}', '{"a":1}\n', '{"a":1}\n\n\n', '{\n "a": 1\n}\n', '{\n "a": 1\n}', 'a\\b\\\\c\\n\n', '  lead and trail  \n', 'x\ny', 'x\n\ny\n\n', '\n\nx', 'tab\there\r\n', `${'y'.repeat(9000)}\n${'z'.repeat(100)}`];
    for (const s of shapes) {
      const byLine = spawnSync('/bin/sh', ['-c', `split=line; ${take}\ntake; printf '%s|' "$payload"`], { input: s, encoding: 'utf8' });
      const byCat = spawnSync('/bin/sh', ['-c', `payload=$(cat); printf '%s|' "$payload"`], { input: s, encoding: 'utf8' });
      expect(byLine.stdout, JSON.stringify(s.slice(0, 40))).toBe(byCat.stdout);
    }
  });

  it('as Claude Code runs them (matchers kept): each group decides its own calls as the single group did', async () => {
    const repo = await foreignWorld();
    const [line, rest] = groups();
    const single = shPayloadCommand(`"${FRONT}" --client=claude-code`);
    const bash = (command: string) => JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }));
    const write = (file: string) => JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, file), content: 'mine\n' } }));
    const cases: Array<[string, string, string]> = [
      [line.command, bash(`git update-ref -d ${THEIR_REF}`), 'deny'],
      [line.command, `${bash(`git update-ref -d ${THEIR_REF}`)}\n`, 'deny'],
      [line.command, JSON.stringify(JSON.parse(bash(`git update-ref -d ${THEIR_REF}`)), null, 2), 'deny'],
      [line.command, bash('ls -la'), ''],
      [line.command, bash('npm test'), ''],
      [rest.command, write(FOREIGN_FILE), 'deny'],
      [rest.command, write('src/new.ts'), ''],
    ];
    for (const [command, input, expected] of cases) {
      const r = run(repo, command, input);
      expect(r.status, r.stderr).toBe(0);
      if (expected === 'deny') {
        expect(r.decision, input.slice(0, 200)).toBe('deny');
        continue;
      }
      expect(r.decision, input.slice(0, 200)).not.toBe('deny');
      // the single group's answer, byte for byte
      expect(r.out).toBe(run(repo, single, input).out);
    }
  });

  it('where matchers are ignored (VS Code’s agent), every call is decided by one group: the other leaves it without starting anything', async () => {
    const repo = await foreignWorld();
    const [line, rest] = groups();
    const node = countingNode();
    const env = { PATH: `${node.dir}:${process.env.PATH}` };
    const claude = (tool: string, input: Record<string, unknown>) => JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_name: tool, tool_input: input }));
    const vs = (tool: string, input: Record<string, unknown>) => JSON.stringify({ ...payload(repo, 'vscode/pre-tool-use-run-in-terminal.json', {}, ME), tool_name: tool, tool_input: input });
    const theirs = path.join(repo.dir, FOREIGN_FILE);
    const terminal = { command: `git update-ref -d ${THEIR_REF}`, explanation: 'x', isBackground: false };
    // [payload, the group that decides it, refused]
    const cases: Array<[string, 'line' | 'rest' | 'both', boolean]> = [
      [claude('Bash', { command: `git update-ref -d ${THEIR_REF}` }), 'line', true],
      [claude('Write', { file_path: theirs, content: 'x' }), 'rest', true],
      [claude('Edit', { file_path: theirs, old_string: 'their', new_string: 'mine' }), 'line', true],
      [claude('MultiEdit', { file_path: theirs, edits: [{ old_string: 'their', new_string: 'mine' }] }), 'rest', true],
      [claude('NotebookEdit', { notebook_path: theirs, new_source: 'x' }), 'rest', true],
      // every tool not the line group's own is the rest's
      [vs('run_in_terminal', terminal), 'rest', true],
      [vs('runInTerminal', terminal), 'rest', true],
      [vs('create_file', { filePath: theirs, content: 'x' }), 'rest', true],
      [vs('Write', { file_path: theirs, content: 'x' }), 'rest', true],
      [claude('mcp__fs__write_file', { path: theirs, content: 'x' }), 'rest', true],
      [claude('TodoWrite', { todos: [] }), 'rest', false],
      // a tool name that cannot be read plainly: both decide
      [claude('Wr\\u0069te', { file_path: theirs, content: 'x' }).replace('Wr\\\\u0069te', 'Wr\\u0069te'), 'both', true],
      [claude('Bash', { command: `git update-ref -d ${THEIR_REF}` }).replace('"tool_name":"Bash"', '"tool_name":"Write","tool_name":"Bash"'), 'both', true],
    ];
    for (const [input, decider, refused] of cases) {
      const answers: Record<string, string> = {};
      for (const [name, g] of [['line', line], ['rest', rest]] as const) {
        const before = node.count();
        const r = run(repo, g.command, input, env);
        expect(r.status, r.stderr).toBe(0);
        const decided = node.count() > before;
        expect(decided, `${name} ${input.slice(0, 160)}`).toBe(decider === name || decider === 'both');
        if (!decided) expect(r.out).toBe('');
        answers[name] = r.decision;
      }
      expect(Object.values(answers).includes('deny'), input.slice(0, 160)).toBe(refused);
    }
  }, 120_000);

  it('nothing inherited makes a front leave a call: a variable named as the front’s is ignored, and the single group decides all', async () => {
    const repo = await foreignWorld();
    const [, rest] = groups();
    const single = shPayloadCommand(`"${FRONT}" --client=claude-code`);
    const write = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, FOREIGN_FILE), content: 'x\n' } }));
    const bash = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: `git update-ref -d ${THEIR_REF}` } }));
    for (const split of ['line', 'rest']) {
      expect(run(repo, single, write, { split }).decision).toBe('deny');
      expect(run(repo, single, bash, { split }).decision).toBe('deny');
      expect(run(repo, `"${FRONT}" --client=claude-code`, write, { split }).decision).toBe('deny');
      expect(run(repo, rest.command, write, { split: 'line' }).decision).toBe('deny');
    }
  });

  it('an installation whose front predates the groups: the split name is missing, so each group runs the front as a program, which decides all', async () => {
    const repo = await foreignWorld();
    // this repository's front from before the split (git-handoff-front, no git-handoff-front-split)
    const install = tempDir('gh-split-old-');
    mkdirSync(path.join(install, 'bin'));
    for (const f of ['git-handoff-guard', 'git-handoff-front']) {
      const old = spawnSync('git', ['show', `973aa47:bin/${f}`], { cwd: ROOT, encoding: 'utf8' });
      expect(old.status, `git show 973aa47:bin/${f} (the test needs this repository's history): ${old.stderr}`).toBe(0);
      writeFileSync(path.join(install, 'bin', f), old.stdout);
      chmodSync(path.join(install, 'bin', f), 0o755);
    }
    symlinkSync(path.join(ROOT, 'dist'), path.join(install, 'dist'));
    const write = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, FOREIGN_FILE), content: 'x\n' } }));
    const bash = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: `git update-ref -d ${THEIR_REF}` } }));
    const onPath = eventGroups(w, 'PreToolUse', w.events.PreToolUse, 'git-handoff-guard --client=claude-code');
    // the old one first on PATH and this one after it: the split name is found, but not beside the front PATH gives
    for (const bin of [path.join(install, 'bin'), `${path.join(install, 'bin')}:${path.join(ROOT, 'bin')}`, path.join(ROOT, 'bin')]) {
      for (const g of onPath) {
        for (const input of [write, bash]) {
          const r = run(repo, g.command, input, { PATH: `${bin}:${process.env.PATH}` });
          expect(r.status, `${bin} ${g.matcher}: ${r.stderr}`).toBe(0);
          // this front leaves the other group's calls alone; the old one decides them all
          const mine = matcherRoutes(g.matcher, JSON.parse(input).tool_name);
          expect(r.decision, `${bin} ${g.matcher} ${JSON.parse(input).tool_name}`).toBe(mine || bin !== path.join(ROOT, 'bin') ? 'deny' : '');
        }
      }
    }
  });
});
