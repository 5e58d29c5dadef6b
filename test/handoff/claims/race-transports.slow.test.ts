// The claim races of race.test.ts, 3 clones × 4 sessions over file://, git daemon and smart HTTP; exactly one winner
// per round, every loser told the winner. A round is 12 real claim processes and their pushes: 1–3 s on the quiet
// 2-core machine; issue 38's 200 rounds per transport took 215 s, 597 s and 957 s here (docs/benchmarks.md). CI runs
// 12 per transport; the full run is `CLAIM_RACE_ROUNDS=200 npx vitest run --project slow
// test/handoff/claims/race-transports.slow.test.ts` (docs/testing.md).
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../sync/world';
import { makeClones, raceRound } from './world';

const ROUNDS = Number(process.env.CLAIM_RACE_ROUNDS) || 12;

describe.each<Transport>(['file', 'git', 'http'])('claim races over %s', (transport) => {
  it(`${ROUNDS} rounds: exactly one winner each`, async () => {
    const { bare, clones } = await makeClones(transport, 3);
    const winners = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) winners.add(await raceRound(bare, clones, 4, round));
    expect(winners.size).toBe(ROUNDS);
  }, 24 * 3_600_000);
});
