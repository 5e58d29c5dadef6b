import { defineConfig } from 'vitest/config';
import './test/helpers/clean-path';

// Handoffs through real git hosts (gitolite over ssh on 127.0.0.1, set up by test/hosts/gitolite.sh: it needs root
// and apt, as on CI): `npm run test:hosts`, apart from `npm test`.
export default defineConfig({
  test: {
    include: ['test/hosts/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
  },
});
