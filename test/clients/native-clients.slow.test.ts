// The clients of issue 56 through the real `git handoff install --agent` and the commands it wires, fed the payloads
// their references document (fixtures/hook-payloads/<client>/; those of Cline and droid captured from the real clients):
// each refuses a write and a shell delete of another session's handoff file in its own protocol (a JSON answer, or
// exit 2 with the reason on stderr), lets a harmless call through with nothing said, and uninstall gives every file
// back byte for byte. The same through the real Cline CLI, Kilo Code CLI and droid: test/clients/{cline,kilo,droid}.clients.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/clients/names';
import { WIRING } from '../../src/clients/records';
import { shPayloadCommand } from '../../src/clients/wiring';
import { foreignWorld, FOREIGN_FILE, OWN_FILE } from '../guard/world';
import { json, refOf, ROOT, type TestRepo } from '../helpers/repo';
import { tree } from '../helpers/tree';
import { ME, OTHER, payload } from '../guard/helpers';

const THEIR_REF = 'refs/handoffs/main/auth-refactor';
const onPath = (repo: TestRepo) => ({ ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` });

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a wired command as the client does (`sh -c`, in the repository), the payload on stdin. */
function runHook(repo: TestRepo, command: string, p: unknown, env: Record<string, string> = {}): Run {
  const r = spawnSync('sh', ['-c', command], { cwd: repo.dir, env: { ...onPath(repo), ...env }, input: JSON.stringify(p), encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

/** The refusal in whichever protocol the answer is in: exit 2 and stderr, or a JSON answer's deny; null when allowed. */
function refusal(r: Run): string | null {
  if (r.status === 2) return r.stderr;
  expect(r.status, r.stderr).toBe(0);
  if (!r.stdout) return null;
  const a = JSON.parse(r.stdout);
  if (a.hookSpecificOutput?.permissionDecision === 'deny') return a.hookSpecificOutput.permissionDecisionReason;
  if (a.permission === 'deny') return a.agent_message;
  if (a.cancel === true) return a.errorMessage;
  if (typeof a.deny === 'string') return a.deny;
  if (a.permissionDecision === 'deny') return a.permissionDecisionReason;
  return null;
}

const at = (repo: TestRepo, f: string) => path.join(repo.dir, f);
const rm = `rm ${FOREIGN_FILE}`;

/**
 * Per client: the payloads of a write of another session's handoff file, a shell delete of it and a harmless shell
 * call, as its hooks get them with session ME (Kiro's carry none), the environment its hooks run in, and the protocol
 * its refusal must be in.
 */
const CLIENTS: Array<{
  agent: Agent;
  protocol: 'exit 2' | 'json';
  env?: (repo: TestRepo) => Record<string, string>;
  write: (repo: TestRepo) => Record<string, unknown>;
  shell: (repo: TestRepo, command: string) => Record<string, unknown>;
}> = [
  {
    agent: 'cursor',
    protocol: 'json',
    write: (repo) => payload(repo, 'cursor/pre-tool-use-write.json', { tool_input: { file_path: at(repo, FOREIGN_FILE), content: 'mine\n' } }),
    shell: (repo, command) => payload(repo, 'cursor/pre-tool-use-shell.json', { tool_input: { command, working_directory: repo.dir } }),
  },
  {
    agent: 'droid',
    protocol: 'json',
    write: (repo) => payload(repo, 'droid/real-pre-tool-use-create.json', { tool_input: { file_path: at(repo, FOREIGN_FILE), content: 'mine\n' } }),
    shell: (repo, command) => payload(repo, 'droid/real-pre-tool-use-execute-rm.json', { tool_input: { summary: 's', command, riskLevelReason: 'r', riskLevel: 'low' } }),
  },
  {
    agent: 'cline',
    protocol: 'json',
    write: (repo) => cline(repo, 'cline/real-pre-tool-use-editor-create.json', { name: 'editor', input: { path: at(repo, FOREIGN_FILE), new_text: 'mine\n' } }),
    shell: (repo, command) => cline(repo, 'cline/real-pre-tool-use-run-commands-rm.json', { name: 'run_commands', input: { commands: [command] } }),
  },
  {
    agent: 'windsurf',
    protocol: 'exit 2',
    write: (repo) => ({ ...payload(repo, 'windsurf/pre-write-code.json', {}, null), trajectory_id: ME, tool_info: { file_path: at(repo, FOREIGN_FILE), edits: [{ old_string: 'their note', new_string: 'mine' }] } }),
    shell: (repo, command) => ({ ...payload(repo, 'windsurf/pre-run-command.json', {}, null), trajectory_id: ME, tool_info: { command_line: command, cwd: repo.dir } }),
  },
  {
    agent: 'kiro',
    protocol: 'exit 2',
    write: (repo) => payload(repo, 'kiro/cli-pre-tool-use-fs-write-create.json', { tool_input: { command: 'create', path: at(repo, FOREIGN_FILE), file_text: 'mine\n' } }, null),
    shell: (repo, command) => payload(repo, 'kiro/cli-pre-tool-use-execute-bash.json', { tool_input: { command, summary: 's' } }, null),
  },
  {
    agent: 'augment',
    protocol: 'exit 2',
    write: (repo) => payload(repo, 'augment/pre-tool-use-save-file.json', { tool_input: { path: at(repo, FOREIGN_FILE), file_content: 'mine\n' } }),
    shell: (repo, command) => payload(repo, 'augment/pre-tool-use-launch-process.json', { tool_input: { command, wait: true, cwd: repo.dir } }),
  },
  {
    agent: 'devin',
    protocol: 'exit 2',
    // Devin sends no cwd: its hooks get DEVIN_PROJECT_DIR
    env: (repo) => ({ DEVIN_PROJECT_DIR: repo.dir }),
    write: (repo) => payload(repo, 'devin/pre-tool-use-write.json', { tool_input: { file_path: at(repo, FOREIGN_FILE), content: 'mine\n' } }),
    shell: (repo, command) => payload(repo, 'devin/pre-tool-use-exec.json', { tool_input: { command } }),
  },
  {
    agent: 'crush',
    protocol: 'exit 2',
    write: (repo) => payload(repo, 'crush/pre-tool-use-write.json', { tool_input: { file_path: at(repo, FOREIGN_FILE), content: 'mine\n' } }),
    shell: (repo, command) => payload(repo, 'crush/pre-tool-use-bash.json', { tool_input: { command } }),
  },
  {
    agent: 'kilo',
    protocol: 'json',
    // what the git-handoff plugin sends the guard from Kilo's tool.execute.before (fixtures/hook-payloads/kilo/real-plugin-before-*.json)
    write: (repo) => ({ hook_event_name: 'PreToolUse', session_id: ME, cwd: repo.dir, tool_name: 'write', tool_input: { filePath: at(repo, FOREIGN_FILE), content: 'mine\n' }, tool_use_id: 'c1' }),
    shell: (repo, command) => ({ hook_event_name: 'PreToolUse', session_id: ME, cwd: repo.dir, tool_name: 'bash', tool_input: { command, description: 'd' }, tool_use_id: 'c2' }),
  },
];

/** A Cline payload with session ME and the given tool call (its input as the model sent it, and as preToolUse has it). */
function cline(repo: TestRepo, fixture: string, call: { name: string; input: Record<string, unknown> }): Record<string, unknown> {
  const p = payload(repo, fixture, {}, null);
  const parameters = Object.fromEntries(Object.entries(call.input).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return { ...p, sessionContext: { rootSessionId: ME }, tool_call: { id: 'call_1', ...call }, preToolUse: { toolName: call.name, parameters } };
}

/** The command the client runs for its before-tool hook, as install wired it (doctor's probe runs the same). */
function wired(repo: TestRepo, agent: Agent): string {
  const w = WIRING[agent];
  if (w.runs) return w.runs('', repo.dir);
  const f = w.files!('', repo.dir)[0];
  const text = readFileSync(at(repo, f.file), 'utf8');
  // a plugin's guard, else the first command holding the guard
  const plugin = /^const GUARD = (".*")$/m.exec(text);
  return plugin ? JSON.parse(plugin[1]) : /"command": "([^"]*git-handoff[^"]*)"/.exec(text)![1];
}

describe('the clients of issue 56, through what install --agent wires', () => {
  for (const c of CLIENTS) {
    it(`${c.agent}: a write and a shell delete of another session's handoff file refused (${c.protocol}), a raw ref delete too, git status allowed`, async () => {
      const repo = await foreignWorld();
      const install = await repo.cli(['install', '--agent', c.agent, '--no-hooks'], { env: onPath(repo) });
      expect(install.exitCode, String(install.stderr)).toBe(0);
      const command = wired(repo, c.agent);
      const env = c.env?.(repo) ?? {};
      for (const p of [c.write(repo), c.shell(repo, rm), c.shell(repo, `git update-ref -d ${THEIR_REF}`)]) {
        const r = runHook(repo, command, p, env);
        const why = refusal(r);
        expect(why, `${c.agent} ${JSON.stringify(r)}`).toBeTruthy();
        // in its own protocol: exit 2 with nothing on stdout, or a JSON answer with exit 0
        if (c.protocol === 'exit 2') expect([r.status, r.stdout]).toEqual([2, '']);
        else expect(r.status).toBe(0);
      }
      expect(readFileSync(at(repo, FOREIGN_FILE), 'utf8')).toContain(OTHER);
      expect(refOf(repo, THEIR_REF)).not.toBeNull();
      const ok = runHook(repo, command, c.shell(repo, 'git status'), env);
      expect([ok.status, refusal(ok)], ok.stderr).toEqual([0, null]);
      // doctor probes the same command and finds it refusing
      const doctor = json(await repo.cli(['doctor', '--json'], { env: onPath(repo) }));
      expect(doctor.items.find((i: any) => i.component === `agent ${c.agent}`)).toMatchObject({ status: 'ok', detail: expect.stringContaining('refused as it should be') });
    });
  }

  it("Kiro's calls carry no session: a stranger's, refused its own handoff file too, while an ordinary file is written", async () => {
    const repo = await foreignWorld();
    expect((await repo.cli(['install', '--agent', 'kiro', '--no-hooks'], { env: onPath(repo) })).exitCode).toBe(0);
    const kiro = CLIENTS.find((c) => c.agent === 'kiro')!;
    const write = (file: string, text: string) => ({ ...kiro.write(repo), tool_input: { command: 'create', path: at(repo, file), file_text: text } });
    expect(refusal(runHook(repo, wired(repo, 'kiro'), write(OWN_FILE, `<!-- claude-session: ${ME} -->\nmine\n`)))).toBeTruthy();
    expect(refusal(runHook(repo, wired(repo, 'kiro'), write('src/new.ts', 'export {};\n')))).toBeNull();
  });

  it("Cline's refusal is its one blocking answer, which ends the whole task: {cancel: true} with the reason", async () => {
    const repo = await foreignWorld();
    expect((await repo.cli(['install', '--agent', 'cline', '--no-hooks'], { env: onPath(repo) })).exitCode).toBe(0);
    const r = runHook(repo, wired(repo, 'cline'), CLIENTS.find((c) => c.agent === 'cline')!.shell(repo, rm));
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(['cancel', 'errorMessage']);
  });
});

