// `git handoff list`: filters that leave nothing say so, and a renamed branch points at its handoffs with a carry-over
// command that works.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, ROOT } from '../../helpers/repo';
import { cliRun as run } from '../helpers';

describe('papercuts', () => {
  it('list with filters that leave nothing says so; a renamed branch points at its handoffs, and the carry-over command works', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x']);
    await run(repo, ['show', 'auth-refactor', '--session', 's2']);
    expect((await run(repo, ['list', '--for-me', '--unread', '--session', 's2'])).out).toBe('no handoffs unread by you on branch main (1 without that filter: git handoff list)');
    expect((await run(repo, ['list', '--tag', 'nope'])).out).toBe('no handoffs tagged nope on branch main (1 without that filter: git handoff list)');
    repo.git(['checkout', '-q', '-b', 'feature']);
    await run(repo, ['write', 'login-loop', '--session', 's1', '-m', 'Goal: fix the loop']);
    repo.git(['branch', '-m', 'feature', 'feature-2']);
    const { out } = await run(repo, ['list']);
    expect(out).toContain('feature-2 was renamed from feature, and its 1 handoff stays there (login-loop): git handoff list --branch feature');
    const carry = /to carry it to feature-2, on the record: (.*)$/m.exec(out)![1];
    const r = await execa('sh', ['-c', carry.replace(/git handoff/g, `"${path.join(ROOT, 'bin', 'git-handoff')}"`)], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_SESSION: 's1' }, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(refOf(repo, 'refs/handoffs/feature-2/login-loop')).not.toBeNull();
    expect(refOf(repo, 'refs/handoffs/feature/login-loop')).toBeNull();
    expect((await run(repo, ['show', 'login-loop', '--raw', '--no-receipt'])).out).toBe('Goal: fix the loop');
  });
});
