// src/guard/lineage.ts against an attacker, through the real `git-handoff guard`: CLAUDE_PID counts only when that
// process is an ancestor of the hook, so a hand-made SessionStart naming another process inherits nothing.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, tempDir } from '../helpers/repo';
import { guard, payload } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';

describe('forged lineage: CLAUDE_PID counts only when that process is an ancestor of the hook (7)', () => {
  it('a hand-made SessionStart {"source":"clear"} naming another process inherits nothing', async () => {
    const repo = makeRepo({ commit: true });
    const dir = tempDir();
    const start = (session: string, source: string) => JSON.stringify(payload(repo, 'claude-code/session-start.json', { source }, session));
    writeFileSync(path.join(dir, 'a.json'), start('aaaa1111-victim', 'startup'));
    // session A runs in its own client process: a shell that stays alive (its pid is A's CLAUDE_PID)
    const client = spawn('sh', ['-c', `CLAUDE_PID=$$ ${BIN} guard < a.json > a.out; echo > ready; exec sleep 60`], { cwd: dir, env: repo.env, stdio: 'ignore' });
    try {
      for (let i = 0; i < 600 && !existsSync(path.join(dir, 'ready')); i++) await new Promise((r) => setTimeout(r, 100));
      const aPid = String(client.pid);
      expect((await repo.cli(['write', 'auth-refactor', '-m', 'A'], { env: { GIT_HANDOFF_SESSION: 'aaaa1111-victim', GIT_HANDOFF_CLIENT: 'claude-code' } })).exitCode).toBe(0);
      // B forges A's pid: that process is alive, but not in B's parent chain, so B is not A's successor
      const forged = await guard(repo, JSON.parse(start('bbbb2222-attacker', 'clear')), { CLAUDE_PID: aPid });
      expect(JSON.stringify(forged.answer ?? '')).not.toMatch(/continuing session/);
      const w = await repo.cli(['write', 'auth-refactor', '-m', 'B'], { env: { GIT_HANDOFF_SESSION: 'bbbb2222-attacker' } });
      expect(w.exitCode).toBe(3);
      expect(repo.git(['log', '-1', '--format=%B', REF]).stdout).toContain('Claude-Session-Id: aaaa1111-victim');
    } finally {
      client.kill();
    }
  });
});
