import { defineConfig } from 'vitest/config';
import './test/helpers/clean-path';

// The four sets, each a project, told apart by the test file's name (docs/testing.md):
//   default  `npm test`              <name>.test.ts, and the quick cases of <name>.split.test.ts
//   slow     `npm run test:slow`     <name>.slow.test.ts (property, differential, fuzz, stress and other costly runs,
//                                   whole), and the costly cases of <name>.split.test.ts (test/helpers/sets.ts)
//   clients  `npm run test:clients`  <name>.clients.test.ts: the real clients, offline
//   hosts    `npm run test:hosts`    <name>.hosts.test.ts: a real gitolite over ssh (test/sync/gitolite.sh)
// One file: `npx vitest run <file>` runs it in every set its name puts it in.

// Every `git handoff` a test runs is a node start, and node reads NODE_EXTRA_CA_CERTS at each start (this VM sets
// it: ~50 ms a start here). The product opens no TLS connection and the tests' remotes are file://, git:// and
// http:// on 127.0.0.1, so the default and slow sets' processes start without it (test/guard/front.slow.test.ts sets
// it where it checks it). The real clients and hosts keep it: they install from the npm registry.
const CA = process.env.NODE_EXTRA_CA_CERTS;
delete process.env.NODE_EXTRA_CA_CERTS;
delete process.env.GIT_HANDOFF_TEST_SET;
const withCA = CA ? { NODE_EXTRA_CA_CERTS: CA } : {};

// The projects this run names (`--project <name>`, repeatable; none named: all of them). The default, slow and clients
// sets take two forks (the clients set installs every client once before its files start: test/clients/setup.ts);
// the hosts (one gitolite) run one file at a time, and so does a run that names no set, which may include them. A
// worker count is one for the whole run in vitest 3.
const named = process.argv.flatMap((a, i, all) =>
  a === '--project' ? [all[i + 1]] : a.startsWith('--project=') ? [a.slice('--project='.length)] : [],
);
const forks = named.length > 0 && named.every((n) => n === 'default' || n === 'slow' || n === 'clients') ? 2 : 1;

export default defineConfig({
  test: {
    pool: 'forks',
    poolOptions: { forks: { maxForks: forks, minForks: 1 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          exclude: ['node_modules/**', 'test/**/*.{slow,clients,hosts}.test.ts'],
          // generous: a test is ended by a hang, not by a second suite loading the machine (at load 20–40 a 12-writer
          // race or a guard matrix took 2–3 min and failed at 120 s)
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/**/*.slow.test.ts', 'test/**/*.split.test.ts'],
          exclude: ['node_modules/**'],
          // test/helpers/sets.ts: the split files register their costly cases in this set
          env: { GIT_HANDOFF_TEST_SET: 'slow' },
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'clients',
          include: ['test/**/*.clients.test.ts'],
          exclude: ['node_modules/**'],
          globalSetup: forks > 1 ? ['test/clients/setup.ts'] : [],
          env: withCA,
          testTimeout: 300_000,
          hookTimeout: 900_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'hosts',
          include: ['test/**/*.hosts.test.ts'],
          exclude: ['node_modules/**'],
          env: withCA,
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
