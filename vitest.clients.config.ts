import { defineConfig } from 'vitest/config';
import './test/helpers/clean-path';

// End-to-end tests with the real clients (Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode, Qwen Code, Cline CLI, Kilo
// Code CLI, Factory droid offline): slow, large
// downloads cached under ~/.cache, so they run apart from `npm test` as `npm run test:clients`.
export default defineConfig({
  test: {
    include: ['test/clients/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 900_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
  },
});
