import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/slow-files';

// `npm test`: everything but the real clients and hosts (their own configs) and the slow runs (vitest.slow.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/clients/**', 'test/hosts/**', 'node_modules/**', ...SLOW_TESTS],
    // generous: a test is ended by a hang, not by a second suite loading the machine (at load 20–40 a 12-writer
    // race or a guard matrix took 2–3 min and failed at the old 120 s; issue 40)
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
