// A full or read-only disk (issue 25, item 5 and 6): optional state (caches, receipts, reminders, leases) never changes
// a decision or an exit code, security state not written whole is not trusted, no temporary file is left, and a
// write the disk refuses exits 7. Each test mounts a small tmpfs, so it needs root; without it the tests say so.
import { createHmac } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configKey } from '../../src/guard/locate';
import { json, makeRepo, refOf, tempDir, type TestRepo } from '../helpers/repo';
import { denial, guard, payload } from '../guard/helpers';

const asRoot = process.geteuid?.() === 0;
const why = 'mounting a small tmpfs needs root';
const REF = 'refs/handoffs/main/disk-notes';
const env = { GIT_HANDOFF_SESSION: 'disk-owner-1' };

/** Mounts a tmpfs of `kb` KiB at `dir` and runs `body`; unmounted afterwards whatever happens. */
async function onTmpfs(dir: string, kb: number, body: (fill: () => void) => Promise<void>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir]);
  expect(m.status, String(m.stderr)).toBe(0);
  const fill = () => {
    spawnSync('dd', ['if=/dev/zero', `of=${path.join(dir, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
    expect(spawnSync('df', ['--output=avail', dir], { encoding: 'utf8' }).stdout.trim().split('\n').pop()!.trim()).toBe('0');
  };
  try {
    await body(fill);
  } finally {
    spawnSync('umount', ['-l', dir]);
  }
}

const bash = (repo: TestRepo, command: string, session = 'disk-agent-2') =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A repository whose .git and worktree live on `mount`, HOME on the ordinary disk. */
function repoOn(mount: string): TestRepo {
  const repo = makeRepo({ commit: true });
  const moved = path.join(mount, 'repo');
  spawnSync('cp', ['-a', repo.dir, moved]);
  return { ...repo, dir: moved, git: (args, o = {}) => repo.git(args, { cwd: moved, ...o }), cli: (args, o = {}) => repo.cli(args, { cwd: moved, ...o }) };
}

describe.skipIf(!asRoot)(`a full disk (${asRoot ? 'root: tmpfs' : `skipped: ${why}`})`, () => {
  it('the guard still decides, show still shows, write exits 7 (full) and 7 (read-only), and no temporary file is left', async () => {
    const mount = path.join(tempDir('gh-disk-'), 'fs');
    await onTmpfs(mount, 4096, async (fill) => {
      const base = repoOn(mount);
      // the product's own temporary files go to TMPDIR, here on the full disk too
      const tmp = path.join(mount, 'tmp');
      mkdirSync(tmp);
      const repo: TestRepo = { ...base, cli: (args, o = {}) => base.cli(args, { ...o, env: { TMPDIR: tmp, ...o.env } }) };
      expect((await repo.cli(['write', 'disk-notes', '-m', 'Goal: survive a full disk'], { env })).exitCode).toBe(0);
      const tip = refOf(repo, REF);
      fill();
      // optional caches and heartbeats cannot be written: git commands the rules allow stay allowed
      for (const c of ['git status', 'git gc --prune=now', 'git log --oneline']) expect(denial(await bash(repo, c)), c).toBeNull();
      // and a rule still refuses what it refuses
      expect(denial(await bash(repo, `git update-ref -d ${REF}`))).toMatch(/moves a handoff ref directly/);
      // show: the receipt is optional
      const show = await repo.cli(['show', 'disk-notes'], { env: { GIT_HANDOFF_SESSION: 'disk-reader-3' } });
      expect(show.exitCode, String(show.stderr)).toBe(0);
      expect(String(show.stdout)).toContain('Goal: survive a full disk');
      expect(String(show.stderr)).toContain('the read receipt was not recorded: the disk is full');
      // a version cannot be stored: exit 7, the ref unchanged
      const w = await repo.cli(['write', 'disk-notes', '-m', 'two', '--json'], { env });
      expect(w.exitCode).toBe(7);
      expect(json(w).error.code).toBe('disk-full');
      expect(refOf(repo, REF)).toBe(tip);
      // none of ours (git's own tmp_obj_* files it leaves on ENOSPC are git's, pruned by git gc)
      expect(filesUnder(mount).filter((f) => /\.tmp$|\.lock$/.test(f))).toEqual([]);
      expect(readdirSync(tmp)).toEqual([]);
      // read-only
      spawnSync('rm', [path.join(mount, 'filler')]);
      expect(spawnSync('mount', ['-o', 'remount,ro', mount]).status).toBe(0);
      const ro = await repo.cli(['write', 'disk-notes', '-m', 'three', '--json'], { env });
      expect(ro.exitCode).toBe(7);
      expect(json(ro).error.code).toBe('read-only');
      expect(denial(await bash(repo, 'git status'))).toBeNull();
      expect(refOf(repo, REF)).toBe(tip);
    });
  });

  it("a HOME full at the guard's first run leaves no half-written cache key, and a forged guard-config.json is not accepted", async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'disk-notes', '-m', 'theirs'], { env })).exitCode).toBe(0);
    const cache = path.join(repo.home, '.cache');
    await onTmpfs(cache, 64, async (fill) => {
      fill();
      // the first run needs a key to keep a config cache: it cannot write one
      const first = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'src', 'a.ts'), content: 'x' } }, 'disk-agent-2'));
      expect(denial(first)).toBeNull();
      const keyFile = path.join(cache, 'git-handoff', 'cache-key');
      if (existsSync(keyFile)) expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
      // a forged cache saying handoff.guard=off, keyed as a key left empty would key it
      const gitDir = path.join(repo.dir, '.git');
      const key = configKey({ worktree: repo.dir, gitDir, commonDir: gitDir }, repo.env);
      const entries = [['handoff.guard', ['off']]];
      const mac = createHmac('sha256', Buffer.alloc(0)).update(JSON.stringify([key, entries])).digest('hex');
      mkdirSync(path.join(gitDir, 'handoff'), { recursive: true });
      writeFileSync(path.join(gitDir, 'handoff', 'guard-config.json'), JSON.stringify({ key, entries, mac }));
      expect(denial(await bash(repo, `git update-ref -d ${REF}`))).toMatch(/moves a handoff ref directly/);
      expect(denial(await bash(repo, 'git status'))).toBeNull();
    });
    expect(refOf(repo, REF)).not.toBeNull();
  });
});
