import { defineConfig } from 'vitest/config';
import './test/helpers/clean-path';
import { SLOW_TESTS, SPLIT_TESTS } from './test/slow-files';

// `npm run test:slow`: the property, differential, fuzz and stress runs, whole, and the costly cases of the
// split files (test/slow-files.ts says which).
// Every `git handoff` a test runs is a node start, and node reads NODE_EXTRA_CA_CERTS at each start (this VM sets
// it: ~50 ms a start here). The product opens no TLS connection and the tests' remotes are file://, git:// and
// http:// on 127.0.0.1, so the suites' processes start without it (test/guard/front.test.ts sets it where it checks it).
delete process.env.NODE_EXTRA_CA_CERTS;
// test/helpers/sets.ts: the files of SPLIT_TESTS register their slow cases in this set
process.env.GIT_HANDOFF_TEST_SET = 'slow';

export default defineConfig({
  test: {
    include: [...SLOW_TESTS, ...SPLIT_TESTS],
    exclude: ['node_modules/**'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
