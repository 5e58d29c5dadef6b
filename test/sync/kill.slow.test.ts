// Issue 25 (its kill -9 runs), from outside: `git handoff sync`, `fetch` and `push` killed with SIGKILL (the whole
// process group: git, the node it runs, their git children) at random points, 20 times over file:// and over smart
// HTTP, while another clone writes. After each kill the next command says the truth: exit 0 only when the handoffs
// arrived and left (else exit 4 naming a lock a kill left, with its rm, which is done as it says); no version is ever
// lost; fsck is clean on both sides; nothing is reported lost by the loss record.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, killedGroup, refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok, type Transport } from './world';
import { viaGit } from '../helpers/faults';

const KILLS = 20;
const MINE = 'refs/handoffs/main/kill-mine';
const THEIRS = 'refs/handoffs/main/kill-theirs';

/** `git handoff <args>` in its own process group, killed with SIGKILL after `delayMs` unless it ended first. */
const killedRun = (repo: TestRepo, args: string[], env: Record<string, string>, delayMs: number) =>
  killedGroup('git', ['handoff', ...args], { cwd: repo.dir, env: { ...repo.env, PATH: `${path.dirname(BIN)}:${repo.env.PATH}`, ...env } }, delayMs);

/** Runs `git handoff <args>` until it exits 0; a lock a kill left is removed as its message says (a person's step). */
async function untilDone(repo: TestRepo, args: string[], env: Record<string, string>): Promise<string[]> {
  const removed: string[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await viaGit(repo, args, { env });
    if (r.exitCode === 0) return removed;
    const stale = /rm '([^']+)'/.exec(String(r.stderr));
    expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(4);
    expect(stale, `exit 4 without a stale lock to remove: ${r.stderr}`).not.toBeNull();
    removed.push(stale![1]);
    rmSync(stale![1]);
  }
  throw new Error(`${args.join(' ')} never finished`);
}

async function stormOver(transport: Transport): Promise<{ kills: number; locks: number }> {
  const { a, b, bare } = await makeWorld(transport);
  const envA = { GIT_HANDOFF_SESSION: 'kill-a-1' };
  const envB = { GIT_HANDOFF_SESSION: 'kill-b-2' };
  await ok(a, ['write', 'kill-mine', '-m', 'mine 0'], 0, envA);
  await ok(b, ['write', 'kill-theirs', '-m', 'theirs 0'], 0, envB);
  await ok(a, ['sync'], 0, envA);
  await ok(b, ['sync'], 0, envB);
  // how long an undisturbed sync takes here, so the kills land across its whole life; a run that ends before its kill
  // shortens it to that run's own length (one slow first sync, on a loaded machine, would else let every run finish)
  const t0 = Date.now();
  await ok(a, ['sync'], 0, envA);
  let span = Math.max(100, (Date.now() - t0) * 1.5);

  let mine = 1;
  let theirs = 1;
  let kills = 0;
  let locks = 0;
  const commands = [['sync'], ['fetch'], ['push']];
  for (let i = 0; i < KILLS; i++) {
    await ok(a, ['write', 'kill-mine', '-m', `mine ${i + 1}`], 0, envA);
    mine++;
    await ok(b, ['write', 'kill-theirs', '-m', `theirs ${i + 1}`], 0, envB);
    theirs++;
    await ok(b, ['sync'], 0, envB);
    const started = Date.now();
    const r = await killedRun(a, commands[i % 3], envA, Math.random() * span);
    if (r.killed) kills++;
    else span = Math.max(20, Math.min(span, Date.now() - started));
    // the next sync says the truth
    locks += (await untilDone(a, ['sync'], envA)).length;
    expect(refOf(bare, MINE), `round ${i}`).toBe(refOf(a, MINE));
    expect(refOf(a, THEIRS), `round ${i}`).toBe(refOf(b, THEIRS));
    expect(Number(a.git(['rev-list', '--count', MINE]).stdout), `round ${i}`).toBe(mine);
    expect(Number(a.git(['rev-list', '--count', THEIRS]).stdout), `round ${i}`).toBe(theirs);
  }
  for (const repo of [a, bare]) {
    const fsck = repo.git(['fsck', '--no-progress', '--strict', '--no-dangling'], { allowFail: true });
    expect(fsck.status, fsck.stderr).toBe(0);
  }
  const list = await viaGit(a, ['list', '--all'], { env: envA });
  expect(list.exitCode).toBe(0);
  expect(String(list.stderr)).not.toMatch(/outside git-handoff|damaged/);
  return { kills, locks };
}

describe('sync, fetch and push killed with SIGKILL', () => {
  it.each(['file', 'http'] as Transport[])(`${KILLS} kills over %s: the next sync says the truth, nothing lost, fsck clean`, async (transport) => {
    const { kills, locks } = await stormOver(transport);
    console.log(`kill -9 over ${transport}: ${KILLS} rounds, ${kills} killed mid-run, ${locks} leftover locks removed as told`);
    expect(kills).toBeGreaterThan(0);
  });
});
