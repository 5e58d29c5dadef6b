// Real child processes racing on one ref: compare-and-swap keeps every won write and refuses the rest.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, refOf } from '../../../helpers/repo';

const REF = 'refs/handoffs/main/race-topic';

describe('races between real processes', () => {
  it('six writers of one session, eight writes each: all 49 versions reachable, fsck clean', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'race-topic', '--session', 'owner-1', '-m', 'seed'])).exitCode).toBe(0);
    const loop = `for i in 1 2 3 4 5 6 7 8; do "$BIN" write race-topic --session owner-1 -m "writer $W write $i" || exit $?; done`;
    const writers = Array.from({ length: 6 }, (_, w) =>
      execa('sh', ['-c', loop], { cwd: repo.dir, env: { ...repo.env, BIN, W: String(w) }, extendEnv: false, reject: false, timeout: 90_000 }),
    );
    const results = await Promise.all(writers);
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('49');
    const bodies = new Set<string>();
    for (const oid of repo.git(['rev-list', REF]).stdout.trim().split('\n')) bodies.add(repo.git(['cat-file', 'blob', `${oid}:handoff.md`]).stdout);
    expect(bodies.size).toBe(49);
    for (let w = 0; w < 6; w++) for (let i = 1; i <= 8; i++) expect(bodies.has(`writer ${w} write ${i}\n`)).toBe(true);
    expect(repo.git(['fsck', '--no-progress', '--strict']).status).toBe(0);
  });

  it('six sessions creating one topic at once: exactly one wins, five exit 3', async () => {
    const repo = makeRepo({ commit: true });
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, s) => repo.cli(['write', 'race-topic', '--session', `s${s}-session`, '-m', `from ${s}`])),
    );
    const codes = runs.map((r) => r.exitCode).sort();
    expect(codes).toEqual([0, 3, 3, 3, 3, 3]);
    const winner = runs.findIndex((r) => r.exitCode === 0);
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('1');
    expect(repo.git(['cat-file', 'blob', `${REF}:handoff.md`]).stdout).toBe(`from ${winner}\n`);
    for (const r of runs.filter((x) => x.exitCode === 3)) expect(r.stderr).toContain(`s${winner}-sessi`);
    expect(repo.git(['fsck', '--no-progress', '--strict']).status).toBe(0);
  });

  it('a held ref lock: exit 4 naming the lock file, which is left alone', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['write', 'race-topic', '--session', 'owner-1', '-m', 'v1']);
    const tip = refOf(repo, REF);
    const lock = path.join(repo.dir, '.git', REF + '.lock');
    mkdirSync(path.dirname(lock), { recursive: true });
    writeFileSync(lock, '');
    const r = await repo.cli(['write', 'race-topic', '--session', 'owner-1', '-m', 'v2', '--json']);
    expect(r.exitCode).toBe(4);
    const err = JSON.parse(String(r.stdout)).error;
    expect(err.code).toBe('ref-locked');
    expect(err.data.lockFile).toBe(lock);
    expect(err.message).toMatch(/never deletes a lock/);
    expect(existsSync(lock)).toBe(true);
    expect(refOf(repo, REF)).toBe(tip);
  });
  it('twelve writers with the hooks on a loaded machine: no exit 4 while every holder is alive, every version kept', async () => {
    // issue 35: under load, writers were told to rm a lock "a crashed process left behind" while its holder ran
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    expect((await repo.cli(['write', 'race-topic', '--session', 'owner-1', '-m', 'seed'])).exitCode).toBe(0);
    // two busy loops per core for the whole race
    const burners = Array.from({ length: 4 }, () => execa(process.execPath, ['-e', 'for(;;){}'], { reject: false }));
    try {
      const loop = `for i in 1 2 3; do "$BIN" write race-topic --session owner-1 -m "writer $W write $i" || exit $?; done`;
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, w) => execa('sh', ['-c', loop], { cwd: repo.dir, env: { ...repo.env, BIN, W: String(w) }, extendEnv: false, reject: false, timeout: 300_000 })),
      );
      for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('37');
    expect(repo.git(['fsck', '--no-progress', '--strict']).status).toBe(0);
  });
});
