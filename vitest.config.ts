import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/slow-files';

// `npm test`: everything but the real clients and hosts (their own configs) and the slow runs (vitest.slow.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/clients/**', 'test/hosts/**', 'node_modules/**', ...SLOW_TESTS],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
