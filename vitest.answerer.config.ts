import { defineConfig } from 'vitest/config';
import './test/answerer-mode';
import './test/helpers/clean-path';

// `npm run test:answerer` (GIT_HANDOFF_ANSWERER=1): the perimeter's, the durability record's and the claims' checks
// that run calls through the real sh front, with the resident answerer on (issue 39: they pass with it and without;
// the other suites run without). A test's first handed-over call starts an answerer for its HOME; the later ones
// are answered by it.
delete process.env.NODE_EXTRA_CA_CERTS;
delete process.env.GIT_HANDOFF_TEST_SET;

export default defineConfig({
  test: {
    include: [
      'test/answerer/**/*.test.ts',
      'test/guard/attacker.test.ts',
      'test/guard/attack5.test.ts',
      'test/guard/front-ledger.test.ts',
      'test/guard/peers.test.ts',
      'test/guard/vscode.test.ts',
      'test/guard/new-clients.test.ts',
      'test/guard/plugin-active.test.ts',
      'test/git/config-files.test.ts',
      'test/claims/guard.test.ts',
      'test/record/first-sight.test.ts',
    ],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
