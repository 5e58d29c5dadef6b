// Sessions as they really start and end, with the real clients offline: two clones and a bare remote with
// `install --server`; clone B's first Claude Code session sees A's handoff in its startup context with no fetch by
// hand, reads it, and A sees B's receipt after sync; a `claude -p` session that ended is not live to the next one;
// Codex and Gemini CLI end their sessions the same way.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeWorld, ok } from '../sync/world';
import type { TestRepo } from '../helpers/repo';
import { converse, sessionsOf } from './claude-script';
import { CLAUDE_OFFLINE, CODEX_OFFLINE, ensureClaude, ensureCodex, ensureGeminiCli, GEMINI_OFFLINE, harnessPaths, PATH_WITH_BIN, useOffline, wiredFor } from './deps';

const A_SESSION = 'a-machine-5f0c6a52';
const claude = useOffline(CLAUDE_OFFLINE, 'claude-offline', ensureClaude);
const codex = useOffline(CODEX_OFFLINE, 'codex-offline', ensureCodex);
const gemini = useOffline(GEMINI_OFFLINE, 'gemini-offline', ensureGeminiCli);

/** Every text the client sent the model, across requests. */
function sentText(requests: any[]): string {
  const out: string[] = [];
  for (const body of requests) {
    for (const m of body.messages ?? []) for (const c of Array.isArray(m.content) ? m.content : [{ text: m.content }]) if (typeof c.text === 'string') out.push(c.text);
    for (const s of Array.isArray(body.system) ? body.system : []) if (typeof s.text === 'string') out.push(s.text);
  }
  return out.join('\n');
}

async function sessions(repo: TestRepo): Promise<any[]> {
  const r = await ok(repo, ['sessions', '--json']);
  return JSON.parse(String(r.stdout));
}

