// Generates real handoffs (handoff.md + state.json trees, the trailers the store writes) with one
// `git fast-import`, so a 10,000-handoff repository takes seconds instead of 10,000 CLI calls.
import { buildSync } from 'esbuild';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './lib.mjs';

let domain;
/** The domain functions (message, state, ref names) from src/, bundled on the fly so the format is never copied. */
function loadDomain() {
  if (domain) return domain;
  const out = buildSync({ entryPoints: [path.join(ROOT, 'bench', 'domain.ts')], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'warning' });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
  return (domain = mod.exports);
}

const SECTIONS = (topic, i) =>
  `# ${topic}\n\n## Goal\nFinish the ${topic.replace(/-/g, ' ')} work (item ${i}).\n\n## State\nTests pass except src/auth/session.ts.\n\n` +
  `## Ruled out\n- caching the token in memory\n\n## Next action\nRun npm test and fix the session expiry check.\n\n## Stop conditions\nStop if the migration needs a schema change.\n`;

/** Adds `handoffs` handoffs spread over `branches` branches (names like feature/Team-7 that need encoding). */
export function generateHandoffs(repo, { handoffs, branches }) {
  importVersions(repo, { branches, from: 0, count: handoffs, version: 0 });
}

/**
 * One fast-import of version `version` of handoffs `from`…`from + count - 1`, each by its owner: version 0 their first,
 * version 1, 2, … on top of the one before (a change, as a write makes it).
 */
export function importVersions(repo, { branches, from, count, version }) {
  const d = loadDomain();
  const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  const parts = [];
  const t0 = 1_750_000_000 + version * 1_000_000;
  for (let i = from; i < from + count; i++) {
    const branch = `feature/Team-${i % branches}`;
    const topic = `topic-${Math.floor(i / branches)}-notes`;
    const session = `bench-session-${(i * 7) % 37}`;
    const body = version ? SECTIONS(topic, i).replace('## Goal\n', `## Goal\nVersion ${version}. `) : SECTIONS(topic, i);
    const state = d.serializeState({ branch, head, worktree: null, dirty: [], files: ['src/auth/session.ts'] });
    const message = d.buildMessage({ topic, body, session, branch, head, client: 'claude-code' });
    const ref = d.handoffRef(branch, topic);
    parts.push(
      `commit ${ref}\ncommitter Bench User <bench@example.com> ${t0 + i} +0000\n` +
        `data ${Buffer.byteLength(message)}\n${message}\n${version ? `from ${ref}^0\n` : ''}` +
        `M 100644 inline handoff.md\ndata ${Buffer.byteLength(body)}\n${body}\n` +
        `M 100644 inline state.json\ndata ${Buffer.byteLength(state)}\n${state}\n`,
    );
  }
  repo.git(['fast-import', '--quiet'], { input: parts.join('') });
}
