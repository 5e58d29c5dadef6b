// The real Codex CLI (0.169.0), offline against a scripted Responses API (shared/tools/codex-offline), in a
// repository wired by `git handoff install --agent codex`: what the model is told, what lands in git, and doctor's
// report of Codex's own hook trust, checked against the binary itself.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { CODEX_OFFLINE, ensureCodex, harnessPaths, PATH_WITH_BIN, useOffline, wiredFor } from './deps';

const OTHER = 'other-session-77aa';
const client = useOffline(CODEX_OFFLINE, 'codex-offline', ensureCodex);

interface Turn {
  thread: string;
  /** every request body the fake API got, as text */
  sent: string;
  events: string;
}

/** One offline Codex turn running `command` (or an apply_patch); trusted like a person's /hooks unless told not to. */
async function turn(repo: TestRepo, command: string, o: { trust?: boolean; patch?: string } = {}): Promise<Turn> {
  const env: Record<string, string> = {
    ...(repo.env as Record<string, string>),
    PATH: PATH_WITH_BIN,
    CODEX_BIN: client.path,
    CODEX_HOME: path.join(repo.home, '.codex'),
    TRUST: o.trust === false ? '0' : '1',
  };
  const extra: string[] = [];
  if (o.patch) Object.assign(env, { FAKE_TOOL: 'apply_patch', FAKE_PATCH: o.patch }), extra.push('-m', 'gpt-5.5');
  const r = await execa('bash', [path.join(CODEX_OFFLINE, 'run-codex.sh'), repo.dir, command, ...extra], { env, extendEnv: false, reject: false, timeout: 240_000 });
  const at = harnessPaths(String(r.stdout));
  expect(String(r.stdout), String(r.stderr)).toContain('codex exit 0');
  const events = readFileSync(at['codex --json events'], 'utf8');
  const thread = /"thread_id":"([^"]+)"/.exec(events)?.[1] ?? '';
  expect(thread).toMatch(/^[0-9a-f-]{36}$/);
  return { thread, sent: existsSync(at.requests) ? readFileSync(at.requests, 'utf8') : '', events };
}

