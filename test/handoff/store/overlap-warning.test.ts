// A new topic that shares its first two words with many topics gets one warning naming them, not one line each
// (issue 53: 39 near-identical lines in a 40-topic repository).
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../../helpers/repo';

describe('the overlap warning of a new topic', () => {
  it('one warning for 39 overlapping topics, naming the first ones and counting the rest; one topic: named as before', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'auth-token-0', '--session', 'sess-a', '-m', 'Goal: x'])).exitCode).toBe(0);
    const tip = repo.git(['rev-parse', 'refs/handoffs/main/auth-token-0']).stdout.trim();
    // the same history under 38 more names (no hooks here): a repository where one pair of words recurs
    repo.git(['update-ref', '--stdin'], { input: Array.from({ length: 38 }, (_, i) => `create refs/handoffs/main/auth-token-${i + 1} ${tip}\n`).join('') });
    expect((await repo.cli(['write', 'other-topic', '--session', 'sess-a', '-m', 'Goal: y'])).exitCode).toBe(0);

    const r = await repo.cli(['write', 'auth-token-refresh', '--session', 'sess-a', '-m', 'Goal: z']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const lines = String(r.stderr).split('\n').filter((l) => l.startsWith('git-handoff: warning:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('topic "auth-token-refresh" overlaps 39 topics on branch main (all start with "auth" and "token")');
    expect(lines[0]).toContain('auth-token-0, auth-token-1');
    expect(lines[0]).toContain('and 31 more (git handoff list shows them)');
    expect(lines[0]).not.toContain('other-topic');
    expect(json(await repo.cli(['write', 'auth-token-again', '--session', 'sess-a', '-m', 'Goal: w', '--json'])).warnings).toHaveLength(1);

    const one = makeRepo({ commit: true });
    await one.cli(['write', 'login-redirect', '--session', 'sess-a', '-m', 'Goal: x']);
    const w = await one.cli(['write', 'login-redirect-loop', '--session', 'sess-a', '-m', 'Goal: y']);
    expect(String(w.stderr)).toContain('warning: topic "login-redirect-loop" overlaps "login-redirect" on branch main (both start with "login" and "redirect")');
  });
});
