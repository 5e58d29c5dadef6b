// Issue 25 items 5-6, from outside: a disk full at 13 levels (0 to 512 KiB left), the repository, HOME (the guard's
// cache key, the code caches) and TMPDIR all on it, met by write, show, archive, restore, sync, install --hooks and
// the guard. Each command exits 0 or 7 (`disk-full`), never 1; nothing is lost (a refused write leaves the ref as it
// was, an accepted one adds a version on the old tip); no temporary or lock file of ours is left; the guard decides
// as on an empty disk; and once space is back, fsck is clean, nothing is reported lost and the next write works.
// Mounting a tmpfs needs root: without it the test says so and is skipped.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, json, makeRepo, refOf, tempDir, type TestRepo } from '../helpers/repo';
import { denial, guard, payload } from '../guard/helpers';
import { viaGit } from '../helpers/faults';

const asRoot = process.geteuid?.() === 0;
const LEVELS_KB = [0, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512];
const REF = 'refs/handoffs/main/disk-notes';
const env = { GIT_HANDOFF_SESSION: 'disk-owner-1' };

const availKb = (dir: string) => Number(spawnSync('df', ['--output=avail', '-k', dir], { encoding: 'utf8' }).stdout.trim().split('\n').pop());

/** Leaves `kb` KiB free on the file system of `dir` (the filler file grows or shrinks to fit). */
function fillTo(dir: string, kb: number): void {
  const filler = path.join(dir, 'filler');
  rmSync(filler, { force: true });
  const fill = availKb(dir) - kb;
  if (fill > 0) spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1k', `count=${fill}`], { stdio: 'ignore' });
  if (kb === 0) spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1k', 'oflag=append', 'conv=notrunc'], { stdio: 'ignore' });
}

/** Files under `dir` whose names are a temporary or lock file (git's own tmp_obj_* objects excepted: git gc prunes them). */
function leftovers(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) return leftovers(p);
    return /\.tmp$|\.lock$|\.probe|probe-\d+$/.test(e) ? [p] : [];
  });
}

