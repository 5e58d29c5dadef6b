// Sessions end when they end: each client's end event ends the session's lease and claims, a session whose client
// process has exited is not live, and `sessions` says how each one ended.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, type TestRepo } from '../helpers/repo';
import { guard, ME, OTHER, payload, wroteFile } from './helpers';

const leaseOf = (repo: TestRepo) => repo.git(['for-each-ref', '--format=%(contents)', 'refs/handoff-leases/']).stdout;
async function sessions(repo: TestRepo): Promise<any[]> {
  const r = await repo.cli(['sessions', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout));
}

const END: Record<string, string> = {
  'claude-code': 'claude-code/real-session-end.json',
  codex: 'codex/real-session-end.json',
  'gemini-cli': 'gemini-cli/real-session-end.json',
};

describe('the end event', () => {
  for (const [client, fixture] of Object.entries(END)) {
    it(`${client}: SessionEnd ends the lease and the claims; the next session is not warned of it`, async () => {
      const repo = makeRepo({ commit: true });
      await wroteFile(repo, 'src/app.ts', OTHER);
      expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${OTHER}`);
      const end = await guard(repo, payload(repo, fixture, {}, OTHER));
      expect(end.exitCode).toBe(0);
      expect(end.stdout).toBe('');
      expect(leaseOf(repo)).toBe('');
      const [s] = await sessions(repo);
      expect(s).toMatchObject({ session: OTHER, status: 'ended', paths: [] });
      expect(s.ended).toMatch(/its client ended it \(SessionEnd, reason (other|exit)\)/);
      // the next session takes the worktree with no warning, and may commit the file the ended one wrote
      const next = await wroteFile(repo, 'src/other.ts', ME);
      expect(next.stdout).toBe('');
      expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${ME}`);
      const table = await repo.cli(['sessions']);
      expect(String(table.stdout)).toMatch(/ENDED/);
      expect(String(table.stdout)).toContain('its client ended it');
    });
  }

  it("Claude Code's /clear (reason clear, a known client process): left for the session that continues it", async () => {
    const repo = makeRepo({ commit: true });
    const env = { CLAUDE_PID: String(process.pid) };
    await wroteFile(repo, 'src/app.ts', OTHER, env);
    await guard(repo, payload(repo, 'claude-code/real-session-end.json', { reason: 'clear' }, OTHER), env);
    expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${OTHER}`);
    const [s] = await sessions(repo);
    expect(s).toMatchObject({ session: OTHER, status: 'live', ended: null });
  });
});

describe('a client process that is gone', () => {
  it('a session whose client exited without an end event is not live: `gone`, and the next session takes the lease unwarned', async () => {
    const repo = makeRepo({ commit: true });
    const file = path.join(path.dirname(repo.dir), 'payload.json');
    writeFileSync(path.join(repo.dir, 'a.txt'), 'x\n');
    writeFileSync(file, JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'a.txt'), content: 'x\n' } }, OTHER)));
    // a stand-in client process: a shell that runs the hook as its child, names itself in CLAUDE_PID, and exits
    const r = await execa('sh', ['-c', `CLAUDE_PID=$$ "${BIN}" guard < "${file}"; echo "pid=$$"`], { env: repo.env, extendEnv: false, cwd: repo.dir });
    const pid = Number(/pid=(\d+)/.exec(String(r.stdout))![1]);
    expect(leaseOf(repo)).toContain(`Handoff-Pid: ${pid}`);
    expect(leaseOf(repo)).toMatch(/Handoff-Host: \S+/);
    const [s] = await sessions(repo);
    expect(s).toMatchObject({ session: OTHER, status: 'gone' });
    expect(s.ended).toContain(`its client process ${pid} exited (no end event)`);
    const next = await wroteFile(repo, 'src/other.ts', ME);
    expect(next.stdout).toBe('');
    expect(leaseOf(repo)).toContain(`Claude-Session-Id: ${ME}`);
  });

  it('a live client process keeps its session live', async () => {
    const repo = makeRepo({ commit: true });
    await wroteFile(repo, 'src/app.ts', OTHER, { CLAUDE_PID: String(process.pid) });
    const [s] = await sessions(repo);
    expect(s).toMatchObject({ session: OTHER, status: 'live', ended: null });
    const next = await wroteFile(repo, 'src/other.ts', ME);
    expect(next.answer.hookSpecificOutput.additionalContext).toContain('another live session');
  });
});
