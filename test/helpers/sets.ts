// Which set this run is: `npm test` (the default set) or `npm run test:slow` (vitest.config.ts's slow project sets
// GIT_HANDOFF_TEST_SET=slow). A file named <name>.split.test.ts runs in both: its quick cases in the default set, its
// costly variants (more transports, the gc'd repeat, racing writers, long matrices) in the slow one.
// Each case is registered in exactly one set, so neither run skips anything and CI (.ci/run) runs every case once.
import { describe, it } from 'vitest';

export const SLOW_SET = process.env.GIT_HANDOFF_TEST_SET === 'slow';

/** The values of a matrix this run takes: `quick` in the default set, `rest` in the slow set. */
export const inThisSet = <T>(quick: T[], rest: T[]): T[] => (SLOW_SET ? rest : quick);

const none = Object.assign(() => undefined, { each: () => () => undefined }) as unknown as typeof it;

/** `it` for a case of the slow set: registers nothing in the default set. */
export const slowIt: typeof it = SLOW_SET ? it : none;

/** `it` for a case of the default set: registers nothing in the slow set (the file's other cases run there). */
export const quickIt: typeof it = SLOW_SET ? none : it;

const noSuite = Object.assign(() => undefined, { each: () => () => undefined }) as unknown as typeof describe;

/** `describe` for a block whose every case is of the slow set (vitest fails a block that registers no case). */
export const slowDescribe: typeof describe = SLOW_SET ? describe : noSuite;

/** `describe` for a block whose every case is of the default set. */
export const quickDescribe: typeof describe = SLOW_SET ? noSuite : describe;
