import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/slow-files';

// `npm run test:slow`: the property, differential, fuzz and stress runs, whole (test/slow-files.ts says which).
export default defineConfig({
  test: {
    include: SLOW_TESTS,
    exclude: ['node_modules/**'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