describe("the new clients' wiring is in the perimeter", () => {
  it("a session may not unwire them: a hook file added beside Cline's, a wired hooks file removed or edited out of the guard", async () => {
    const repo = await foreignWorld();
    expect((await repo.cli(['install', '--agent', 'cline,cursor,droid', '--no-hooks'])).exitCode).toBe(0);
    const claude = (tool: string, input: Record<string, unknown>) => payload(repo, tool === 'Bash' ? 'claude-code/pre-tool-use-bash.json' : 'claude-code/pre-tool-use-write.json', { tool_name: tool, tool_input: input });
    const droid = readFileSync(at(repo, '.factory/hooks.json'), 'utf8');
    const refused = [
      // every file in Cline's hook folders runs around its tools: a second PreToolUse could rewrite a call after the guard's
      claude('Write', { file_path: at(repo, '.clinerules/hooks/PreToolUse.sh'), content: '#!/bin/sh\necho {}\n' }),
      claude('Bash', { command: `printf '#!/bin/sh\\n' > ${at(repo, '.cline/hooks/PreToolUse')}` }),
      claude('Bash', { command: 'rm .cursor/hooks.json' }),
      claude('Write', { file_path: at(repo, '.factory/hooks.json'), content: droid.replace(/git-handoff-guard --client=factory-droid/g, 'true') }),
      claude('Write', { file_path: at(repo, '.clinerules/hooks/PreToolUse'), content: '#!/bin/sh\nexit 0\n' }),
    ];
    for (const p of refused) {
      const r = await repo.cli(['guard', '--client=claude-code'], { input: JSON.stringify(p) });
      expect(JSON.parse(String(r.stdout) || '{}').hookSpecificOutput?.permissionDecision, JSON.stringify(p.tool_input)).toBe('deny');
    }
    // the rest of a hooks file is the person's: another hook added next to the guard is written
    const more = JSON.parse(droid);
    more.Stop.push({ hooks: [{ type: 'command', command: './done.sh' }] });
    const ok = await repo.cli(['guard', '--client=claude-code'], { input: JSON.stringify(claude('Write', { file_path: at(repo, '.factory/hooks.json'), content: JSON.stringify(more, null, 2) })) });
    expect(String(ok.stdout)).not.toContain('"deny"');
  });
});

