// A session is placed where it ran (issue 73): one that started, wrote a handoff, synced and ended in this clone is
// "this clone" in `status` (where "here", status ended) in the branch's scope as in --all, as `sessions` says.
import { describe, expect, it } from 'vitest';
import { json } from '../helpers/repo';
import { guard, payload } from '../guard/helpers';
import { makeWorld, ok } from '../sync/world';

const S = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';

describe('a session placed where it ran', () => {
  it('started, synced and ended here: this clone in status, status --all and sessions', async () => {
    const { a } = await makeWorld('file');
    const env = { CLAUDE_CODE_SESSION_ID: S };
    expect((await guard(a, payload(a, 'claude-code/session-start.json', {}, S))).exitCode).toBe(0);
    await ok(a, ['write', 'auth-refactor', '-m', 'Goal: OAuth login', '-m', 'Next action: keep going'], 0, env);
    await ok(a, ['sync']);
    expect((await guard(a, payload(a, 'claude-code/real-session-end.json', {}, S))).exitCode).toBe(0);

    const rows = json(await a.cli(['sessions', '--json']));
    expect(rows.find((r: { session: string }) => r.session === S)?.status).toBe('ended');
    for (const scope of [[], ['--all']]) {
      const st = json(await a.cli(['status', '--json', ...scope]));
      const s = st.sessions.find((x: { session: string }) => x.session === S);
      expect(s, scope.join(' ')).toMatchObject({ where: 'here', status: 'ended', handoffs: [{ topic: 'auth-refactor' }] });
      const line = String((await a.cli(['status', ...scope])).stdout).split('\n').find((l) => l.includes(S.slice(0, 8)) && l.includes('ended'));
      expect(line, scope.join(' ')).toContain('this clone');
      expect(line).not.toContain('another clone');
    }
  });
});
