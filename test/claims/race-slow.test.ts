// The claim races of race.test.ts, 200 rounds per transport (CLAIM_RACE_ROUNDS overrides): 3 clones × 4 sessions
// over file://, git daemon and smart HTTP; exactly one winner per round, every loser told the winner.
import { describe, expect, it } from 'vitest';
import type { Transport } from '../sync/world';
import { makeClones, raceRound } from './world';

const ROUNDS = Number(process.env.CLAIM_RACE_ROUNDS) || 200;

describe.each<Transport>(['file', 'git', 'http'])('claim races over %s', (transport) => {
  it(`${ROUNDS} rounds: exactly one winner each`, async () => {
    const { bare, clones } = await makeClones(transport, 3);
    const winners = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) winners.add(await raceRound(bare, clones, 4, round));
    expect(winners.size).toBe(ROUNDS);
  }, 24 * 3_600_000);
});