async function install(repo: TestRepo, agent: string): Promise<void> {
  expect((await repo.cli(['install', '--agent', agent], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', 'wiring']);
}

describe('Claude Code across two clones and a bare remote (install --server)', () => {
  it("B's first session sees A's handoff at start, reads it; A sees B's receipt after sync; an ended session is not live to the next", async () => {
    expect(claude.path).toBeTruthy();
    const { a, b } = await makeWorld('file', { server: true });
    a.git(['push', '-q', 'origin', 'HEAD:main']);
    b.git(['fetch', '-q', 'origin']);
    b.git(['reset', '-q', '--hard', 'origin/main']);
    await ok(a, ['write', 'auth-refactor', '-m', '# Goal\nfix the login redirect loop\n# Next action\nrun the auth tests'], 0, { GIT_HANDOFF_SESSION: A_SESSION });
    await ok(a, ['push']);
    await install(b, 'claude');
    expect(b.git(['for-each-ref', 'refs/handoffs/', 'refs/remotes/', 'refs/handoff-remotes/']).stdout).not.toContain('handoffs');

    const first = await converse(b, ['read the handoff'], [{ tool: 'Bash', input: { command: 'git handoff show auth-refactor' } }], { env: { PATH: PATH_WITH_BIN } });
    const told = sentText(first.requests);
    // the startup context: fetched at session start, and the handoff itself, wrapped
    expect(told).toContain('fetched from origin at session start (new: auth-refactor)');
    expect(told).toMatch(/<untrusted-content source="git-handoff" ref="refs\/handoffs\/main\/auth-refactor">[\s\S]*fix the login redirect loop/);
    expect(first.results.map((r) => r.text).join('\n')).toContain('fix the login redirect loop');
    const [bSession] = sessionsOf(first.stdout);
    expect(bSession).toMatch(/^[0-9a-f-]{36}$/);

    // the session ended (SessionEnd at exit): not live, and the next session is not warned of it
    const [ended] = (await sessions(b)).filter((s) => s.session === bSession);
    expect(ended).toMatchObject({ status: 'ended', lease: false });
    expect(ended.ended).toContain('SessionEnd, reason other');
    const second = await converse(b, ['look around'], [{ tool: 'Bash', input: { command: 'git status --short' } }], { env: { PATH: PATH_WITH_BIN } });
    expect(sentText(second.requests)).not.toContain('another live session');

    // B's read receipt travels: B syncs, A syncs, A sees who read its handoff
    await ok(b, ['sync']);
    await ok(a, ['sync']);
    const shown = JSON.parse(String((await ok(a, ['show', 'auth-refactor', '--json'])).stdout));
    expect(shown.readBy).toEqual(expect.arrayContaining([expect.objectContaining({ reader: bSession, how: 'read' })]));
  });
});

describe('Claude Code compaction', () => {
  it('the PreCompact reminder reaches the compaction as plain text, not a JSON blob', async () => {
    const repo = await wiredFor('claude', { commit: true });
    const c = await converse(repo, ['write a file', '/compact'], [{ tool: 'Bash', input: { command: 'echo hi > a.txt' } }], { env: { PATH: PATH_WITH_BIN } });
    const told = sentText(c.requests);
    expect(told).toMatch(/Additional Instructions:\ngit-handoff: context is about to be compacted\. /);
    expect(told).not.toContain('{"systemMessage"');
    expect(c.stdout).toContain('completed successfully: git-handoff: context is about to be compacted');
  });
});

describe('the same end event through Codex and Gemini CLI', () => {
  it('Codex: `codex exec` sends SessionEnd at exit; its session is ended, not live', async () => {
    const repo = await wiredFor('codex', { commit: true });
    const env: Record<string, string> = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, CODEX_BIN: codex.path, CODEX_HOME: path.join(repo.home, '.codex'), TRUST: '1' };
    const r = await execa('bash', [path.join(CODEX_OFFLINE, 'run-codex.sh'), repo.dir, 'echo hi > codex.txt'], { env, extendEnv: false, reject: false, timeout: 240_000 });
    expect(String(r.stdout), String(r.stderr)).toContain('codex exit 0');
    // the command ran under the session (its claim is gone with the session's end)
    expect(existsSync(path.join(repo.dir, 'codex.txt'))).toBe(true);
    const rows = await sessions(repo);
    expect(rows).toHaveLength(1);
    const [s] = rows;
    expect(s).toMatchObject({ status: 'ended', lease: false });
    expect(s.ended).toContain('SessionEnd, reason other');
    expect(harnessPaths(String(r.stdout)).requests).toBeTruthy();
  });

  it('Gemini CLI: `gemini -p` sends SessionEnd at exit; its session is ended, not live (and its startup context arrives unescaped)', async () => {
    const repo = await wiredFor('gemini', { commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', '# Goal\nfix the login'], 0, { GIT_HANDOFF_SESSION: A_SESSION });
    const env = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, GEMINI_JS: gemini.path, TRUST: '1' };
    const r = await execa('bash', [path.join(GEMINI_OFFLINE, 'run-gemini.sh'), repo.dir, 'echo hi > gemini.txt', '--approval-mode', 'yolo'], { env, extendEnv: false, reject: false, timeout: 240_000 });
    expect(String(r.stdout), String(r.stderr)).toContain('gemini exit 0');
    // Gemini CLI HTML-escapes hook context: the wrapper it shows the model is the bracket form, intact
    const sent = readFileSync(harnessPaths(String(r.stdout)).requests, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        const entry = JSON.parse(line);
        const body = typeof entry.body === 'string' ? JSON.parse(entry.body) : entry.body ?? entry;
        return (body.contents ?? []).flatMap((c: any) => (c.parts ?? []).map((p: any) => p.text ?? ''));
      })
      .join('\n');
    expect(sent).toMatch(/\[untrusted-content source="git-handoff" ref="refs\/handoffs\/main\/auth-refactor"\]\n# Goal\nfix the login\n\[\/untrusted-content\]/);
    expect(sent).not.toContain('&lt;untrusted-content');
    expect(existsSync(path.join(repo.dir, 'gemini.txt'))).toBe(true);
    const rows = await sessions(repo);
    expect(rows).toHaveLength(1);
    const [s] = rows;
    expect(s).toMatchObject({ status: 'ended', lease: false });
    expect(s.ended).toContain('SessionEnd, reason exit');
  });
});
