// `git handoff rename-branch`: a renamed branch keeps its handoffs — boot and the SessionStart view point at
// rename-branch, which carries them on the record; another session's needs --take-over.
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf } from '../../helpers/repo';
import { cliOk as ok } from '../helpers';

describe('a renamed branch keeps its handoffs (item 1)', () => {
  it('boot and the SessionStart view point at rename-branch, which carries them on the record; another session’s needs --take-over', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['checkout', '-q', '-b', 'feature/login']);
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: port login']);
    await ok(repo, ['write', 'login-bug-fix', '--session', 's2', '-m', 'Goal: theirs']);
    const oldTip = refOf(repo, 'refs/handoffs/feature%2Flogin/auth-refactor');
    repo.git(['branch', '-m', 'feature/login', 'feature/auth']);
    const carry = 'git handoff rename-branch feature/login feature/auth';
    expect(await ok(repo, ['boot', '--session', 's1'])).toContain(`to carry them to feature/auth, on the record: ${carry}`);
    const start = { session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: repo.dir };
    const hook = await repo.cli(['guard', '--client', 'claude'], { input: JSON.stringify(start) });
    expect(hook.exitCode).toBe(0);
    expect(String(hook.stdout)).toContain(carry);
    // s1 does not own login-bug-fix: refused, nothing moved
    const refused = await repo.cli(['rename-branch', 'feature/login', 'feature/auth', '--session', 's1']);
    expect(refused.exitCode).toBe(3);
    expect(String(refused.stderr)).toContain(`${carry} --take-over --reason "<why>"`);
    expect(refOf(repo, 'refs/handoffs/feature%2Flogin/auth-refactor')).toBe(oldTip);
    // the command as printed (the current branch is the default new name), with the takeover
    await ok(repo, ['rename-branch', 'feature/login', '--session', 's1', '--take-over', '--reason', 'branch renamed']);
    expect(refOf(repo, 'refs/handoffs/feature%2Flogin/auth-refactor')).toBeNull();
    expect(repo.git(['rev-parse', 'refs/handoffs/feature%2Fauth/auth-refactor^']).stdout.trim()).toBe(oldTip);
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: port login');
    const boot = await ok(repo, ['boot', '--session', 's1']);
    expect(boot).toContain('2 handoffs on branch feature/auth');
    expect(boot).not.toContain('rename-branch');
    const archived = await ok(repo, ['list', '--archived', '--all', '--json']);
    expect(JSON.parse(archived).map((r: any) => `${r.branch}/${r.topic}`).sort()).toEqual(['feature/login/auth-refactor', 'feature/login/login-bug-fix']);
    // nothing left to carry
    expect((await repo.cli(['rename-branch', 'feature/login', '--session', 's1'])).exitCode).toBe(2);
  });
});