describe('install and uninstall of each: the files the person had come back byte for byte', () => {
  it('every client of issue 56 at once, beside the hooks files a person already keeps', async () => {
    const repo = await foreignWorld();
    // the person's own hooks in the files some of these clients share with git-handoff
    const mine: Record<string, string> = {
      '.cursor/hooks.json': '{"version":1,"hooks":{"preToolUse":[{"command":"./audit.sh"}]}}\n',
      '.factory/hooks.json': '{\n  "PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "./lint.sh"}]}]\n}\n',
      '.windsurf/hooks.json': '{"hooks": {"post_write_code": [{"command": "prettier --write"}]}}',
      '.kiro/agents/dev.json': '{"name":"dev","tools":["*"],"hooks":{"agentSpawn":[{"command":"git status"}]}}\n',
      '.augment/settings.local.json': '{"model":"x"}\n',
      '.devin/hooks.v1.json': '{"Stop":[{"hooks":[{"type":"command","command":"./done.sh"}]}]}\n',
      'crush.json': '{"$schema":"https://charm.land/crush.json","options":{"debug":false}}\n',
      'AGENTS.md': '# Agents\n\nBe brief.\n',
    };
    for (const [f, t] of Object.entries(mine)) {
      mkdirSync(path.dirname(at(repo, f)), { recursive: true });
      writeFileSync(at(repo, f), t);
    }
    const before = tree(repo.dir);
    const agents = CLIENTS.map((c) => c.agent);
    const r = await repo.cli(['install', '--agent', agents.join(','), '--no-hooks'], { env: onPath(repo) });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    // each client's hooks next to the person's, which stay
    const cursor = JSON.parse(readFileSync(at(repo, '.cursor/hooks.json'), 'utf8'));
    expect(cursor.hooks.preToolUse).toEqual([{ command: './audit.sh' }, { command: 'git-handoff guard --client=cursor', timeout: 30, failClosed: true }]);
    const droid = JSON.parse(readFileSync(at(repo, '.factory/hooks.json'), 'utf8'));
    expect(droid.PreToolUse[0].matcher).toBe('Execute');
    // droid starts hooks with `sh -c`: that sh runs the sh front itself, as Claude Code's does
    expect(droid.PreToolUse[1]).toEqual({ matcher: WIRING.droid.events.PreToolUse, hooks: [{ type: 'command', command: shPayloadCommand('git-handoff-guard --client=factory-droid'), timeout: 30 }] });
    expect(JSON.parse(readFileSync(at(repo, '.kiro/agents/dev.json'), 'utf8')).hooks).toMatchObject({ agentSpawn: [{ command: 'git status' }], preToolUse: [{ matcher: '*', command: 'git-handoff guard --client=kiro', cache_ttl_seconds: 0 }] });
    expect(existsSync(at(repo, '.kiro/agents/git-handoff.json'))).toBe(true);
    expect(JSON.parse(readFileSync(at(repo, 'crush.json'), 'utf8')).hooks.PreToolUse).toEqual([{ name: 'git-handoff', command: 'git-handoff guard --client=crush', timeout: 30 }]);
    expect(existsSync(at(repo, '.crush.json'))).toBe(false);
    expect(readFileSync(at(repo, '.clinerules/hooks/PreToolUse'), 'utf8')).toMatch(/^#!\/bin\/sh\n[^]*\nexec git-handoff guard --client=cline\n$/);
    expect(statSync(at(repo, '.clinerules/hooks/PreToolUse')).mode & 0o111).not.toBe(0);
    expect(readFileSync(at(repo, '.kilo/plugin/git-handoff.js'), 'utf8')).toContain('output.env.KILO_SESSION_ID = input.sessionID');
    expect(JSON.parse(readFileSync(at(repo, '.augment/settings.local.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command).toBe(at(repo, '.augment/hooks/git-handoff-guard.sh'));
    // again: nothing changes
    const wiredTree = tree(repo.dir);
    expect((await repo.cli(['install', '--agent', agents.join(','), '--no-hooks'], { env: onPath(repo) })).exitCode).toBe(0);
    expect(tree(repo.dir)).toEqual(wiredTree);
    const un = await repo.cli(['uninstall', '--agent', agents.join(',')], { env: onPath(repo) });
    expect(un.exitCode, String(un.stderr)).toBe(0);
    expect(tree(repo.dir)).toEqual(before);
  });

  it('a file changed since install keeps the change; only the git-handoff entries go', async () => {
    const repo = await foreignWorld();
    expect((await repo.cli(['install', '--agent', 'cursor,devin', '--no-hooks'])).exitCode).toBe(0);
    const cursor = JSON.parse(readFileSync(at(repo, '.cursor/hooks.json'), 'utf8'));
    cursor.hooks.stop.push({ command: './notify.sh' });
    writeFileSync(at(repo, '.cursor/hooks.json'), JSON.stringify(cursor));
    expect((await repo.cli(['uninstall', '--agent', 'cursor,devin'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(at(repo, '.cursor/hooks.json'), 'utf8'))).toEqual({ version: 1, hooks: { stop: [{ command: './notify.sh' }] } });
    expect(existsSync(at(repo, '.devin'))).toBe(false);
  });
});
