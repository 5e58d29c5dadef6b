// GitHub Copilot CLI, Qwen Code and OpenCode through the real `git handoff guard`, with payloads captured from the
// real clients (fixtures/hook-payloads/{copilot,qwen-code,opencode}/real-*.json): each refusal in the one shape
// that client obeys, Copilot's own argument names read through Claude Code's wiring, and that wiring standing aside
// when the native Copilot hooks are there.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT, type TestRepo } from '../helpers/repo';
import { ME, OTHER, payload, writeHandoff } from '../guard/helpers';

const REF = 'refs/handoffs/main/auth-refactor';
const foreignFile = 'memory/handoff-main-auth-refactor.md';

async function ask(repo: TestRepo, client: string, p: Record<string, unknown>, env: Record<string, string> = {}) {
  const r = await repo.cli(['guard', `--client=${client}`], { input: JSON.stringify(p), env });
  expect(r.exitCode).toBe(0);
  const out = String(r.stdout).trim();
  return out ? JSON.parse(out) : null;
}

async function withForeign(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  repo.write(foreignFile, `<!-- claude-session: ${OTHER} -->\n# Auth refactor\n`);
  await writeHandoff(repo, 'auth-refactor', 'their plan', OTHER);
  return repo;
}

/** A Copilot fixture with the session set (its native payloads name it sessionId). */
const copilot = (repo: TestRepo, fixture: string, over: Record<string, unknown> = {}) => payload(repo, `copilot/${fixture}`, { sessionId: ME, ...over }, null);

