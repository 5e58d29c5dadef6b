// pre-push against a real bare remote, and the same reference-transaction stub on the bare side
// (what `install --server` puts there): nothing that breaks ownership leaves or lands.
import { describe, expect, it } from 'vitest';
import { quickIt, slowIt, quickDescribe } from '../helpers/sets';
import { installStub } from '../../src/hooks/install';
import { openRepo } from '../../src/git/repo';
import { BIN, makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { A, B, gitAs, hookedRepo } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';

/** A bare remote `origin` holding main; as a server: `install --server` (pre-receive) and the reference-transaction stub. */
async function withRemote(server = true): Promise<{ repo: TestRepo; bare: TestRepo }> {
  const bare = makeRepo({ init: ['--bare'] });
  if (server) {
    const r = await bare.cli(['install', '--server']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    installStub(openRepo(bare.dir).hooksDir(), 'reference-transaction', BIN);
  }
  const repo = await hookedRepo();
  repo.git(['remote', 'add', 'origin', bare.dir]);
  repo.git(['push', '-q', 'origin', 'main']);
  return { repo, bare };
}

quickDescribe('pre-push', () => {
  it('refuses commits that carry two sessions\' ids; the remote keeps its value', async () => {
    const { repo, bare } = await withRemote(false);
    const remoteBefore = refOf(bare, 'refs/heads/main');
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'clean']).status).toBe(0);
    // made with --no-verify, which skips commit-msg
    gitAs(repo, null, ['commit', '-q', '--no-verify', '--allow-empty', '-m', `mixed\n\nClaude-Session-Id: ${A}\nClaude-Session-Id: ${B}`]);
    const mixed = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const r = gitAs(repo, null, ['push', 'origin', 'main']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`commit ${mixed.slice(0, 12)}: Claude-Session-Id aaaaaaaa, bbbbbbbb`);
    expect(r.stderr).toContain('git rebase -i');
    expect(refOf(bare, 'refs/heads/main')).toBe(remoteBefore);
    // without the mixed commit, the push goes through, also with handoff.autoSync on
    repo.git(['reset', '-q', '--hard', 'HEAD~1']);
    repo.git(['config', 'handoff.autoSync', 'true']);
    // autoSync runs the push's code from another bundle than the hook's, handed the hook's repository
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'Goal: carried by autoSync']);
    const ok = gitAs(repo, A, ['push', '-q', 'origin', 'main']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(refOf(bare, 'refs/heads/main')).toBe(refOf(repo, 'refs/heads/main'));
    expect(ok.stderr).toMatch(/autoSync: pushed 1 handoff ref to origin/);
    expect(ok.stderr).not.toMatch(/could not push/);
    expect(refOf(bare, REF)).toBe(refOf(repo, REF));
  });

  it("refuses a handoff update that breaks the invariant against the remote's value", async () => {
    const { repo, bare } = await withRemote(false);
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1']);
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v2']);
    expect(gitAs(repo, null, ['push', '-q', 'origin', `${REF}:${REF}`]).status).toBe(0);
    const remote = refOf(bare, REF);
    // locally rewound (a person's bypass), then force-pushed
    gitAs(repo, null, ['update-ref', REF, `${REF}~1`], { GIT_HANDOFF_BYPASS: '1' });
    const r = gitAs(repo, null, ['push', 'origin', `+${REF}:${REF}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`pushed to origin would break the ownership invariant`);
    expect(r.stderr).toContain('history rewritten');
    expect(refOf(bare, REF)).toBe(remote);
    // deleting it on the remote is refused too, unless the archive ref goes with it
    const del = gitAs(repo, null, ['push', 'origin', `:${REF}`]);
    expect(del.stderr).toContain('deleting a handoff is done only by archiving it');
    expect(refOf(bare, REF)).toBe(remote);
  });

  it('says so when it cannot walk the commits it checks, and does not refuse on that alone', async () => {
    const { repo, bare } = await withRemote(false);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'clean']).status).toBe(0);
    // a setting git log dies on and git push never reads
    repo.git(['config', 'log.date', 'no-such-format']);
    const r = gitAs(repo, null, ['push', 'origin', 'main']);
    expect(r.stderr, r.stderr).toMatch(/git-handoff \(pre-push hook\): could not check \(.*\); allowed/);
    expect(r.status).toBe(0);
    expect(refOf(bare, 'refs/heads/main')).toBe(refOf(repo, 'refs/heads/main'));
  });
});

quickDescribe('fetch', () => {
  it('a forced fetch straight over local handoffs is refused by reference-transaction; the tracking namespace is free', async () => {
    const { repo, bare } = await withRemote(false);
    const other = makeRepo();
    other.git(['pull', '-q', bare.dir, 'main']);
    expect((await other.cli(['write', 'auth-refactor', '--session', B, '-m', 'B elsewhere'])).exitCode).toBe(0);
    other.git(['push', '-q', bare.dir, `${REF}:${REF}`]);
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'A here']);
    const mine = refOf(repo, REF);
    const r = gitAs(repo, null, ['fetch', 'origin', `+refs/handoffs/*:refs/handoffs/*`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('would break the ownership invariant');
    expect(refOf(repo, REF)).toBe(mine);
    expect(gitAs(repo, null, ['fetch', '-q', 'origin', '+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*']).status).toBe(0);
    expect(refOf(repo, 'refs/handoff-remotes/origin/handoffs/main/auth-refactor')).toBe(refOf(bare, REF));
  });
});

describe('the server side (the pre-receive and reference-transaction stubs in a bare repository)', () => {
  quickIt('rejects a forced push that rewrites or steals a handoff, with a message the pusher sees', async () => {
    const { repo, bare } = await withRemote();
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1']);
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v2']);
    expect(gitAs(repo, null, ['push', '-q', 'origin', `${REF}:${REF}`]).status).toBe(0);
    const remote = refOf(bare, REF)!;
    gitAs(repo, null, ['update-ref', REF, `${REF}~1`], { GIT_HANDOFF_BYPASS: '1' });
    // --no-verify skips the client's pre-push: only the server stands in the way
    const r = gitAs(repo, null, ['push', '--no-verify', 'origin', `+${REF}:${REF}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/remote: git-handoff: refused refs\/handoffs\/main\/auth-refactor: history rewritten/);
    expect(refOf(bare, REF)).toBe(remote);
    // a foreign version on top without a takeover: refused as well
    const tree = repo.git(['rev-parse', `${remote}^{tree}`]).stdout.trim();
    const stolen = repo.git(['commit-tree', tree, '-p', remote, '-m', `handoff(auth-refactor): mine\n\nClaude-Session-Id: ${B}`]).stdout.trim();
    const s = gitAs(repo, null, ['push', '--no-verify', 'origin', `${stolen}:${REF}`]);
    expect(s.stderr).toContain("adds to session aaaaaaaa's handoff without a takeover");
    expect(refOf(bare, REF)).toBe(remote);
    // ordinary branch pushes are untouched by the check
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'more']).status).toBe(0);
    expect(gitAs(repo, null, ['push', '-q', '--no-verify', 'origin', 'main']).status).toBe(0);
  });

  slowIt('accepts an archive travelling: atomically, or the archive ref first and the deletion after', async () => {
    const { repo, bare } = await withRemote();
    for (const topic of ['auth-refactor', 'login-redirect-loop']) {
      await repo.cli(['write', topic, '--session', A, '-m', 'v1']);
      expect(gitAs(repo, null, ['push', '-q', 'origin', `refs/handoffs/main/${topic}:refs/handoffs/main/${topic}`]).status).toBe(0);
      const a = await repo.cli(['archive', topic, '--session', A, '--json']);
      expect(a.exitCode).toBe(0);
    }
    // each archive is two entries (SPEC 2 "Format version"): the version naming who archived it, and one at the tip
    const archived = (topic: string) => repo.git(['for-each-ref', '--format=%(refname)', `refs/handoff-archive/main/${topic}/`]).stdout.trim().split('\n').map((r) => `${r}:${r}`);
    const atomic = gitAs(repo, null, ['push', '-q', '--atomic', 'origin', ...archived('auth-refactor'), `:refs/handoffs/main/auth-refactor`]);
    expect(atomic.status, atomic.stderr).toBe(0);
    expect(refOf(bare, REF)).toBeNull();
    expect(gitAs(repo, null, ['push', '-q', 'origin', ...archived('login-redirect-loop')]).status).toBe(0);
    // the client's pre-push knows the remote has the archive once it is fetched into the tracking namespace
    repo.git(['fetch', '-q', 'origin', '+refs/handoff-archive/*:refs/handoff-remotes/origin/handoff-archive/*']);
    const late = gitAs(repo, null, ['push', '-q', 'origin', ':refs/handoffs/main/login-redirect-loop']);
    expect(late.status, late.stderr).toBe(0);
    expect(refOf(bare, 'refs/handoffs/main/login-redirect-loop')).toBeNull();
  });
});
