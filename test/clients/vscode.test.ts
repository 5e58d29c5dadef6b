// VS Code's agent (Copilot Chat hooks, VS Code 1.110 on) runs the Claude Code wiring in its own shape (issue 37):
// its payloads are told apart, read (its tools, its argument names, camelCase and snake_case common fields) and
// answered in the shape it reads, in-process and through the real sh front as `install --agent claude` wires it.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectClient, namedClient } from '../../src/clients/index';
import { eventGroups } from '../../src/install/agents';
import { WIRING } from '../../src/clients/records';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { foreignWorld, FOREIGN_FILE, malformed, OWN_FILE, verdict } from '../guard/world';
import { json, makeRepo, ROOT, type TestRepo } from '../helpers/repo';
import { FIXTURES, ME, OTHER, payload } from '../guard/helpers';
import { FRONT } from '../guard/spellings';

const CLAUDE_WIRING = ['guard', '--client=claude-code'];
const THEIR_REF = 'refs/handoffs/main/auth-refactor';

/** A VS Code payload from a fixture: snake_case (1.111 on) or camelCase (`-1.110`), with this session and tool input. */
function vs(repo: TestRepo, fixture: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const camel = fixture.endsWith('-1.110.json');
  return payload(repo, `vscode/${fixture}`, { ...(camel ? { sessionId: ME } : {}), ...over }, camel ? null : ME);
}

/** A tool call in both of VS Code's shapes: the tool's name as the model calls it (snake) and as the docs show it (1.110). */
const both = (repo: TestRepo, tool: [string, string], input: Record<string, unknown>) => [
  vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: tool[0], tool_input: input }),
  vs(repo, 'pre-tool-use-run-in-terminal-1.110.json', { tool_name: tool[1], tool_input: input }),
];

async function inProcess(p: Record<string, unknown>): Promise<{ verdict: string; out: string; client: string; reason: string }> {
  const adapter = detectClient(p, namedClient(CLAUDE_WIRING));
  const event = adapter.parse(p);
  const d = await decide(new GuardContext(event, { ...process.env, GIT_HANDOFF_SESSION: undefined }));
  const out = adapter.render(event, d) ?? '';
  return { verdict: verdict(out), out, client: adapter.client, reason: d.deny ?? '' };
}

/**
 * The exact commands `install --agent claude` writes for PreToolUse (two groups: eventGroups), each run as a client
 * runs it (`/bin/sh -c`), this checkout's front: VS Code ignores matchers and runs both, and any refusal refuses.
 */
function throughWiring(repo: TestRepo, p: Record<string, unknown>): { verdict: string; out: string } {
  const w = WIRING.claude;
  const answers = eventGroups(w, 'PreToolUse', w.events.PreToolUse, `"${FRONT}" --client=claude-code`).map(({ command }) => {
    const r = spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: repo.env, input: JSON.stringify(p), encoding: 'utf8', timeout: 60_000 });
    const out = r.stdout.trim();
    return r.status === 0 ? { verdict: verdict(out), out } : { verdict: `exit ${r.status}: ${r.stderr.slice(0, 200)}`, out };
  });
  return answers.find((a) => a.verdict !== 'allow') ?? answers.find((a) => a.out) ?? answers[0];
}

describe("VS Code's agent: told apart", () => {
  it('every VS Code fixture is vscode, through the Claude Code wiring and unnamed; no other client fixture is', () => {
    const files = readdirSync(path.join(FIXTURES, 'vscode'));
    expect(files.length).toBeGreaterThan(6);
    for (const f of files) {
      const p = JSON.parse(readFileSync(path.join(FIXTURES, 'vscode', f), 'utf8'));
      expect(detectClient(p, namedClient(CLAUDE_WIRING)).client, f).toBe('vscode');
      expect(detectClient(p, null).client, f).toBe('vscode');
    }
    for (const dir of readdirSync(FIXTURES).filter((d) => d !== 'vscode' && !d.endsWith('.md'))) {
      for (const f of readdirSync(path.join(FIXTURES, dir)).filter((x) => x.endsWith('.json'))) {
        const p = JSON.parse(readFileSync(path.join(FIXTURES, dir, f), 'utf8'));
        expect(detectClient(p, null).client, `${dir}/${f}`).not.toBe('vscode');
        expect(detectClient(p, namedClient(CLAUDE_WIRING)).client, `${dir}/${f}`).not.toBe('vscode');
      }
    }
  });

  it('reads its events: SessionStart on the first prompt (source new), Stop, UserPromptSubmit with nothing to judge', () => {
    const repo = { dir: '/home/user/my-project' } as TestRepo;
    const start = detectClient(vs(repo, 'session-start.json'), null).parse(vs(repo, 'session-start.json'));
    expect(start).toMatchObject({ client: 'vscode', kind: 'session-start', source: 'startup', session: ME });
    expect(detectClient(vs(repo, 'stop.json'), null).parse(vs(repo, 'stop.json'))).toMatchObject({ kind: 'stop', stopHookActive: false });
    expect(detectClient(vs(repo, 'user-prompt-submit.json'), null).parse(vs(repo, 'user-prompt-submit.json')).kind).toBe('other');
    const camel = vs(repo, 'pre-tool-use-run-in-terminal-1.110.json');
    expect(detectClient(camel, null).parse(camel)).toMatchObject({ kind: 'pre-tool', session: ME, action: { type: 'shell', command: 'npm test' } });
  });
});

