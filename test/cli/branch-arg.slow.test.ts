// src/cli/commands/write.ts: write --branch follows git's branch names — names git refuses exit 2 and write nothing; a
// typo of a branch is refused with a suggestion unless --new-branch.
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf } from '../helpers/repo';
import { cliOk as ok } from './helpers';

describe('write --branch follows git’s branch names (item 8)', () => {
  it('names git refuses exit 2 and write nothing; a typo of a branch is refused with a suggestion unless --new-branch', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['branch', 'feature/login']);
    const bad = ['has space', 'bad..branch', 'x.lock', 'a~b', 'ends/'];
    const refused = await Promise.all(bad.map((b) => repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', b])));
    refused.forEach((r, i) => {
      expect(r.exitCode, bad[i]).toBe(2);
      expect(String(r.stderr), bad[i]).toContain('git does not allow this as a branch name');
    });
    const typo = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'mian']);
    expect(typo.exitCode).toBe(2);
    expect(String(typo.stderr)).toContain('did you mean main?');
    const slash = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'feature/logn', '--json']);
    expect(slash.exitCode).toBe(2);
    expect(JSON.parse(String(slash.stdout)).error).toMatchObject({ code: 'unknown-branch', data: { suggestion: 'feature/login' } });
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    // meant: --new-branch writes it; a branch far from any is written with a warning; a known one silently
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'mian', '--new-branch']);
    expect(refOf(repo, 'refs/handoffs/mian/auth-refactor')).not.toBeNull();
    const planned = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'release-2027']);
    expect(planned.exitCode).toBe(0);
    expect(String(planned.stderr)).toContain('no branch release-2027 here or on a remote yet');
    const known = await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'feature/login']);
    expect(known.exitCode).toBe(0);
    expect(String(known.stderr)).toBe('');
    // a remote's branch counts as known
    repo.git(['update-ref', 'refs/remotes/origin/hotfix-42', 'HEAD']);
    expect((await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x', '--branch', 'hotfix-42'])).stderr).toBe('');
  });
});
