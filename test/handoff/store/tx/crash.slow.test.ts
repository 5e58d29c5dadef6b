// Crash safety (issue 8): a writer killed with SIGKILL at any point leaves a consistent store.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, killedGroup, makeRepo, refOf, type TestRepo } from '../../../helpers/repo';

const ITERATIONS = 60;
const BUDGET_MS = 25_000;
const REF = 'refs/handoffs/main/crash-loop';

/** Starts a write in its own process group and SIGKILLs the whole group (node and any git child) after `delayMs`. */
const killedWrite = (repo: TestRepo, body: string, delayMs: number) =>
  killedGroup(BIN, ['write', 'crash-loop', '-m', body], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_SESSION: 'crash-session' } }, delayMs);

/** Every *.lock file under the refs directories (the only locks a handoff write takes). */
function locksUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...locksUnder(p));
    else if (e.endsWith('.lock')) out.push(p);
  }
  return out;
}

/** The tip is a complete handoff commit: its tree holds both files and its trailers name the topic. */
function assertCompleteTip(repo: TestRepo): string {
  const tip = refOf(repo, REF)!;
  expect(repo.git(['cat-file', '-t', tip]).stdout.trim()).toBe('commit');
  expect(repo.git(['ls-tree', '--name-only', tip]).stdout.split('\n').filter(Boolean).sort()).toEqual(['handoff.md', 'state.json']);
  JSON.parse(repo.git(['cat-file', 'blob', `${tip}:state.json`]).stdout);
  expect(repo.git(['log', '-1', '--format=%(trailers:key=Handoff-Topic,valueonly)', tip]).stdout.trim()).toBe('crash-loop');
  return tip;
}

describe('crash safety', () => {
  it('a writer killed at random points never leaves a broken ref, an unreadable history or a silently removed lock', async () => {
    const repo = makeRepo({ commit: true });
    const first = await repo.cli(['write', 'crash-loop', '-m', 'version zero'], { env: { GIT_HANDOFF_SESSION: 'crash-session' } });
    expect(first.exitCode).toBe(0);
    // How long an undisturbed write takes here, so the kills land across its whole life.
    const t0 = Date.now();
    expect((await repo.cli(['write', 'crash-loop', '-m', 'timing'], { env: { GIT_HANDOFF_SESSION: 'crash-session' } })).exitCode).toBe(0);
    const span = Math.max(50, (Date.now() - t0) * 1.5);

    const refsDir = path.join(repo.dir, '.git', 'refs', 'handoffs');
    const outcome = { killed: 0, completed: 0, moved: 0, locks: 0 };
    const started = Date.now();
    let i = 0;
    for (; i < ITERATIONS && Date.now() - started < BUDGET_MS; i++) {
      const before = refOf(repo, REF)!;
      const r = await killedWrite(repo, `iteration ${i}\n\nGoal: survive kill -9`, Math.random() * span);
      if (r.killed) outcome.killed++;
      else {
        expect(r.code).toBe(0);
        outcome.completed++;
      }
      const after = assertCompleteTip(repo);
      if (after !== before) {
        outcome.moved++;
        // the ref only moved forward, by exactly one version
        expect(repo.git(['rev-parse', `${after}^`]).stdout.trim()).toBe(before);
      }
      const locks = locksUnder(refsDir);
      if (locks.length) {
        outcome.locks++;
        const blocked = await repo.cli(['write', 'crash-loop', '-m', 'blocked by a lock'], { env: { GIT_HANDOFF_SESSION: 'crash-session' } });
        expect(blocked.exitCode).toBe(4);
        expect(blocked.stderr).toContain(locks[0]);
        expect(blocked.stderr).toContain('rm ');
        expect(existsSync(locks[0])).toBe(true);
        spawnSync('rm', ['-f', ...locks]);
      }
    }
    const fsck = repo.git(['fsck', '--full', '--strict', '--no-dangling'], { allowFail: true });
    expect(fsck.status, fsck.stderr + fsck.stdout).toBe(0);
    expect(fsck.stderr + fsck.stdout).not.toMatch(/error|missing|broken|corrupt/i);
    const next = await repo.cli(['write', 'crash-loop', '-m', 'after the storm'], { env: { GIT_HANDOFF_SESSION: 'crash-session' } });
    expect(next.exitCode, String(next.stderr)).toBe(0);
    const shown = await repo.cli(['show', 'crash-loop', '--raw']);
    expect(shown.stdout).toBe('after the storm'); // execa strips the final newline
    // every version is a complete commit whose parent is the previous one
    const versions = Number(repo.git(['rev-list', '--count', REF]).stdout.trim());
    expect(versions).toBe(3 + outcome.moved);
    console.log(`crash loop: ${i} iterations, ${outcome.killed} killed, ${outcome.completed} completed, ${outcome.moved} ref moves, ${outcome.locks} leftover locks`);
    expect(i).toBeGreaterThanOrEqual(15);
  });

  it('a lock left by a git process killed while holding it is reported with the safe remedy and never deleted', async () => {
    const repo = makeRepo({ commit: true });
    const env = { GIT_HANDOFF_SESSION: 'lock-session' };
    expect((await repo.cli(['write', 'lock-left', '-m', 'one'], { env })).exitCode).toBe(0);
    const ref = 'refs/handoffs/main/lock-left';
    const tip = refOf(repo, ref)!;
    // A real git process takes the ref lock in a prepared transaction and is killed before it commits.
    const holder = spawn('git', ['update-ref', '--stdin'], { cwd: repo.dir, env: repo.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const prepared = new Promise<void>((resolve) => holder.stdout.on('data', (d) => String(d).includes('prepare: ok') && resolve()));
    holder.stdin.write(`start\nupdate ${ref} ${tip} ${tip}\nprepare\n`);
    await prepared;
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('exit', r));
    const lock = path.join(repo.dir, '.git', ref + '.lock');
    expect(existsSync(lock)).toBe(true);

    const blocked = await repo.cli(['write', 'lock-left', '-m', 'two'], { env });
    expect(blocked.exitCode).toBe(4);
    expect(blocked.stderr).toContain(`rm '${lock}'`);
    expect(blocked.stderr).toMatch(/never deletes a lock/);
    expect(existsSync(lock)).toBe(true);
    expect(refOf(repo, ref)).toBe(tip);
    const asJson = await repo.cli(['write', 'lock-left', '-m', 'two', '--json'], { env });
    expect(asJson.exitCode).toBe(4);
    expect(JSON.parse(String(asJson.stdout)).error).toMatchObject({ code: 'ref-locked', data: { ref, lockFile: lock } });

    // after the person removes it, the next write succeeds on top of the old tip
    spawnSync('rm', [lock]);
    const ok = await repo.cli(['write', 'lock-left', '-m', 'two'], { env });
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(repo.git(['rev-parse', `${ref}^`]).stdout.trim()).toBe(tip);
  });
});
