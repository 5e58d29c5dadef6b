// Claims through the real clients offline (SPEC 10, issue 53): session A claims src/auth/ with a note; a session of
// Claude Code, Codex or Gemini CLI in the same repository writes there. By default the write is refused, the model is
// told who holds it, why, until when and the ways on, and the file is not written; A hears of it at its next tool
// call. With handoff.claims=tell the write lands and each client's model is told, Gemini CLI's in a shell command's
// output or, for a file tool, its AfterTool context (its BeforeTool can only tell the person).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { type TestRepo } from '../helpers/repo';
import { converse } from './claude-script';
import { mcpCall, runClient } from './every-client';
import { CLAUDE_OFFLINE, CODEX_OFFLINE, ensureClaude, ensureCodex, ensureGeminiCli, GEMINI_OFFLINE, harnessPaths, PATH_WITH_BIN, useOffline, wiredFor } from './deps';

const A = 'claims-holder-a1b2';
const NOTE = 'moving login to OAuth, do not touch';

const codex = useOffline(CODEX_OFFLINE, 'codex-offline', ensureCodex);
const gemini = useOffline(GEMINI_OFFLINE, 'gemini-offline', ensureGeminiCli);
useOffline(CLAUDE_OFFLINE, 'claude-offline', ensureClaude);

/** A claims src/auth/ after one tool call of its own (a session this clone's guard knows, so it can be told). */
async function claimedByA(repo: TestRepo): Promise<void> {
  await holderCall(repo);
  const c = await repo.cli(['claim', 'src/auth/', '--note', NOTE], { env: { GIT_HANDOFF_SESSION: A } });
  expect(c.exitCode, String(c.stderr)).toBe(0);
  expect(String(c.stdout)).toContain('enforced:');
}

/** A's next tool call (Claude Code's shape, through the CLI's guard): what it is told before the tool. */
async function holderCall(repo: TestRepo): Promise<string> {
  const p = { session_id: A, transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
  const r = await repo.cli(['guard'], { input: JSON.stringify(p) });
  const out = String(r.stdout).trim();
  return out ? (JSON.parse(out).hookSpecificOutput?.additionalContext ?? '') : '';
}

const unescaped = (s: string) => s.replace(/\\n/g, '\n').replace(/\\"/g, '"');

describe('claims, Claude Code offline', () => {
  it("B's Write of a path A claims is refused with A's note and the ways on, A is told; tell lets it land and tells the model", async () => {
    const repo = await wiredFor('claude');
    await claimedByA(repo);
    const file = path.join(repo.dir, 'src', 'auth', 'login.ts');

    const refused = await converse(repo, ['change the login'], [{ tool: 'Write', input: { file_path: file, content: 'export const login = 1;\n' } }], { env: { PATH: PATH_WITH_BIN } });
    expect(refused.results).toHaveLength(1);
    expect(refused.results[0].error).toBe(true);
    expect(refused.results[0].text).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(refused.results[0].text).toContain(NOTE);
    expect(refused.results[0].text).toContain('--take-over --reason');
    expect(existsSync(file)).toBe(false);
    // the session start view listed the claim too
    expect(JSON.stringify(refused.requests)).toContain('git-handoff claims on this branch');
    expect(await holderCall(repo)).toMatch(/your claim on src\/auth\/ .* refused session \S+ \(claude-code\) a write of src\/auth\/login\.ts/);

    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await converse(repo, ['change the login'], [{ tool: 'Write', input: { file_path: file, content: 'export const login = 1;\n' } }], { env: { PATH: PATH_WITH_BIN } });
    expect(told.results[0].error).toBe(false);
    expect(JSON.stringify(told.requests)).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(readFileSync(file, 'utf8')).toBe('export const login = 1;\n');
  });

  it("B's MCP filesystem server: its write of a path A claims is refused naming A, the file unchanged; its read of it and its write elsewhere go on", async () => {
    const repo = await wiredFor('claude');
    await claimedByA(repo);
    repo.write('src/auth/login.ts', 'export const login = 2; // A, in progress\n');
    const file = path.join(repo.dir, 'src', 'auth', 'login.ts');
    const elsewhere = path.join(repo.dir, 'src', 'db.ts');
    const run = await runClient('claude-code', repo, [
      mcpCall('claude-code', 'read_text_file', { path: file }),
      mcpCall('claude-code', 'write_file', { path: file, content: 'export const login = 3;\n' }),
      mcpCall('claude-code', 'write_file', { path: elsewhere, content: 'export const db = 1;\n' }),
    ]);
    expect(run.results[0], run.out).toContain('A, in progress');
    expect(run.results[1], run.out).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(run.results[1], run.out).toContain(NOTE);
    expect(readFileSync(file, 'utf8')).toBe('export const login = 2; // A, in progress\n');
    expect(readFileSync(elsewhere, 'utf8'), run.out).toBe('export const db = 1;\n');
  });
});

/** One offline Codex turn running `command`, its hooks trusted. */
async function codexTurn(repo: TestRepo, command: string): Promise<{ sent: string; events: string }> {
  const env = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, CODEX_BIN: codex.path, CODEX_HOME: path.join(repo.home, '.codex'), TRUST: '1' };
  const r = await execa('bash', [path.join(CODEX_OFFLINE, 'run-codex.sh'), repo.dir, command], { env, extendEnv: false, reject: false, timeout: 240_000 });
  expect(String(r.stdout), String(r.stderr)).toContain('codex exit 0');
  const at = harnessPaths(String(r.stdout));
  return { sent: unescaped(readFileSync(at.requests, 'utf8')), events: readFileSync(at['codex --json events'], 'utf8') };
}

describe('claims, Codex offline', () => {
  it('a shell write into the claim is blocked and the model told why; tell: it runs and the model is told; no timeout is clamped', async () => {
    const repo = await wiredFor('codex', { commit: true });
    await claimedByA(repo);
    const file = path.join(repo.dir, 'src', 'auth', 'login.ts');
    const refused = await codexTurn(repo, `mkdir -p src/auth && echo x > ${file}`);
    expect(refused.sent).toContain('Command blocked by PreToolUse hook');
    expect(refused.sent).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(refused.sent).toContain(NOTE);
    expect(existsSync(file)).toBe(false);
    // Codex 0.169.0 takes the wiring's every timeout as written (it clamped SessionEnd's 30 s to 3 s at every start)
    expect(refused.events).not.toContain('clamping');
    expect(await holderCall(repo)).toMatch(/your claim on src\/auth\/ .* refused session \S+ \(codex\)/);

    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await codexTurn(repo, `mkdir -p src/auth && echo x > ${file}`);
    expect(told.sent).not.toContain('Command blocked by PreToolUse hook');
    expect(told.sent).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(readFileSync(file, 'utf8')).toBe('x\n');
  });
});

/** One `gemini -p` turn running `command` in the trusted repository: what the model was sent, what the person saw. */
async function geminiTurn(repo: TestRepo, command: string): Promise<{ sent: string; shown: string; requests: string[] }> {
  const env = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, GEMINI_JS: gemini.path, TRUST: '1' };
  const r = await execa('bash', [path.join(GEMINI_OFFLINE, 'run-gemini.sh'), repo.dir, command, '--approval-mode', 'yolo'], { env, extendEnv: false, reject: false, timeout: 240_000 });
  expect(String(r.stdout), String(r.stderr)).toContain('gemini exit 0');
  const at = harnessPaths(String(r.stdout));
  const raw = readFileSync(at.requests, 'utf8');
  return { sent: unescaped(raw), shown: readFileSync(at.output, 'utf8'), requests: raw.split('\n').filter(Boolean) };
}