describe("VS Code's agent: judged", () => {
  it('in-process: its terminal and file tools in both shapes, refusals and harmless calls, its events answered in its shape', async () => {
    const repo = await foreignWorld();
    const theirs = path.join(repo.dir, FOREIGN_FILE);
    const run = (command: string) => ({ command, explanation: 'x', isBackground: false });
    const refused = [
      // moving another session's handoff ref, under each of its terminal tool names and Bash
      ...both(repo, ['run_in_terminal', 'runInTerminal'], run(`git update-ref -d ${THEIR_REF}`)),
      ...both(repo, ['Bash', 'runTerminalCommand'], run(`git update-ref -d ${THEIR_REF}`)),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_input: run(`git branch -f x && git update-ref ${THEIR_REF} HEAD`) }),
      // its file tools on another session's handoff file
      ...both(repo, ['create_file', 'createFile'], { filePath: theirs, content: `<!-- claude-session: ${ME} -->\nmine\n` }),
      ...both(repo, ['replace_string_in_file', 'replaceString'], { filePath: theirs, oldString: 'their note', newString: 'mine', explanation: 'x' }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'multi_replace_string_in_file', tool_input: { explanation: 'x', replacements: [{ filePath: theirs, oldString: 'their note', newString: 'mine' }] } }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'multi_replace_string_in_file', tool_input: { explanation: 'x', replacements: [{ filePath: path.join(repo.dir, 'a.txt'), oldString: 'a', newString: 'b' }, { filePath: theirs, oldString: 'their note', newString: 'mine' }] } }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'insert_edit_into_file', tool_input: { filePath: theirs, code: 'mine', explanation: 'x' } }),
      // its insert into this session's own file, bringing another session's marker line (where it lands is not known)
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'insert_edit_into_file', tool_input: { filePath: path.join(repo.dir, OWN_FILE), code: `<!-- claude-session: ${OTHER} -->\nmine`, explanation: 'x' } }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'edit_notebook_file', tool_input: { filePath: theirs, cellId: 'c1', newCode: 'mine', editType: 'edit' } }),
      vs(repo, 'pre-tool-use-edit-files-1.110.json', { tool_input: { files: [FOREIGN_FILE] } }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'apply_patch', tool_input: { input: `*** Begin Patch\n*** Delete File: ${theirs}\n*** End Patch`, explanation: 'x' } }),
      // a tool it has and the guard does not know: judged on the paths it names
      vs(repo, 'pre-tool-use-run-in-terminal-1.110.json', { tool_name: 'deleteFile', tool_input: { filePath: theirs } }),
    ];
    const allowed = [
      ...both(repo, ['create_file', 'createFile'], { filePath: path.join(repo.dir, 'src', 'new.ts'), content: 'x\n' }),
      vs(repo, 'pre-tool-use-replace-string.json', { tool_input: { filePath: path.join(repo.dir, 'a.txt'), oldString: 'a', newString: 'b', explanation: 'x' } }),
      vs(repo, 'pre-tool-use-edit-files-1.110.json'),
      vs(repo, 'pre-tool-use-create-file.json', { tool_input: { filePath: path.join(repo.dir, OWN_FILE), content: `<!-- claude-session: ${ME} -->\nmore\n` } }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'insert_edit_into_file', tool_input: { filePath: path.join(repo.dir, OWN_FILE), code: 'more notes', explanation: 'x' } }),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'read_file', tool_input: { filePath: theirs, startLine: 1, endLine: 5 } }),
      ...both(repo, ['run_in_terminal', 'runInTerminal'], run('npm test')),
      vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_input: run(`git log --oneline -3 ${THEIR_REF}`) }),
    ];
    const wrong: string[] = [];
    for (const p of refused) {
      const r = await inProcess(p);
      if (r.client !== 'vscode' || r.verdict !== 'deny') wrong.push(`allowed ${r.client} ${p.tool_name} ${JSON.stringify(p.tool_input).slice(0, 100)}`);
      // the answer VS Code reads: Claude Code's hookSpecificOutput, its hookEventName the event's
      else if (JSON.parse(r.out).hookSpecificOutput?.hookEventName !== 'PreToolUse' || malformed('vscode', r.out)) wrong.push(`${p.tool_name}: answer ${r.out.slice(0, 160)}`);
    }
    for (const p of allowed) {
      const r = await inProcess(p);
      if (r.verdict !== 'allow') wrong.push(`refused ${p.tool_name} ${JSON.stringify(p.tool_input).slice(0, 100)}: ${r.reason.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);

    // a git handoff command gets the session added, the tool's other arguments kept (VS Code checks its schema)
    const inject = await inProcess(vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_input: { command: 'git handoff write my-notes -m hi', explanation: 'save', isBackground: false } }));
    const out = JSON.parse(inject.out).hookSpecificOutput;
    expect(out.permissionDecision).toBe('allow');
    expect(out.updatedInput).toEqual({ command: `export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=vscode; git handoff write my-notes -m hi`, explanation: 'save', isBackground: false });

    // SessionStart (its first prompt) and Stop answered in the shape VS Code reads; UserPromptSubmit not at all
    const start = await inProcess(vs(repo, 'session-start.json'));
    expect(malformed('vscode', start.out)).toBeNull();
    if (start.out) expect(JSON.parse(start.out).hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(malformed('vscode', (await inProcess(vs(repo, 'stop.json'))).out)).toBeNull();
    expect((await inProcess(vs(repo, 'user-prompt-submit.json'))).out).toBe('');
  });

  it('through the real sh front as wired for Claude Code: its refusals reach VS Code, its harmless calls pass', async () => {
    const repo = await foreignWorld();
    const cases: Array<[Record<string, unknown>, 'deny' | 'allow']> = [
      [vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_input: { command: `git update-ref -d ${THEIR_REF}`, explanation: 'x', isBackground: false } }), 'deny'],
      [vs(repo, 'pre-tool-use-run-in-terminal-1.110.json', { tool_name: 'Bash', tool_input: { command: `git update-ref -d ${THEIR_REF}` } }), 'deny'],
      [vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'Bash', tool_input: { command: `git update-ref -d ${THEIR_REF}` } }), 'deny'],
      [vs(repo, 'pre-tool-use-edit-files-1.110.json', { tool_input: { files: [FOREIGN_FILE] } }), 'deny'],
      [vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'Bash', tool_input: { command: 'git status' } }), 'allow'],
      [vs(repo, 'pre-tool-use-create-file.json', { tool_input: { filePath: path.join(repo.dir, FOREIGN_FILE), content: 'mine\n' } }), 'deny'],
      [vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'Write', tool_input: { file_path: path.join(repo.dir, FOREIGN_FILE), content: 'mine\n' } }), 'deny'],
      [vs(repo, 'pre-tool-use-run-in-terminal.json', { tool_name: 'Write', tool_input: { file_path: path.join(repo.dir, 'src', 'new.ts'), content: 'x\n' } }), 'allow'],
    ];
    const wrong: string[] = [];
    for (const [p, expected] of cases) {
      const r = throughWiring(repo, p);
      if (r.verdict !== expected) wrong.push(`${p.tool_name}: ${r.verdict} ${r.out.slice(0, 160)}`);
      else if (r.out && malformed('vscode', r.out)) wrong.push(`${p.tool_name}: malformed ${r.out.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("doctor: VS Code's agent covered by the Claude Code wiring", () => {
  it('says so with its probe, in each of its shapes; a hook that refuses only Claude Code\'s shape is broken for it; unwired, it says how', async () => {
    const repo = makeRepo({ commit: true });
    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const row = async () => json(await repo.cli(['doctor', '--json'], { env: onPath })).items.find((i: any) => i.component === 'agent vscode');
    expect(await row()).toMatchObject({ status: 'info', detail: expect.stringContaining('git handoff install --agent claude covers') });
    expect((await repo.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    const ok = await row();
    expect(ok).toMatchObject({ status: 'ok' });
    expect(ok.detail).toMatch(/chat\.hookFilesLocations/);
    expect(ok.detail).toMatch(/run_in_terminal; runInTerminal, VS Code 1\.110\) through `.*git-handoff-guard --client=claude-code` was refused/);
    // a PreToolUse hook that refuses Claude Code's Bash only: Claude Code's probe passes, VS Code's does not
    const claudeOnly = path.join(repo.home, 'claude-only.sh');
    writeFileSync(claudeOnly, '#!/bin/sh\ncase $(cat) in *\'"tool_name":"Bash"\'*) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}\' ;; esac\n');
    chmodSync(claudeOnly, 0o755);
    const settings = path.join(repo.dir, '.claude', 'settings.json');
    const wired = JSON.parse(readFileSync(settings, 'utf8'));
    for (const g of wired.hooks.PreToolUse) for (const h of g.hooks) h.command = `${claudeOnly} git-handoff-guard --client=claude-code`;
    writeFileSync(settings, JSON.stringify(wired));
    const items = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(items.find((i: any) => i.component === 'agent vscode')).toMatchObject({ status: 'broken', detail: expect.stringContaining('(run_in_terminal) was not refused') });
  });
});