/** The text of what Codex sent the model after the tool ran (the tool output or the hook's refusal), JSON-unescaped. */
const told = (t: Turn) => t.sent.replace(/\\n/g, '\n').replace(/\\"/g, '"');

const wired = () => wiredFor('codex', { commit: true });

describe('Codex, offline: a first turn with the hooks untrusted (issue 23)', () => {
  it('the raw deletion of another session\'s handoff is refused by the git hooks that came with install --agent codex', async () => {
    const repo = await wired();
    expect((await repo.cli(['write', 'login-redirect-loop', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    const ref = 'refs/handoffs/main/login-redirect-loop';
    const tip = refOf(repo, ref);
    const t = await turn(repo, `git update-ref -d ${ref}`, { trust: false });
    // Codex skipped its untrusted hooks silently: no PreToolUse refusal; the reference-transaction hook refused
    expect(told(t)).not.toContain('Command blocked by PreToolUse hook');
    expect(told(t)).toContain('ref updates aborted by hook');
    expect(refOf(repo, ref)).toBe(tip);
  });

  it('with --no-hooks the deletion goes through, and the next session start restores it and says so', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'codex', '--no-hooks'], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'wiring']);
    expect((await repo.cli(['write', 'login-redirect-loop', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    const ref = 'refs/handoffs/main/login-redirect-loop';
    const tip = refOf(repo, ref);
    await turn(repo, `git update-ref -d ${ref}`, { trust: false });
    expect(refOf(repo, ref)).toBeNull();
    // the person trusts the hooks; the next session's start finds the loss in the record and puts it back
    const next = await turn(repo, 'echo hi', { trust: true });
    expect(refOf(repo, ref)).toBe(tip);
    expect(told(next)).toContain('restored at session start (lost outside git-handoff): refs/handoffs/main/login-redirect-loop restored');
  });
});

describe('Codex, offline', () => {
  it('denies a raw handoff ref deletion, and the model is told the way', async () => {
    const repo = await wired();
    expect((await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    const ref = 'refs/handoffs/main/auth-refactor';
    const t = await turn(repo, `git update-ref -d ${ref}`);
    expect(refOf(repo, ref)).not.toBeNull();
    expect(told(t)).toContain('Command blocked by PreToolUse hook');
    expect(told(t)).toContain('git handoff archive');
  });

  it('records `git handoff write` from its shell under the thread id, as client codex everywhere', async () => {
    const repo = await wired();
    const t = await turn(repo, 'git handoff write codex-notes -m "written from codex"');
    const ref = 'refs/handoffs/main/codex-notes';
    expect(refOf(repo, ref), t.events).not.toBeNull();
    const trailers = repo.git(['log', '-1', '--format=%(trailers)', ref]).stdout;
    expect(trailers).toContain(`Claude-Session-Id: ${t.thread}`);
    expect(trailers).toMatch(/Handoff-Client: codex/);
    const sessions = json(await repo.cli(['sessions', '--json']));
    expect(sessions.find((s: any) => s.session === t.thread)?.client).toBe('codex');
    expect(json(await repo.cli(['show', 'codex-notes', '--json'])).client).toBe('codex');
  });

  it('runs a chained `git add … && git handoff write …` as it is, recorded under the thread id (its shell has CODEX_THREAD_ID)', async () => {
    const repo = await wired();
    repo.write('notes.txt', 'release notes\n');
    const t = await turn(repo, 'git add notes.txt && git handoff write release-notes -m "chained from codex"');
    expect(told(t)).not.toContain('Command blocked by PreToolUse hook');
    expect(told(t)).not.toContain('does not know your session');
    const trailers = repo.git(['log', '-1', '--format=%(trailers)', 'refs/handoffs/main/release-notes'], { allowFail: true }).stdout;
    expect(trailers, told(t)).toContain(`Claude-Session-Id: ${t.thread}`);
    expect(trailers).toMatch(/Handoff-Client: codex/);
    expect(repo.git(['diff', '--cached', '--name-only']).stdout.trim()).toBe('notes.txt');
  });

  it('warns the second of two sessions in one worktree, the two ids told apart', async () => {
    const repo = await wired();
    // a finished `codex exec` ended its session (SessionEnd): the next one is not warned of it
    const ended = await turn(repo, 'echo first > a.txt');
    const next = await turn(repo, 'echo again > c.txt');
    expect(told(next)).not.toContain('another live session');
    // a session still live beside it (its own Codex process, seen here through the guard): the next is warned
    const live = { session_id: '01a20482-d000-7000-8000-000000000001', turn_id: 't1', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo x > live.txt' } };
    expect((await repo.cli(['guard', '--client=codex'], { input: JSON.stringify(live), env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    const a = { thread: live.session_id };
    const b = await turn(repo, 'echo second > b.txt');
    expect(ended.thread).not.toBe(b.thread);
    expect(a.thread).not.toBe(b.thread);
    const m = /another live session, (\S+) \(codex[^)]*\)[^]*?You are session (\S+?)\./.exec(told(b));
    expect(m, 'the warning reached the model').not.toBeNull();
    // from the one hook a tool call runs (PreToolUse; Codex is wired with no PostToolUse): once, as a developer
    // message ahead of the tool's output
    const wiring = JSON.parse(readFileSync(path.join(repo.dir, '.codex', 'hooks.json'), 'utf8'));
    expect(wiring.hooks.PostToolUse).toBeUndefined();
    const afterTool = b.sent.split('\n').find((l) => l.includes('function_call_output'))!;
    expect(afterTool.split('another live session').length - 1).toBe(1);
    expect(afterTool.indexOf('another live session')).toBeLessThan(afterTool.indexOf('function_call_output'));
    expect(told(ended)).not.toMatch(/another live session/);
    const [, other, me] = m!;
    expect(other).not.toBe(me);
    expect(a.thread.startsWith(other)).toBe(true);
    expect(b.thread.startsWith(me)).toBe(true);
    expect(b.thread.startsWith(other)).toBe(false);
    const table = String((await repo.cli(['sessions'])).stdout);
    expect(table).toContain(other);
    expect(table).toContain(me);
  });

  it('with Gemini CLI wired too, the one handoff skill in .agents/skills still reaches its model', async () => {
    const repo = await wired();
    expect((await repo.cli(['install', '--agent', 'gemini'], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'gemini wiring']);
    const t = await turn(repo, 'echo hi');
    expect(existsSync(path.join(repo.dir, '.gemini', 'skills'))).toBe(false);
    expect(told(t)).toContain('Write, read or check the handoff notes');
  });

  it('denies an apply_patch into .git/refs/handoffs', async () => {
    const repo = await wired();
    const target = '.git/refs/handoffs/main/forged-topic';
    const oid = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const t = await turn(repo, 'unused', { patch: `*** Begin Patch\n*** Add File: ${target}\n+${oid}\n*** End Patch` });
    expect(existsSync(path.join(repo.dir, target))).toBe(false);
    expect(refOf(repo, 'refs/handoffs/main/forged-topic')).toBeNull();
    expect(told(t)).toMatch(/blocked by PreToolUse hook/);
  });

  it('doctor: untrusted hooks (which the real Codex skips) exit 1 naming the fix; trusted by Codex itself, ok', async () => {
    const repo = await wired();
    expect((await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    // untrusted: Codex skips its hooks without a word, as observed; the git hooks install --agent brought (issue 23)
    // still refuse the raw deletion
    await turn(repo, 'git update-ref -d refs/handoffs/main/auth-refactor', { trust: false });
    expect(refOf(repo, 'refs/handoffs/main/auth-refactor')).not.toBeNull();
    const env = { PATH: PATH_WITH_BIN, CODEX_HOME: path.join(repo.home, '.codex') };
    const before = await repo.cli(['doctor', '--json'], { env });
    expect(before.exitCode).toBe(1);
    const trust = json(before).items.find((i: any) => i.component === 'agent codex trust');
    expect(trust.status).toBe('broken');
    expect(trust.detail).toContain('/hooks');
    expect(trust.detail).toContain('not trusted');
    // trusted through Codex's own app-server (what /hooks does): doctor's hashes agree with the binary's
    await turn(repo, 'echo trusted');
    const after = json(await repo.cli(['doctor', '--json'], { env }));
    const row = after.items.find((i: any) => i.component === 'agent codex trust');
    expect(row, JSON.stringify(row)).toMatchObject({ status: 'ok' });
  });
});
