// The whole Gemini CLI (0.61.0, `gemini -p`), offline against a scripted Gemini API (shared/tools/gemini-offline),
// in a trusted repository wired by `git handoff install --agent gemini`: its own hook runs, its own decisions, what
// the model and the person are shown.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { ensureGeminiCli, GEMINI_OFFLINE, harnessPaths, PATH_WITH_BIN, useOffline, wiredFor } from './deps';

const OTHER = 'other-session-77aa';
const REMINDER = 'context is about to be compacted';
const client = useOffline(GEMINI_OFFLINE, 'gemini-offline', ensureGeminiCli);

/** One `gemini -p` turn in which the model runs `command`; returns what the model was sent and what the person saw. */
async function turn(repo: TestRepo, command: string, o: { trust?: boolean } = {}): Promise<{ sent: string; shown: string; requests: string[] }> {
  const env = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, GEMINI_JS: client.path, TRUST: o.trust === false ? '0' : '1' };
  // an untrusted folder: headless Gemini CLI runs only with --skip-trust (its own advice), and then skips the project's hooks
  const untrusted = o.trust === false ? ['--skip-trust'] : [];
  const r = await execa('bash', [path.join(GEMINI_OFFLINE, 'run-gemini.sh'), repo.dir, command, '--approval-mode', 'yolo', ...untrusted], { env, extendEnv: false, reject: false, timeout: 240_000 });
  expect(String(r.stdout), String(r.stderr)).toContain('gemini exit 0');
  const at = harnessPaths(String(r.stdout));
  const read = (f: string | undefined) => (f && existsSync(f) ? readFileSync(f, 'utf8') : '');
  const raw = read(at.requests);
  return { sent: raw.replace(/\\n/g, '\n').replace(/\\"/g, '"'), shown: read(at.output), requests: raw.split('\n').filter(Boolean) };
}

const wired = () => wiredFor('gemini', { commit: true });

const count = (text: string, s: string) => text.split(s).length - 1;

describe('Gemini CLI, whole, offline, in an untrusted folder (issue 23)', () => {
  it('runs the raw deletion with git hooks off; the next command reports it and the next session start restores it', async () => {
    const repo = await wired();
    expect((await repo.cli(['write', 'login-redirect-loop', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    const ref = 'refs/handoffs/main/login-redirect-loop';
    const tip = refOf(repo, ref);
    const t = await turn(repo, `git update-ref -d ${ref}`, { trust: false });
    // no project hook ran, and Gemini CLI ran the command with git's hooks off (GIT_CONFIG_* sets core.hooksPath
    // empty in an untrusted workspace): the installed reference-transaction check never saw it
    expect(t.shown).not.toContain('Tool execution blocked');
    expect(refOf(repo, ref)).toBeNull();
    const list = await repo.cli(['list']);
    expect(list.stderr).toContain(`git handoff recover ${ref}`);
    // the person trusts the folder; the next session's start finds the loss in the record and puts it back
    const next = await turn(repo, 'echo hi');
    expect(refOf(repo, ref)).toBe(tip);
    expect(next.sent).toContain('restored at session start (lost outside git-handoff): refs/handoffs/main/login-redirect-loop restored');
  });
});

describe('Gemini CLI, whole, offline', () => {
  it('blocks a raw handoff ref deletion; the model gets the refusal', async () => {
    const repo = await wired();
    expect((await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    const t = await turn(repo, 'git update-ref -d refs/handoffs/main/auth-refactor');
    expect(refOf(repo, 'refs/handoffs/main/auth-refactor')).not.toBeNull();
    expect(t.shown).toContain('Tool execution blocked');
    expect(t.sent).toContain('git handoff archive');
  });

  it("records the session's `git handoff write` under its own id", async () => {
    const repo = await wired();
    const t = await turn(repo, 'git handoff write gemini-notes -m "written from gemini"');
    const me = /you are session ([A-Za-z0-9._:-]+)/.exec(t.sent)?.[1];
    expect(me, 'the session start context reached the model').toBeTruthy();
    const ref = 'refs/handoffs/main/gemini-notes';
    expect(refOf(repo, ref), t.shown).not.toBeNull();
    const trailers = repo.git(['log', '-1', '--format=%(trailers)', ref]).stdout;
    expect(trailers).toContain(`Claude-Session-Id: ${me}`);
    expect(trailers).toContain('Handoff-Client: gemini-cli');
  });

  it("commits from its shell (which gets no session id) under the session's own id", async () => {
    const repo = await wired();
    expect((await repo.cli(['install', '--hooks'], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    repo.write('from-gemini.txt', 'g\n');
    // Gemini CLI runs with a HOME of its own, where git knows no identity
    const t = await turn(repo, 'git add from-gemini.txt && git -c user.name=T -c user.email=t@example.com commit -q -m "from gemini"');
    const me = /you are session ([A-Za-z0-9._:-]+)/.exec(t.sent)?.[1];
    expect(me, 'the session start context reached the model').toBeTruthy();
    expect(repo.git(['log', '-1', '--format=%s']).stdout.trim(), t.sent.slice(t.sent.indexOf('functionResponse'), t.sent.indexOf('functionResponse') + 600)).toBe('from gemini');
    const trailers = repo.git(['log', '-1', '--format=%(trailers)']).stdout;
    expect(trailers).toContain(`Claude-Session-Id: ${me}`);
    expect(trailers).toContain('Handoff-Client: gemini-cli');
  });

  it('warns the second of two sessions in one worktree once, at its session start, and not the first; nothing waits for an after-tool hook', async () => {
    const repo = await wired();
    const settings = JSON.parse(readFileSync(path.join(repo.dir, '.gemini', 'settings.json'), 'utf8'));
    expect(settings.hooks.AfterTool[0].hooks[0].command).toMatch(/ --after$/);
    // the shell tool's warnings ride in its own output: no AfterTool hook runs after it
    expect(new RegExp(settings.hooks.AfterTool[0].matcher).test('run_shell_command')).toBe(false);
    expect(new RegExp(settings.hooks.BeforeTool[0].matcher).test('run_shell_command')).toBe(true);
    const a = await turn(repo, 'echo first > a.txt');
    expect(a.sent).not.toMatch(/another live session/);
    // that `gemini -p` ended its session (SessionEnd); a session still live beside it (its own Gemini CLI process,
    // seen here through the guard) holds the worktree
    const live = { session_id: 'live-gemini-7b7b', cwd: repo.dir, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: 'run_shell_command', tool_input: { command: 'echo x > live.txt' } };
    expect((await repo.cli(['guard', '--client=gemini-cli'], { input: JSON.stringify(live), env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    const b = await turn(repo, 'echo second > b.txt');
    expect(readFileSync(path.join(repo.dir, 'b.txt'), 'utf8')).toBe('second\n');
    // given once (every later request repeats the conversation)
    const first = b.requests.find((r) => r.includes('another live session'));
    expect(first, 'the warning reached the model').toBeTruthy();
    expect(count(first!, 'another live session')).toBe(1);
    expect(b.sent).toMatch(/<hook_context>[^<]*another live session/);
    // nothing is left pending for this session's after-tool hook; the live session's note about the newcomer waits for
    // its next call, which it sends to node (a `beside` line in its `.note`: Gemini CLI's shell calls carry a warning in their output)
    const dir = path.join(repo.dir, '.git', 'handoff', 'guard');
    expect(readdirSync(dir).filter((f) => f.endsWith('.note'))).toEqual(['live-gemini-7b7b.note']);
    const told = readFileSync(path.join(dir, 'live-gemini-7b7b.note'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(told.map((n) => n.kind)).toEqual(['beside']);
  });

  it('shows no compaction reminder in a turn that changed nothing, and one in a turn that did', async () => {
    const repo = await wired();
    const quiet = await turn(repo, 'echo hi');
    expect(quiet.shown).not.toContain(REMINDER);
    expect(quiet.sent).not.toContain(REMINDER);
    const changed = await turn(repo, 'echo x > changed.txt');
    expect(count(changed.shown, REMINDER)).toBe(1);
  });
});

describe('Gemini CLI and Codex wired in one repository', () => {
  it('a Gemini start reports no skill conflict, and the one handoff skill reaches its model', async () => {
    const repo = await wired();
    expect((await repo.cli(['install', '--agent', 'codex'], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'codex wiring']);
    const t = await turn(repo, 'echo hi');
    expect(t.shown).not.toMatch(/skill conflict/i);
    // the model's request (the first is the CLI's routing classifier) offers the skill, from .agents/skills alone
    const model = t.requests.find((r) => r.includes(':streamGenerateContent')) ?? '';
    expect(count(model, 'Write, read or check the handoff notes'), 'the skill offered once').toBe(1);
    expect(existsSync(path.join(repo.dir, '.gemini', 'skills'))).toBe(false);
  });
});