describe('claims, Gemini CLI offline', () => {
  it("a shell write into the claim is blocked and the model reads why (the deny reason); tell: the model reads it in the command's output, not only the person; a file tool's, after the tool (AfterTool's context)", async () => {
    const repo = await wiredFor('gemini', { commit: true });
    await claimedByA(repo);
    const file = path.join(repo.dir, 'src', 'auth', 'login.ts');
    const refused = await geminiTurn(repo, `mkdir -p src/auth && echo x > ${file}`);
    expect(refused.shown).toContain('Tool execution blocked');
    expect(refused.sent).toContain(`src/auth/login.ts is claimed by session ${A}`);
    expect(refused.sent).toContain(NOTE);
    expect(existsSync(file)).toBe(false);
    expect(await holderCall(repo)).toMatch(/your claim on src\/auth\/ .* refused session \S+ \(gemini-cli\)/);

    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await geminiTurn(repo, `mkdir -p src/auth && echo x > ${file}`);
    expect(readFileSync(file, 'utf8')).toBe('x\n');
    // the tool's response to the model carries the claim in the command's output (the rewritten command prints it to
    // stderr first): the model's channel, where BeforeTool's systemMessage reaches only the person
    const response = told.sent.slice(told.sent.indexOf('"functionResponse"'));
    expect(response).toMatch(new RegExp(`"output":"[^"]*git-handoff: another live session claims what this call writes:[^]*src/auth/login\\.ts is claimed by session ${A}`));
    expect(response).toContain(NOTE);
    expect(told.shown).toContain(`Hook system message: git-handoff: another live session claims what this call writes:`);
    // a file tool's write: after the tool, as AfterTool's additionalContext inside the tool's response
    const other = path.join(repo.dir, 'src', 'auth', 'other.ts');
    const run = await runClient('gemini-cli', repo, [{ name: 'write_file', args: { file_path: other, content: 'y\n' } }]);
    expect(readFileSync(other, 'utf8'), run.out).toBe('y\n');
    expect(run.results[0], run.out).toMatch(new RegExp(`<hook_context>git-handoff: another live session claims what this call writes:[^<]*src/auth/other\\.ts is claimed by session ${A}`));
  });
});