describe.skipIf(!asRoot)(`a full disk at ${LEVELS_KB.length} levels (${asRoot ? 'root: tmpfs' : 'skipped: mounting a small tmpfs needs root'})`, () => {
  it('write, show, archive, restore, sync, install --hooks and the guard: exit 0 or 7, nothing lost, nothing left, the same decisions', async () => {
    const mount = path.join(tempDir('gh-levels-'), 'fs');
    mkdirSync(mount);
    // the remote and the other clone live on the ordinary disk: the other clone keeps the remote one version ahead
    const other = makeRepo({ commit: true });
    const bare = makeRepo({ init: ['--bare'] });
    other.git(['remote', 'add', 'origin', bare.dir]);
    const template = makeRepo({ commit: true });
    template.git(['remote', 'add', 'origin', bare.dir]);
    for (const t of ['disk-notes', 'spare-notes']) expect((await template.cli(['write', t, '-m', `first ${t}`], { env })).exitCode).toBe(0);
    expect((await template.cli(['push'], { env })).exitCode).toBe(0);
    expect((await other.cli(['fetch'], { env })).exitCode).toBe(0);

    const failures: string[] = [];
    const note = (level: number, what: string, ok: boolean, detail = '') => {
      if (!ok) failures.push(`${level} KiB free, ${what}${detail ? `: ${detail}` : ''}`);
    };
    for (const level of LEVELS_KB) {
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mount]).status).toBe(0);
      try {
        const home = path.join(mount, 'home');
        const tmp = path.join(mount, 'tmp');
        mkdirSync(tmp, { recursive: true });
        spawnSync('cp', ['-a', template.home, home]);
        const dir = path.join(mount, 'repo');
        spawnSync('cp', ['-a', template.dir, dir]);
        const repoEnv = isolatedEnv(home, { TMPDIR: tmp });
        const repo: TestRepo = {
          ...template,
          dir,
          home,
          env: repoEnv,
          git: (args, o = {}) => template.git(args, { ...o, cwd: dir, env: { ...repoEnv, ...o.env } }),
          cli: (args, o = {}) => viaGit({ ...template, dir, env: repoEnv }, args, o),
        };
        // each level its own remote (a copy); the other clone moves it on meanwhile: sync has something to fetch
        const remote = path.join(path.dirname(bare.dir), `remote-${level}.git`);
        spawnSync('cp', ['-a', bare.dir, remote]);
        repo.git(['remote', 'set-url', 'origin', remote]);
        other.git(['remote', 'set-url', 'origin', remote]);
        expect((await other.cli(['write', 'spare-notes', '-m', `from the other clone, level ${level}`], { env })).exitCode).toBe(0);
        expect((await other.cli(['push'], { env })).exitCode).toBe(0);

        const step = async (what: string, args: string[], allowed: number[], who = env) => {
          fillTo(mount, level);
          const before = refOf(repo, REF);
          const r = await repo.cli([...args, '--json'], { env: who });
          note(level, `${what} exit ${r.exitCode}`, allowed.includes(r.exitCode ?? -1), String(r.stderr || r.stdout).slice(0, 300));
          if (r.exitCode === 7) {
            const code = json(r).error.code;
            note(level, `${what} error code ${code}`, code === 'disk-full');
            if (what === 'write') note(level, 'a refused write moved the ref', refOf(repo, REF) === before);
          }
          if (r.exitCode === 0 && what === 'write') note(level, 'a write lost the version before it', repo.git(['rev-parse', `${REF}^`]).stdout.trim() === before);
          return r;
        };
        await step('write', ['write', 'disk-notes', '-m', `level ${level}`], [0, 7]);
        await step('show', ['show', 'disk-notes'], [0], { GIT_HANDOFF_SESSION: 'disk-reader-2' });
        await step('archive', ['archive', 'disk-notes'], [0, 7]);
        await step('restore', ['restore', 'disk-notes'], [0, 2, 7]); // 2: nothing archived (the archive was refused)
        await step('sync', ['sync'], [0, 7]);
        await step('install --hooks', ['install', '--hooks'], [0, 7]);
        // the guard's first run on this HOME, then a second: the same decisions as on an empty disk
        for (const run of ['first', 'second']) {
          fillTo(mount, level);
          const asked = async (command: string) => denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, 'disk-agent-3')));
          note(level, `guard (${run} run) refused git status`, (await asked('git status')) === null);
          note(level, `guard (${run} run) refused git gc --prune=now`, (await asked('git gc --prune=now')) === null);
          note(level, `guard (${run} run) let a handoff ref be deleted`, /moves a handoff ref directly/.test((await asked(`git update-ref -d ${REF}`)) ?? ''));
        }

        rmSync(path.join(mount, 'filler'), { force: true });
        note(level, 'files left', leftovers(mount).length === 0, leftovers(mount).join(', '));
        note(level, 'TMPDIR not empty', readdirSync(tmp).length === 0, readdirSync(tmp).join(', '));
        const fsck = repo.git(['fsck', '--no-progress', '--no-dangling'], { allowFail: true });
        note(level, 'fsck', fsck.status === 0, fsck.stderr);
        const list = await repo.cli(['list', '--all'], { env });
        note(level, 'list after', list.exitCode === 0 && !/outside git-handoff|damaged/.test(String(list.stderr)), String(list.stderr));
        const again = await repo.cli(['write', 'disk-notes', '-m', 'with space again'], { env });
        note(level, 'write with space again', again.exitCode === 0 || (again.exitCode === 2 && /archived/.test(String(again.stderr))), String(again.stderr));
      } finally {
        spawnSync('umount', ['-l', mount]);
      }
    }
    expect(failures).toEqual([]);
  });
});
