// Issue 25 items 2-3, from outside: lock files a crashed git left behind, met by commands run as a person runs them
// (`git handoff …`, so git is the command's parent process). SPEC 4: a lock at least 2 s old with no git process in
// the repository is stale and fails at once with exit 4 `ref-locked`, naming the file, its age and no live holder;
// `fetch`/`sync` never exit 0 when a handoff did not arrive; the loss record's own lock is named, not waited on.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect } from 'vitest';
import { quickIt, slowIt } from '../../../helpers/sets';
import { json, refOf } from '../../../helpers/repo';
import { makeWorld, ok } from '../../../sync/world';
import { leaveLock, viaGit } from '../../../helpers/faults';

const REF = 'refs/handoffs/main/lock-notes';
const env = { GIT_HANDOFF_SESSION: 'lock-owner-1' };

describe('stale locks met through `git handoff`', () => {
  quickIt("a handoff's lock left behind: write, fetch and sync exit 4 at once, naming it with no live holder; after rm the handoff arrives", async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'lock-notes', '-m', 'one'], 0, env);
    await ok(a, ['push'], 0, env);
    await ok(b, ['fetch'], 0, env);
    await ok(b, ['write', 'lock-notes', '-m', 'two, from b'], 0, env);
    await ok(b, ['push'], 0, env);
    const theirs = refOf(b, REF);
    const mine = refOf(a, REF);
    const lock = leaveLock(a, `${REF}.lock`);

    for (const args of [['write', 'lock-notes', '-m', 'three'], ['fetch'], ['sync']]) {
      const r = await viaGit(a, [...args, '--json'], { env });
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(4);
      const e = json(r).error;
      expect(e.code, args[0]).toBe('ref-locked');
      // the git of `git handoff` is this command's parent: it holds no lock and is not a live holder
      expect(e.data, args[0]).toMatchObject({ ref: REF, lockFile: lock, liveHolder: false, holder: null });
      expect(e.data.lockAgeMs, args[0]).toBeGreaterThanOrEqual(10_000);
      expect(e.message, args[0]).toContain(`rm '${lock}'`);
      expect(e.message, args[0]).toMatch(/\d+ s old and no git process is running/);
      expect(refOf(a, REF), args[0]).toBe(mine);
    }
    // the plain text names the lock too
    const plain = await viaGit(a, ['fetch'], { env });
    expect(plain.exitCode).toBe(4);
    expect(String(plain.stderr)).toContain(lock);

    rmSync(lock);
    const after = await viaGit(a, ['fetch'], { env });
    expect(after.exitCode, String(after.stderr)).toBe(0);
    expect(refOf(a, REF)).toBe(theirs);
  });

  quickIt("archive with packed-refs.lock left behind exits 4 naming it; show with the receipts' lock shows and warns", async () => {
    const { a } = await makeWorld('file');
    await ok(a, ['write', 'lock-notes', '-m', 'one'], 0, env);
    const tip = refOf(a, REF);
    const packed = leaveLock(a, 'packed-refs.lock');
    const r = await viaGit(a, ['archive', 'lock-notes', '--json'], { env });
    expect(r.exitCode, String(r.stderr)).toBe(4);
    expect(json(r).error.data).toMatchObject({ lockFile: packed, liveHolder: false });
    expect(refOf(a, REF)).toBe(tip);
    rmSync(packed);

    const notes = leaveLock(a, 'refs/notes/handoff-reads.lock');
    const show = await viaGit(a, ['show', 'lock-notes'], { env: { GIT_HANDOFF_SESSION: 'lock-reader-2' } });
    expect(show.exitCode).toBe(0);
    expect(String(show.stdout)).toContain('one');
    expect(String(show.stderr)).toContain('the read receipt was not recorded');
    expect(String(show.stderr)).toContain(`rm '${notes}'`);
  });

  quickIt("the loss record's lock left behind: commands still work and say which lock keeps the record behind", async () => {
    const { a } = await makeWorld('file');
    await ok(a, ['write', 'lock-notes', '-m', 'one'], 0, env);
    const lock = leaveLock(a, 'refs/handoff-record.lock');
    const w = await viaGit(a, ['write', 'lock-notes', '-m', 'two'], { env });
    expect(w.exitCode, String(w.stderr)).toBe(0);
    const tip = refOf(a, REF);
    // the write went alone; the next command's check cannot take it into the record and names the lock
    for (const args of [['list'], ['show', 'lock-notes'], ['log', 'lock-notes']]) {
      const r = await viaGit(a, args, { env });
      expect(r.exitCode, args[0]).toBe(0);
      expect(String(r.stderr), args[0]).toContain('the loss record was not updated');
      expect(String(r.stderr), args[0]).toContain(`rm '${lock}'`);
    }
    rmSync(lock);
    const r = await viaGit(a, ['list'], { env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toBe('');
    // the record took the version in: deleting it behind the product's back is now a reported loss
    a.git(['-c', 'core.hooksPath=/dev/null', 'update-ref', '-d', REF]);
    const seen = await viaGit(a, ['list'], { env });
    expect(String(seen.stderr)).toContain(`git handoff recover ${REF}`);
    await ok(a, ['recover', REF], 0, env);
    expect(refOf(a, REF)).toBe(tip);
  });
  slowIt("a tracking ref's lock a killed fetch left: fetch and sync exit 4 naming it with its rm; a lock still being written is waited out", async () => {
    const { a, b } = await makeWorld('file');
    await ok(b, ['write', 'lock-notes', '-m', 'from b'], 0, env);
    await ok(b, ['push'], 0, env);
    await ok(a, ['fetch'], 0, env);
    await ok(b, ['write', 'lock-notes', '-m', 'from b, two'], 0, env);
    await ok(b, ['push'], 0, env);
    const tracking = 'refs/handoff-remotes/origin/handoffs/main/lock-notes';
    const lock = leaveLock(a, `${tracking}.lock`);
    for (const args of [['fetch'], ['sync']]) {
      const r = await viaGit(a, [...args, '--json'], { env });
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(4);
      const e = json(r).error;
      expect(e.code, args[0]).toBe('ref-locked');
      expect(e.data, args[0]).toMatchObject({ ref: tracking, lockFile: lock, liveHolder: false });
      expect(e.message, args[0]).toContain(`rm '${lock}'`);
    }
    // a young lock (a fetch that is still running) is not reported as left behind: removed after 1 s, the fetch goes on
    rmSync(lock);
    const young = leaveLock(a, `${tracking}.lock`, 0);
    const gone = setTimeout(() => rmSync(young), 1000);
    const r = await viaGit(a, ['fetch'], { env });
    clearTimeout(gone);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(refOf(a, REF)).toBe(refOf(b, REF));
  });
  slowIt.each(['--git-dir', 'GIT_DIR'])("a live holder working from elsewhere (%s names the repository) is waited for, never called left behind", async (how) => {
    const { a } = await makeWorld('file');
    await ok(a, ['write', 'lock-notes', '-m', 'one'], 0, env);
    const tip = refOf(a, REF)!;
    // a git process outside the repository's directories holds the handoff's lock for 4 s (its reference-transaction
    // hook sleeps): older than the 2 s after which a lock with no holder is stale
    const hooks = path.join(a.home, 'slow-hooks');
    mkdirSync(hooks);
    writeFileSync(path.join(hooks, 'reference-transaction'), '#!/bin/sh\n[ "$1" = prepared ] && sleep 4\nexit 0\n', { mode: 0o755 });
    const gitDir = path.join(a.dir, '.git');
    const args = ['-c', `core.hooksPath=${hooks}`, 'update-ref', REF, tip, tip];
    const holder = execa('git', how === 'GIT_DIR' ? args : [`--git-dir=${gitDir}`, ...args], {
      cwd: a.home,
      env: { ...a.env, ...(how === 'GIT_DIR' ? { GIT_DIR: gitDir } : {}) },
      extendEnv: false,
      reject: false,
    });
    const lock = path.join(gitDir, `${REF}.lock`);
    for (let i = 0; i < 200 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(lock)).toBe(true);
    const w = await viaGit(a, ['write', 'lock-notes', '-m', 'two'], { env });
    expect(w.exitCode, String(w.stderr)).toBe(0);
    expect(String(w.stderr)).not.toContain('rm ');
    expect((await holder).exitCode).toBe(0);
    expect(a.git(['log', '--format=%s', '-1', REF]).stdout).toBeTruthy();
    expect(Number(a.git(['rev-list', '--count', REF]).stdout)).toBe(2);
  });
});
