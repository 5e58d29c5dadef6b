import { defineConfig } from 'vitest/config';
import './test/helpers/clean-path';
import { SLOW_TESTS } from './test/slow-files';

// `npm test`: everything but the real clients and hosts (their own configs) and the slow runs (vitest.slow.config.ts).
// Every `git handoff` a test runs is a node start, and node reads NODE_EXTRA_CA_CERTS at each start (this VM sets
// it: ~50 ms a start here). The product opens no TLS connection and the tests' remotes are file://, git:// and
// http:// on 127.0.0.1, so the suites' processes start without it (test/guard/front.test.ts sets it where it checks it).
delete process.env.NODE_EXTRA_CA_CERTS;
delete process.env.GIT_HANDOFF_TEST_SET;

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
