// Issue 25 item 6, from outside: the repository and HOME on a file system remounted read-only (EROFS). Every command
// that writes exits 7 `read-only`; every reader exits 0 (show warns its receipt was not recorded); the guard decides as
// on a writable disk, its first run included (node's recursive mkdir says ENOENT there, not EROFS: the lineage note
// failed the guard, which then refused `git status`). Mounting a tmpfs needs root: without it the test is skipped.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, json, makeRepo, refOf, tempDir, type TestRepo } from '../helpers/repo';
import { denial, guard, payload } from '../guard/helpers';
import { viaGit } from '../helpers/faults';

const asRoot = process.geteuid?.() === 0;
const REF = 'refs/handoffs/main/ro-notes';
const env = { GIT_HANDOFF_SESSION: 'ro-owner-1' };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe.skipIf(!asRoot)(`a read-only file system (${asRoot ? 'root: tmpfs remounted ro' : 'skipped: mounting a tmpfs needs root'})`, () => {
  it('writers exit 7 read-only, readers 0, the guard decides as usual on its first run too, and nothing is left', async () => {
    const mount = path.join(tempDir('gh-ro-'), 'fs');
    mkdirSync(mount);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mount]).status).toBe(0);
    try {
      const bare = makeRepo({ init: ['--bare'] });
      const base = makeRepo({ commit: true });
      const home = path.join(mount, 'home');
      const dir = path.join(mount, 'repo');
      spawnSync('cp', ['-a', base.home, home]);
      spawnSync('cp', ['-a', base.dir, dir]);
      const e = isolatedEnv(home);
      const repo: TestRepo = { ...base, dir, home, env: e, git: (args, o = {}) => base.git(args, { ...o, cwd: dir, env: { ...e, ...o.env } }), cli: (args, o = {}) => viaGit({ ...base, dir, env: e }, args, o) };
      repo.git(['remote', 'add', 'origin', bare.dir]);
      for (const t of ['ro-notes', 'spare-notes']) expect((await repo.cli(['write', t, '-m', `first ${t}`], { env })).exitCode).toBe(0);
      expect((await repo.cli(['push'], { env })).exitCode).toBe(0);
      expect((await repo.cli(['write', 'ro-notes', '-m', 'second'], { env })).exitCode).toBe(0);
      const tip = refOf(repo, REF);
      // the guard's state for this session does not exist yet: its first run happens on the read-only disk
      spawnSync('rm', ['-rf', path.join(dir, '.git', 'handoff'), path.join(home, '.cache')]);
      const before = files(mount).sort();
      expect(spawnSync('mount', ['-o', 'remount,ro', mount]).status).toBe(0);

      for (const args of [['write', 'ro-notes', '-m', 'third'], ['archive', 'spare-notes'], ['sync'], ['fetch'], ['push'], ['install', '--hooks']]) {
        const r = await repo.cli([...args, '--json'], { env });
        expect(r.exitCode, `${args[0]}: ${r.stdout}${r.stderr}`).toBe(7);
        if (args[0] !== 'install') expect(json(r).error.code, args[0]).toBe('read-only');
      }
      for (const args of [['show', 'ro-notes'], ['list', '--all'], ['log', 'ro-notes'], ['boot']]) {
        const r = await repo.cli(args, { env: { GIT_HANDOFF_SESSION: 'ro-reader-2' } });
        expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(0);
      }
      const show = await repo.cli(['show', 'ro-notes'], { env: { GIT_HANDOFF_SESSION: 'ro-reader-3' } });
      expect(String(show.stdout)).toContain('second');
      expect(String(show.stderr)).toContain('the read receipt was not recorded: the file system is read-only');

      for (const session of ['ro-agent-4', 'ro-agent-4', 'ro-agent-5']) {
        const asked = async (command: string) => denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session)));
        expect(await asked('git status'), session).toBeNull();
        expect(await asked('git gc --prune=now'), session).toBeNull();
        expect(await asked(`git update-ref -d ${REF}`), session).toMatch(/moves a handoff ref directly/);
        const write = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(dir, 'src', 'a.ts'), content: 'x' } }, session));
        expect(denial(write), session).toBeNull();
      }
      expect(refOf(repo, REF)).toBe(tip);
      expect(spawnSync('mount', ['-o', 'remount,rw', mount]).status).toBe(0);
      expect(files(mount).sort()).toEqual(before);
      expect(repo.git(['fsck', '--no-progress', '--no-dangling']).status).toBe(0);
    } finally {
      spawnSync('umount', ['-l', mount]);
    }
  });
});
