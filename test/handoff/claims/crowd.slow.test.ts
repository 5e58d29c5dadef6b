// Claims of a crowd (SPEC 10, issue 72): 32 sessions of one clone claim at once through a real remote over file://,
// each `git handoff claim` its own process with its session in GIT_HANDOFF_SESSION. Distinct paths never conflict:
// every one holds, published. One path: exactly one holds, every other is refused naming it.
import { describe, expect, it } from 'vitest';
import { expectRefusedNaming, makeClones } from './world';

const N = 32;

async function crowd(pathOf: (i: number) => string) {
  const { bare, clones } = await makeClones('file', 1);
  const [c] = clones;
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) => c.cli(['claim', pathOf(i), '--json'], { env: { GIT_HANDOFF_SESSION: `crowd-${i}` } }).then((r) => ({ session: `crowd-${i}`, r }))),
  );
  const table = JSON.parse(bare.git(['cat-file', 'blob', 'refs/claims/main:claims.json']).stdout);
  return { results, table };
}

describe('a crowd of claims', () => {
  it('32 sessions claiming 32 distinct paths at once: every one holds, published, none told to run it again', async () => {
    const { results, table } = await crowd((i) => `src/part-${i}.ts`);
    for (const x of results) {
      expect(x.r.exitCode, `${x.session}: ${x.r.stdout}${x.r.stderr}`).toBe(0);
      expect(JSON.parse(String(x.r.stdout))).toMatchObject({ session: x.session, published: { where: 'remote', remote: 'origin' } });
    }
    expect(table.claims.map((c: { session: string; paths: string[] }) => `${c.session} ${c.paths.join(' ')}`).sort()).toEqual(
      Array.from({ length: N }, (_, i) => `crowd-${i} src/part-${i}.ts`).sort(),
    );
  }, 300_000);

  it('32 sessions claiming one path at once: exactly one holds, every other is refused naming it', async () => {
    const { results, table } = await crowd(() => 'src/one.ts');
    const winners = results.filter((x) => x.r.exitCode === 0);
    expect(winners.map((w) => w.session)).toHaveLength(1);
    const winner = winners[0].session;
    expectRefusedNaming(results, winner);
    expect(table.claims.map((c: { session: string }) => c.session)).toEqual([winner]);
  }, 300_000);
});
