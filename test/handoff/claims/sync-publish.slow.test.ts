// A claim is published or it is not a claim (issue 57): a claim made offline reaches the remote at the next sync
// whatever the remote holds (no table yet, a table of others), or sync says it did not and exits 7; raced against
// another clone's claim of the same paths, exactly one holds them and the other is told who.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, refOf, tempDir, type TestRepo } from '../../helpers/repo';
import { makeClones } from './world';

const tableOf = (bare: TestRepo, branch = 'main') => {
  const r = bare.git(['cat-file', 'blob', `refs/claims/${branch}:claims.json`], { allowFail: true });
  return r.status === 0 ? (JSON.parse(r.stdout).claims as Array<{ session: string; paths: string[]; expires: number }>) : null;
};

/** Takes `url` away from the clone for one claim (offline), then gives it back. */
async function claimOffline(c: TestRepo, url: string, args: string[]) {
  c.git(['remote', 'set-url', 'origin', path.join(tempDir(), 'nowhere')]);
  const r = await c.cli(['claim', ...args]);
  c.git(['remote', 'set-url', 'origin', url]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stdout)).toContain('local only');
  return r;
}

describe('a claim reaches the remote or is said not to', () => {
  it('an offline claim in a repository whose remote has no claims table yet is published by the next sync', async () => {
    const { bare, clones: [a, b], url } = await makeClones('file', 2);
    await claimOffline(a, url, ['src/auth/', '--session', 'sess-a', '--note', 'offline']);
    expect(tableOf(bare)).toBeNull();
    const s = await a.cli(['sync', '--json']);
    expect(s.exitCode, String(s.stderr)).toBe(0);
    expect(json(s).claims).toEqual([expect.objectContaining({ branch: 'main', published: true })]);
    expect(tableOf(bare)!.map((c) => c.session)).toEqual(['sess-a']);
    // and another clone is refused the same paths, naming the holder
    const refused = await b.cli(['claim', 'src/auth/login.ts', '--session', 'sess-b', '--json']);
    expect(refused.exitCode).toBe(3);
    expect(json(refused).error.data.holders.map((h: { session: string }) => h.session)).toEqual(['sess-a']);
    expect(json(await a.cli(['claims', '--json'])).map((c: { where: string }) => c.where)).toEqual(['both']);
  }, 120_000);

  it('a sync that cannot reach the remote says the claims made offline were not published (exit 7), text and --json', async () => {
    const { bare, clones: [a], url } = await makeClones('file', 2);
    await claimOffline(a, url, ['src/auth/', '--session', 'sess-a']);
    a.git(['remote', 'set-url', 'origin', path.join(tempDir(), 'nowhere')]);
    const s = await a.cli(['sync']);
    expect(s.exitCode).toBe(7);
    expect(String(s.stderr)).toContain('claims of main: NOT published to origin (origin was not reached)');
    const j = await a.cli(['sync', '--json']);
    expect(j.exitCode).toBe(7);
    expect(json(j).error).toMatchObject({ code: 'remote-unreachable', data: { claims: [{ branch: 'main', published: false }] } });
    a.git(['remote', 'set-url', 'origin', url]);
    expect((await a.cli(['sync'])).exitCode).toBe(0);
    expect(tableOf(bare)?.map((c) => c.session)).toEqual(['sess-a']);
  });

  it('raced against another clone claiming the same paths: exactly one holds them, and the other is told who', async () => {
    const { bare, clones: [a, b], url } = await makeClones('file', 2);
    for (let round = 0; round < 4; round++) {
      const spec = `mod-${round}/`;
      await claimOffline(a, url, [spec, '--session', `a-${round}`]);
      const [s, c] = await Promise.all([a.cli(['sync', '--json']), b.cli(['claim', spec, '--session', `b-${round}`, '--json'])]);
      const holders = tableOf(bare)!.filter((x) => x.paths.includes(spec)).map((x) => x.session);
      expect(holders, `round ${round}: sync ${s.stdout} ${s.stderr}; claim ${c.stdout}`).toHaveLength(1);
      if (holders[0] === `a-${round}`) {
        // a's sync published first: b's claim was refused naming a
        expect(c.exitCode).toBe(3);
        expect(json(c).error.data.holders.map((h: { session: string }) => h.session)).toEqual([`a-${round}`]);
      } else {
        // b's claim won: a's sync says a's offline claim lost to it, and keeps the conflict for both to see
        expect(c.exitCode).toBe(0);
        expect(s.exitCode).toBe(0);
        const lost = json(s).claims.flatMap((x: { lost: Array<{ holder: { session: string } }> }) => x.lost);
        expect(lost.map((l: { holder: { session: string } }) => l.holder.session)).toEqual([`b-${round}`]);
      }
    }
  }, 240_000);

  it('a host that refuses the claims ref: claim exits 7 with its words and claims nothing; sync says the offline claim was not published (exit 7)', async () => {
    const { bare, clones: [a], url } = await makeClones('file', 1);
    const hook = path.join(bare.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nwhile read o n r; do case "$r" in refs/claims/*) echo "GitLab: You are not allowed to push to $r" >&2; exit 1;; esac; done\nexit 0\n', { mode: 0o755 });
    const r = await a.cli(['claim', 'src/', '--session', 'sess-a', '--json']);
    expect(r.exitCode).toBe(7);
    expect(json(r).error.message).toMatch(/GitLab: You are not allowed to push to refs\/claims\/main.*nothing was claimed/);
    expect(refOf(a, 'refs/claims/main')).toBeNull();
    await claimOffline(a, url, ['docs/', '--session', 'sess-a']);
    const s = await a.cli(['sync']);
    expect(s.exitCode).toBe(7);
    expect(String(s.stdout)).toMatch(/claims of main: NOT published to origin \(.*GitLab: You are not allowed/);
    expect(String(s.stdout)).not.toMatch(/published to origin$/m);
    expect(String(s.stderr)).toContain('were not published to origin');
    expect(tableOf(bare)).toBeNull();
  }, 120_000);
});
