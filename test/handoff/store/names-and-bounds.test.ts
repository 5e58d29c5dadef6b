// Input the store takes from the command line: bounded bodies, git's own names for a branch, and messages that
// say what is there when archive or restore meet a handoff in the other state (issue 25, item 10).
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, json, makeRepo, refOf } from '../../helpers/repo';

const env = { GIT_HANDOFF_SESSION: 'bounds-session-1' };

describe('bodies from files and pipes', () => {
  it('write -F /dev/zero and an endless stdin stop one byte past the limit: exit 2, nothing written', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['write', 'zero-body', '-F', '/dev/zero', '--json'], { env });
    expect(r.exitCode).toBe(2);
    expect(json(r).error.code).toBe('body-too-large');
    const piped = await execa('sh', ['-c', `'${BIN}' write zero-body -F - < /dev/zero`], { cwd: repo.dir, env: { ...repo.env, ...env }, extendEnv: false, reject: false, timeout: 60_000 });
    expect(piped.exitCode).toBe(2);
    expect(String(piped.stderr)).toContain('more than 1048576 bytes');
    expect(refOf(repo, 'refs/handoffs/main/zero-body')).toBeNull();
    // a body at the limit still reads whole
    const ok = await repo.cli(['write', 'zero-body', '-F', '-'], { env, input: 'x'.repeat(1024 * 1024 - 1) + '\n' });
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
  });
});

describe("git's names for a branch", () => {
  it('--branch HEAD is the checked-out branch and @{-1} the previous one; neither is taken as a branch name', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['checkout', '-q', '-b', 'feature/x']);
    repo.git(['checkout', '-q', 'main']);
    expect((await repo.cli(['write', 'head-named', '--branch', 'HEAD', '-m', 'a'], { env })).exitCode).toBe(0);
    expect(refOf(repo, 'refs/handoffs/main/head-named')).not.toBeNull();
    expect((await repo.cli(['write', 'prev-named', '--branch', '@{-1}', '-m', 'b'], { env })).exitCode).toBe(0);
    expect(refOf(repo, 'refs/handoffs/feature%2Fx/prev-named')).not.toBeNull();
    expect(repo.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/']).stdout).not.toMatch(/HEAD|%40/);
    // detached: HEAD names no branch, and neither does a previous checkout of a commit
    repo.git(['checkout', '-q', '--detach']);
    const d = await repo.cli(['write', 'head-named', '--branch', 'HEAD', '-m', 'c', '--json'], { env });
    expect(d.exitCode).toBe(2);
    expect(json(d).error.code).toBe('detached-head');
    repo.git(['checkout', '-q', 'main']);
    const prev = await repo.cli(['show', 'head-named', '--branch', '@{-1}', '--json'], { env });
    expect(prev.exitCode).toBe(2);
    expect(json(prev).error).toMatchObject({ code: 'invalid-branch' });
    expect(json(prev).error.message).toContain('names no branch');
  });
});

describe('archive and restore say what is there', () => {
  it('restore of a live topic says it is live; archive of an archived one says it is archived and how to restore it', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'state-words', '-m', 'one'], { env })).exitCode).toBe(0);
    const live = await repo.cli(['restore', 'state-words'], { env });
    expect(live.exitCode).toBe(2);
    expect(String(live.stderr)).toContain('is live, not archived');
    expect(String(live.stderr)).not.toContain('live or archived');
    expect((await repo.cli(['archive', 'state-words'], { env })).exitCode).toBe(0);
    const again = await repo.cli(['archive', 'state-words', '--json'], { env });
    expect(again.exitCode).toBe(2);
    expect(json(again).error.code).toBe('already-archived');
    expect(json(again).error.message).toContain('git handoff restore state-words');
    // archived, restored, live again: restoring the older entry says the topic is live
    expect((await repo.cli(['restore', 'state-words'], { env })).exitCode).toBe(0);
    const over = await repo.cli(['restore', 'state-words'], { env });
    expect(over.exitCode).toBe(2);
    expect(String(over.stderr)).toContain('is live');
  });
});