describe('GitHub Copilot CLI', () => {
  it('native hooks: refusals in the flat shape, the boot view as flat additionalContext, an ordinary call silent', async () => {
    const repo = await withForeign();
    expect(await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-bash.json'))).toBeNull();
    const del = await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-bash.json', { toolArgs: { command: `git update-ref -d ${REF}`, description: 'd' } }));
    expect(Object.keys(del).sort()).toEqual(['permissionDecision', 'permissionDecisionReason']);
    expect(del.permissionDecision).toBe('deny');
    expect(refOf(repo, REF)).not.toBeNull();
    const forged = await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-create.json', { toolArgs: { path: path.join(repo.dir, '.git/refs/handoffs/main/forged'), file_text: 'x\n' } }));
    expect(forged).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('ref store') });
    const edit = await ask(repo, 'copilot', copilot(repo, 'real-pre-tool-use-edit.json', { toolArgs: { path: path.join(repo.dir, foreignFile), old_str: 'Auth', new_str: 'Mine' } }));
    expect(edit.permissionDecisionReason).toContain(OTHER.slice(0, 8));
    const start = await ask(repo, 'copilot', copilot(repo, 'real-session-start.json'));
    expect(Object.keys(start)).toEqual(['additionalContext']);
    expect(start.additionalContext).toContain(`you are session ${ME}`);
    // told apart with no --client too (sessionId, no hook_event_name)
    const unnamed = await repo.cli(['guard'], { input: JSON.stringify(copilot(repo, 'real-pre-tool-use-bash.json', { toolArgs: { command: `git update-ref -d ${REF}` } })) });
    expect(JSON.parse(String(unnamed.stdout))).toMatchObject({ permissionDecision: 'deny' });
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('copilot');
  });

  it("through Claude Code's wiring: its argument names are read, the session is Copilot's; with the native hooks there it answers nothing", async () => {
    const repo = await withForeign();
    const env = { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: repo.dir };
    const write = payload(repo, 'copilot/real-claude-pre-tool-use-write.json', { tool_input: { path: path.join(repo.dir, '.git/refs/handoffs/main/forged'), file_text: 'x\n' } });
    const denied = await ask(repo, 'claude-code', write, env);
    expect(denied.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('ref store') });
    const edit = payload(repo, 'copilot/real-claude-pre-tool-use-edit.json', { tool_input: { path: path.join(repo.dir, foreignFile), old_str: 'Auth', new_str: 'Mine' } });
    expect((await ask(repo, 'claude-code', edit, env)).hookSpecificOutput.permissionDecision).toBe('deny');
    // Copilot reads SessionStart's context from this wiring only flat
    const start = await ask(repo, 'claude-code', payload(repo, 'copilot/real-claude-session-start.json'), env);
    expect(Object.keys(start)).toEqual(['additionalContext']);
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('copilot');
    // the native wiring present: this one stands aside for every event
    mkdirSync(path.join(repo.dir, '.github', 'hooks'), { recursive: true });
    writeFileSync(path.join(repo.dir, '.github', 'hooks', 'git-handoff.json'), '{"version":1,"hooks":{}}\n');
    expect(await ask(repo, 'claude-code', write, env)).toBeNull();
    expect(await ask(repo, 'claude-code', payload(repo, 'copilot/real-claude-session-start.json'), env)).toBeNull();
    // Claude Code itself (no COPILOT_CLI, no timestamp) is still answered
    const { timestamp: _t, ...claude } = write;
    expect((await ask(repo, 'claude-code', claude)).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('Qwen Code', () => {
  it("Claude Code's shape for its own tools: run_shell_command, write_file, edit", async () => {
    const repo = await withForeign();
    expect(await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-run-shell-command.json'))).toBeNull();
    const del = await ask(repo, 'qwen', payload(repo, 'qwen-code/real-pre-tool-use-run-shell-command.json', { tool_input: { command: `git update-ref -d ${REF}` } }));
    expect(del.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    const forged = await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-write-file.json', { tool_input: { file_path: path.join(repo.dir, '.git/refs/handoffs/main/forged'), content: 'x\n' } }));
    expect(forged.hookSpecificOutput.permissionDecision).toBe('deny');
    const edit = await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-edit.json', { tool_input: { file_path: path.join(repo.dir, foreignFile), old_string: 'Auth', new_string: 'Mine' } }));
    expect(edit.hookSpecificOutput.permissionDecisionReason).toContain(OTHER.slice(0, 8));
    const start = await ask(repo, 'qwen-code', payload(repo, 'qwen-code/real-session-start.json'));
    expect(start.hookSpecificOutput.additionalContext).toContain(`you are session ${ME}`);
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('qwen-code');
  });
});

describe('OpenCode', () => {
  it("the plugin's payloads: OpenCode's tools and camelCase arguments, refusals as {deny} (the plugin throws them), the boot view as {context}", async () => {
    const repo = await withForeign();
    expect(await ask(repo, 'opencode', payload(repo, 'opencode/real-pre-tool-use-bash.json'))).toBeNull();
    const del = await ask(repo, 'opencode', payload(repo, 'opencode/real-pre-tool-use-bash.json', { tool_input: { command: `git update-ref -d ${REF}`, description: 'd' } }));
    expect(Object.keys(del)).toEqual(['deny']);
    const forged = await ask(repo, 'opencode', payload(repo, 'opencode/real-pre-tool-use-write.json', { tool_input: { filePath: path.join(repo.dir, '.git/refs/handoffs/main/forged'), content: 'x\n' } }));
    expect(forged.deny).toContain('ref store');
    const edit = await ask(repo, 'opencode', payload(repo, 'opencode/real-pre-tool-use-edit.json', { tool_input: { filePath: path.join(repo.dir, foreignFile), oldString: 'Auth', newString: 'Mine' } }));
    expect(edit.deny).toContain(OTHER.slice(0, 8));
    const patchText = `*** Begin Patch\n*** Update File: ${foreignFile}\n@@\n-# Auth refactor\n+# Mine\n*** End Patch`;
    const patch = await ask(repo, 'opencode', payload(repo, 'opencode/real-pre-tool-use-apply-patch.json', { tool_input: { patchText } }));
    expect(patch.deny).toContain(OTHER.slice(0, 8));
    expect(await ask(repo, 'opencode', payload(repo, 'opencode/real-pre-tool-use-apply-patch.json'))).toBeNull();
    const start = await ask(repo, 'opencode', payload(repo, 'opencode/real-session-start.json'));
    expect(start.context).toContain(`you are session ${ME}`);
    expect(json(await repo.cli(['sessions', '--json'])).find((s: any) => s.session === ME)?.client).toBe('opencode');
  });

  it('install --agent opencode --plugin puts the plugin in the user folder and uninstall takes it away; the per-repository one is a file of its own', async () => {
    const repo = makeRepo({ commit: true });
    const userFile = path.join(repo.home, '.config', 'opencode', 'plugin', 'git-handoff.js');
    expect((await repo.cli(['install', '--agent', 'opencode', '--plugin'])).exitCode).toBe(0);
    expect(readFileSync(userFile, 'utf8')).toContain('const GUARD = "git-handoff-guard --client=opencode"');
    expect(existsSync(path.join(repo.dir, '.opencode'))).toBe(false);
    expect((await repo.cli(['uninstall', '--agent', 'opencode', '--plugin'])).exitCode).toBe(0);
    expect(existsSync(userFile)).toBe(false);
    // a plugin of that name that is not git-handoff's is left alone
    mkdirSync(path.join(repo.dir, '.opencode', 'plugin'), { recursive: true });
    writeFileSync(path.join(repo.dir, '.opencode', 'plugin', 'git-handoff.js'), 'export const Mine = async () => ({})\n');
    const r = await repo.cli(['install', '--agent', 'opencode']);
    expect(String(r.stdout)).toContain('left alone');
    expect(readFileSync(path.join(repo.dir, '.opencode', 'plugin', 'git-handoff.js'), 'utf8')).toBe('export const Mine = async () => ({})\n');
  });
});

describe('trust gates and names', () => {
  it("doctor: Copilot's untrusted folder is broken with the fix; trusted (a parent listed) it is ok", async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'copilot'])).exitCode).toBe(0);
    const env = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const before = await repo.cli(['doctor', '--json'], { env });
    expect(json(before).items.find((i: any) => i.component === 'agent copilot trust')).toMatchObject({ status: 'broken', detail: expect.stringContaining('trustedFolders') });
    expect(before.exitCode).not.toBe(0);
    mkdirSync(path.join(repo.home, '.copilot'), { recursive: true });
    writeFileSync(path.join(repo.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [path.dirname(repo.dir)] }));
    const after = json(await repo.cli(['doctor', '--json'], { env })).items;
    expect(after.find((i: any) => i.component === 'agent copilot trust')).toMatchObject({ status: 'ok' });
    expect(after.find((i: any) => i.component === 'agent copilot')).toMatchObject({ status: 'ok', detail: expect.stringContaining('probe') });
  });

  it('AGENTS.md and .agents/skills, read by Codex and Copilot CLI alike, stay while either is still wired', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'codex,copilot'])).exitCode).toBe(0);
    const skill = path.join(repo.dir, '.agents', 'skills', 'handoff', 'SKILL.md');
    expect(existsSync(skill)).toBe(true);
    expect((await repo.cli(['uninstall', '--agent', 'codex'])).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.codex'))).toBe(false);
    expect(existsSync(skill)).toBe(true);
    expect(readFileSync(path.join(repo.dir, 'AGENTS.md'), 'utf8')).toContain('git-handoff:start');
    expect((await repo.cli(['uninstall', '--agent', 'copilot'])).exitCode).toBe(0);
    for (const f of ['.agents', 'AGENTS.md', '.github']) expect(existsSync(path.join(repo.dir, f))).toBe(false);
  });

  it('one vocabulary: --agent, --to and GIT_HANDOFF_CLIENT take a client by its name or an alias', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'qwen-code,github-copilot'])).exitCode).toBe(0);
    expect(existsSync(path.join(repo.dir, '.qwen', 'settings.json'))).toBe(true);
    expect(existsSync(path.join(repo.dir, '.github', 'hooks', 'git-handoff.json'))).toBe(true);
    expect((await repo.cli(['install', '--agent', 'vim'])).exitCode).toBe(2);
    const w = await repo.cli(['write', 'for-claude', '-m', 'n', '--to', 'claude', '--to', 'client:qwen'], { env: { GIT_HANDOFF_SESSION: ME, GIT_HANDOFF_CLIENT: 'copilot-cli' } });
    expect(w.exitCode).toBe(0);
    const trailers = repo.git(['log', '-1', '--format=%(trailers)', 'refs/handoffs/main/for-claude']).stdout;
    expect(trailers).toContain('Handoff-To: client:claude-code');
    expect(trailers).toContain('Handoff-To: client:qwen-code');
    expect(trailers).toContain('Handoff-Client: copilot');
    // the session variables each client's shell has
    for (const [v, client] of [['COPILOT_AGENT_SESSION_ID', 'copilot'], ['QWEN_CODE_SESSION_ID', 'qwen-code'], ['OPENCODE_SESSION_ID', 'opencode']]) {
      expect((await repo.cli(['write', `from-${client}`, '-m', 'n'], { env: { [v]: `${client}-1234` } })).exitCode).toBe(0);
      expect(json(await repo.cli(['show', `from-${client}`, '--json']))).toMatchObject({ client, session: `${client}-1234` });
    }
  });
});
