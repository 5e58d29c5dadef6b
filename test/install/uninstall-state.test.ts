// A plain `uninstall` says what it keeps of the state claims and the loss record's witness leave (issue 53): the
// claims tables here and on the remote (shared with other clones: kept, with the commands that remove them), the claims
// state file (a cache: removed with the working state), and witness.json (kept with the record, with how to remove it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf } from '../helpers/repo';

describe('uninstall and what claims and the witness leave', () => {
  it('names the claims tables here and on the remote, removes the claims state file, and names witness.json', async () => {
    const remote = makeRepo({ init: ['--bare'] });
    const repo = makeRepo({ commit: true });
    repo.git(['remote', 'add', 'origin', remote.dir]);
    repo.git(['push', '-q', 'origin', 'main']);
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    expect((await repo.cli(['write', 'api-work', '--session', 'sess-a', '-m', 'Goal: x'])).exitCode).toBe(0);
    const c = await repo.cli(['claim', 'src/api/', '--session', 'sess-a', '--note', 'the API']);
    expect(c.exitCode, String(c.stderr)).toBe(0);
    expect(String(c.stdout)).toContain('published to origin');
    const state = path.join(repo.dir, '.git', 'handoff', 'claims.json');
    expect(existsSync(state)).toBe(true);
    expect(existsSync(path.join(repo.dir, '.git', 'handoff', 'witness.json'))).toBe(true);

    const u = await repo.cli(['uninstall']);
    expect(u.exitCode, String(u.stderr)).toBe(0);
    const out = String(u.stdout);
    expect(out).toMatch(/removed .*claims\.json/);
    expect(existsSync(state)).toBe(false);
    expect(out).toContain('kept: the claims tables refs/claims/<branch> here (1) and on origin (`git push origin --delete refs/claims/main`)');
    expect(out).toContain("git for-each-ref --format='delete %(refname)' 'refs/claims/' 'refs/handoff-remotes/*/claims/**' | git update-ref --stdin");
    expect(out).toContain('kept: .git/handoff/witness.json');
    expect(out).toContain('rm .git/handoff/witness.json');
    // the tables stay (other clones see them), and the command named removes them here
    expect(refOf(repo, 'refs/claims/main')).not.toBeNull();
    expect(remote.git(['rev-parse', '-q', '--verify', 'refs/claims/main'], { allowFail: true }).status).toBe(0);
  });

  it("after a sync, the commands it prints, pasted into sh, leave no ref of git-handoff's here or claims table on the remote", async () => {
    const remote = makeRepo({ init: ['--bare'] });
    const repo = makeRepo({ commit: true });
    repo.git(['remote', 'add', 'origin', remote.dir]);
    repo.git(['push', '-q', 'origin', 'main']);
    expect((await repo.cli(['install', '--hooks', '--remote', 'origin'])).exitCode).toBe(0);
    expect((await repo.cli(['write', 'api-work', '--session', 'sess-a', '-m', 'Goal: x'])).exitCode).toBe(0);
    expect((await repo.cli(['claim', 'src/api/', '--session', 'sess-a'])).exitCode).toBe(0);
    const s = await repo.cli(['sync']);
    expect(s.exitCode, String(s.stderr)).toBe(0);
    const ours = () => repo.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/', 'refs/handoff-archive/', 'refs/handoff-record', 'refs/handoff-leases/', 'refs/handoff-remotes/', 'refs/claims/', 'refs/notes/handoff-reads']).stdout;
    expect(ours()).toMatch(/refs\/handoff-remotes\/origin\/claims\/main/);
    expect(ours()).toMatch(/refs\/handoff-remotes\/origin\/handoffs\/main\/api-work/);

    const u = await repo.cli(['uninstall']);
    expect(u.exitCode, String(u.stderr)).toBe(0);
    expect(String(u.stdout)).toContain('what sync keeps of each remote (refs/handoff-remotes/<remote>/)');
    const commands = [...String(u.stdout).matchAll(/`((?:git for-each-ref|git push|rm) [^`]+)`/g)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) {
      const r = spawnSync('sh', ['-c', command], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
      expect(r.status, `${command}: ${r.stderr}`).toBe(0);
    }
    expect(ours()).toBe('');
    expect(remote.git(['for-each-ref', 'refs/claims/']).stdout).toBe('');
  });

  it('says nothing of claims where none were made', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    const u = await repo.cli(['uninstall']);
    expect(String(u.stdout)).not.toContain('claims');
  });
});
