// src/guard/rules/inject.ts: `git handoff` from a shell that lacks the session gets it added where the shell would not
// know it (in each client's own way), and a command that names another session is refused.
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execaSync } from 'execa';
import { expect, it } from 'vitest';
import { quickDescribe } from '../../helpers/sets';
import { makeRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, shellCall as bash } from '../helpers';

quickDescribe('git handoff from a shell that lacks the session', () => {
  it('Claude Code: injects the session with updatedInput, and the rewritten command works', async () => {
    const repo = makeRepo({ commit: true });
    const r = await bash(repo, 'git handoff write auth-refactor -m "first note"');
    const out = r.answer.hookSpecificOutput;
    expect(out.permissionDecision).toBe('allow');
    expect(out.updatedInput.command).toContain(`GIT_HANDOFF_SESSION='${ME}'`);
    expect(out.updatedInput.description).toBe('Run test suite');
    const bin = `${process.cwd()}/bin`;
    const run = execaSync('bash', ['-c', out.updatedInput.command], { cwd: repo.dir, env: { ...repo.env, PATH: `${bin}:${process.env.PATH}` }, extendEnv: false, reject: false });
    expect(run.exitCode).toBe(0);
    const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/auth-refactor']).stdout.trim();
    expect(owner).toBe(ME);
  });

  it('passes when the shell already exports the session, and for commands that need none', async () => {
    const repo = makeRepo({ commit: true });
    expect(await bash(repo, 'git handoff write auth-refactor -m x', { CLAUDE_CODE_SESSION_ID: ME })).toMatchObject({ stdout: '' });
    expect(await bash(repo, 'git handoff list | head -3')).toMatchObject({ stdout: '' });
    expect(await bash(repo, `git handoff write auth-refactor --session ${ME} -m x`)).toMatchObject({ stdout: '' });
  });

  it('refuses a chain it cannot rewrite safely, giving the exact command to retry', async () => {
    const repo = makeRepo({ commit: true });
    const reason = denial(await bash(repo, 'npm run build && git handoff write auth-refactor -m x'));
    expect(reason).toContain(`You are session ${ME}`);
    expect(reason).toContain(`export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=claude-code; npm run build && git handoff write auth-refactor -m x`);
    const cursor = await guard(repo, payload(repo, 'cursor/before-shell-execution.json', { command: 'git handoff write auth-refactor -m x' }));
    expect(cursor.answer.permission).toBe('deny');
  });

  it("Codex: a chained git handoff write passes as it is, its shell exporting CODEX_THREAD_ID where its hook has none", async () => {
    const repo = makeRepo({ commit: true });
    repo.write('notes.txt', 'n\n');
    const line = 'git add notes.txt && git handoff write release-notes -m "from codex"';
    const r = await guard(repo, payload(repo, 'codex/real-pre-tool-use-bash.json', { tool_input: { command: line } }));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    // the line as Codex's shell runs it: the write lands under the payload's session, as client codex
    const bin = `${process.cwd()}/bin`;
    const run = execaSync('bash', ['-c', line], { cwd: repo.dir, env: { ...repo.env, CODEX_THREAD_ID: ME, PATH: `${bin}:${process.env.PATH}` }, extendEnv: false, reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%(trailers)', 'refs/handoffs/main/release-notes']).stdout).toMatch(new RegExp(`Claude-Session-Id: ${ME}[^]*Handoff-Client: codex|Handoff-Client: codex[^]*Claude-Session-Id: ${ME}`));
  });

  it('PowerShell gets its own syntax for the session', async () => {
    const repo = makeRepo({ commit: true });
    const p: any = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_name: 'PowerShell' });
    p.tool_input = { command: 'git handoff write auth-refactor -m x' };
    const r = await guard(repo, p);
    expect(r.answer.hookSpecificOutput.updatedInput.command).toBe(`$env:GIT_HANDOFF_SESSION='${ME}'; $env:GIT_HANDOFF_CLIENT='claude-code'; git handoff write auth-refactor -m x`);
  });

  const ranAs = `printf '%s\\n' 'git-handoff: ran as session ${ME} (GIT_HANDOFF_SESSION added to the command)' >&2\n`;

  it('Gemini: rewrites through hookSpecificOutput.tool_input', async () => {
    const repo = makeRepo({ commit: true });
    const r = await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'git handoff write auth-refactor -m x', description: 'd' } }));
    // what the model is told comes first, printed by the command (Gemini CLI reads no before-tool context)
    expect(r.answer.hookSpecificOutput.tool_input.command).toBe(`${ranAs}export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=gemini-cli; git handoff write auth-refactor -m x`);
    expect(r.answer.decision).toBeUndefined();
  });

  it("Gemini: a git command that makes commits gets the session too, and the commit carries the session's trailer", async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['install', '--hooks']);
    repo.write('g.txt', 'g\n');
    const line = 'git add g.txt && git commit -q -m "from gemini"';
    const r = await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: line, description: 'd' } }));
    const command = r.answer.hookSpecificOutput.tool_input.command;
    // and git's hooks back where its shell turns them off, as Gemini CLI's does for every command
    const hooks = realpathSync(path.join(repo.dir, '.git', 'hooks'));
    expect(command).toBe(`${ranAs}export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=gemini-cli GIT_CONFIG_PARAMETERS="'core.hookspath'='${hooks}'"; ${line}`);
    const bin = `${process.cwd()}/bin`;
    const off = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: '' };
    const run = execaSync('bash', ['-c', command], { cwd: repo.dir, env: { ...repo.env, ...off, PATH: `${bin}:${process.env.PATH}` }, extendEnv: false, reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(`git-handoff: ran as session ${ME}`);
    expect(repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)']).stdout.trim()).toBe(ME);
    // reads stay as they are; a shell that knows the session (Claude Code's) is not rewritten
    expect((await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'git log -1', description: 'd' } }))).stdout).toBe('');
    expect(await bash(repo, 'git commit -q --allow-empty -m x', { CLAUDE_CODE_SESSION_ID: ME })).toMatchObject({ stdout: '' });
  });

  it("Gemini: git's hooks are named back only where git-handoff's stubs are (any one of them)", async () => {
    const repo = makeRepo({ commit: true });
    const line = 'git commit -q --allow-empty -m x';
    const ask = async () => (await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: line, description: 'd' } }))).answer.hookSpecificOutput.tool_input.command as string;
    // no stub in the hooks folder: the session alone, git's hooks left as the shell has them
    expect(await ask()).toBe(`${ranAs}export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=gemini-cli; ${line}`);
    await repo.cli(['install', '--hooks']);
    const hooks = realpathSync(path.join(repo.dir, '.git', 'hooks'));
    // one stub left of the five is still git-handoff's hooks folder
    for (const h of ['prepare-commit-msg', 'commit-msg', 'pre-commit', 'pre-push']) rmSync(path.join(hooks, h));
    expect(await ask()).toContain(`GIT_CONFIG_PARAMETERS="'core.hookspath'='${hooks}'"`);
    // a hook of another tool under a stub's name is not a stub
    writeFileSync(path.join(hooks, 'reference-transaction'), '#!/bin/sh\nexit 0\n');
    expect(await ask()).not.toContain('core.hookspath');
  });

  it('refuses a git handoff command that names another session', async () => {
    const repo = makeRepo({ commit: true });
    expect(denial(await bash(repo, `git handoff write auth-refactor --session ${OTHER} -m x`))).toContain(`you are session ${ME}`);
    expect(denial(await bash(repo, `GIT_HANDOFF_SESSION=${OTHER} git handoff write auth-refactor -m x`))).toBeTruthy();
  });

  it('refuses take-over and release from a subagent, which acts under its parent', async () => {
    const repo = makeRepo({ commit: true });
    const p: any = payload(repo, 'claude-code/pre-tool-use-bash.json', { agent_id: 'agent-7' });
    for (const command of ['git handoff write auth-refactor --take-over --reason x -m y', 'git handoff release']) {
      p.tool_input = { command };
      expect(denial(await guard(repo, p, { CLAUDE_CODE_SESSION_ID: ME }))).toContain('subagent agent-7');
    }
    p.tool_input = { command: 'git handoff write auth-refactor -m y' };
    expect(await guard(repo, p, { CLAUDE_CODE_SESSION_ID: ME })).toMatchObject({ stdout: '' });
  });
});
