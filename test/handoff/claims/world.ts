// Clones of one bare remote for the claims tests, over file://, git:// (git daemon) or smart HTTP (git http-backend),
// reusing the sync tests' servers; and one race round: every session of every clone claims the same path at once.
import { expect } from 'vitest';
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { makeRemote, type Transport } from '../../sync/world';

export async function makeClones(transport: Transport, n: number): Promise<{ bare: TestRepo; clones: TestRepo[]; url: string }> {
  const { bare, url } = await makeRemote(transport);
  const clones = Array.from({ length: n }, () => {
    const c = makeRepo({ commit: true });
    c.git(['remote', 'add', 'origin', url]);
    return c;
  });
  return { bare, clones, url };
}

/** Every session but the winner was refused (exit 3, `claimed`) naming the winner alone (and its note, when given). */
export function expectRefusedNaming(results: Array<{ session: string; r: { exitCode?: number; stdout: unknown } }>, winner: string, note?: string): void {
  for (const x of results) {
    if (x.session === winner) continue;
    expect(x.r.exitCode, `${x.session}: ${x.r.stdout}`).toBe(3);
    const err = JSON.parse(String(x.r.stdout)).error;
    expect(err.code).toBe('claimed');
    expect(err.data.holders.map((h: { session: string }) => h.session)).toEqual([winner]);
    if (note !== undefined) expect(err.data.holders[0].note).toBe(note);
  }
}

/**
 * One round: `sessions` sessions on each clone claim `round-<i>/` at once. Exactly one wins (exit 0, published to the
 * remote); every other is refused (exit 3) naming the winner; the remote's table holds the winner's claim alone.
 */
export async function raceRound(bare: TestRepo, clones: TestRepo[], sessions: number, round: number): Promise<string> {
  const spec = `round-${round}/`;
  const runs = clones.flatMap((c, ci) =>
    Array.from({ length: sessions }, (_, si) => {
      const session = `r${round}-c${ci}-s${si}`;
      return c.cli(['claim', spec, '--session', session, '--note', `by ${session}`, '--json']).then((r) => ({ session, r }));
    }),
  );
  const results = await Promise.all(runs);
  const winners = results.filter((x) => x.r.exitCode === 0);
  expect(winners.map((w) => w.session), `round ${round}: ${results.map((x) => `${x.session}=${x.r.exitCode} ${x.r.exitCode === 0 || x.r.exitCode === 3 ? '' : x.r.stdout}`).join(' ')}`).toHaveLength(1);
  const winner = winners[0].session;
  expect(JSON.parse(String(winners[0].r.stdout)).published).toEqual({ where: 'remote', remote: 'origin' });
  expectRefusedNaming(results, winner, `by ${winner}`);
  const table = JSON.parse(bare.git(['cat-file', 'blob', 'refs/claims/main:claims.json']).stdout);
  expect(table.claims.filter((c: { paths: string[] }) => c.paths.includes(spec)).map((c: { session: string }) => c.session)).toEqual([winner]);
  return winner;
}
