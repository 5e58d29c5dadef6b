// Claims across machines (SPEC 10): 3 clones × 4 sessions claim one path at once through a real remote over
// file://: exactly one winner, every loser told the winner. One round here (12 processes at once); git daemon and
// smart HTTP, and 200 rounds of each, are test/handoff/claims/race-transports.slow.test.ts (npm run test:slow).
import { describe, it } from 'vitest';
import { makeClones, raceRound } from './world';

describe('claim race over file://', () => {
  it('3 clones × 4 sessions: exactly one winner, every loser told it', async () => {
    const { bare, clones } = await makeClones('file', 3);
    await raceRound(bare, clones, 4, 0);
  }, 240_000);
});
