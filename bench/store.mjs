#!/usr/bin/env node
// Store rows of issue 7: `git handoff write` to an existing topic and `git handoff show <topic>`, each against
// `node -e ''` timed in the same run, interleaved; medians of --runs (default 15 for show, 11 for write). Then the
// write again with the git hooks installed (`install --hooks`, as `install` leaves a repository): what a user pays.
//   node bench/store.mjs [--runs N] [--json]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, emit, flags, interleave, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';

export const BODY = (n) =>
  `# auth-refactor\n\n## Goal\nMove sessions to the new token store (version ${n}).\n\n## State\nsrc/auth/session.ts compiles; README.md describes the flow.\n\n` +
  `## Ruled out\n- caching tokens in memory\n\n## Next action\nRun npm test and fix the expiry check.\n\n## Stop conditions\nStop if the schema must change.\n`;

/**
 * The package installed as npm installs it (`npm install -g <folder>`): <prefix>/lib/node_modules/<name> a link to the
 * package's folder, each bin a link in <prefix>/bin to ../lib/node_modules/<name>/bin/<file>. Made once per run.
 */
let prefixBin = null;
function npmBin() {
  if (prefixBin) return prefixBin;
  const root = path.resolve(path.dirname(BIN), '..');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const prefix = mkdtempSync(path.join(tmpdir(), 'gh-bench-prefix-'));
  process.once('exit', () => rmSync(prefix, { recursive: true, force: true }));
  mkdirSync(path.join(prefix, 'lib', 'node_modules'), { recursive: true });
  symlinkSync(root, path.join(prefix, 'lib', 'node_modules', pkg.name));
  mkdirSync(path.join(prefix, 'bin'));
  for (const [name, file] of Object.entries(pkg.bin)) symlinkSync(path.join('..', 'lib', 'node_modules', pkg.name, file), path.join(prefix, 'bin', name));
  return (prefixBin = path.join(prefix, 'bin'));
}

/** `git handoff …` as a user types it: git finds git-handoff on PATH, where npm put it. */
export const viaGit = (env) => ({ ...env, PATH: `${npmBin()}${path.delimiter}${env.PATH}` });

export function benchStore({ runs } = {}) {
  const repo = tempRepo();
  try {
    const env = { ...viaGit(repo.env), GIT_HANDOFF_SESSION: 'bench-session' };
    repo.git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'second']);
    const gh = (args, input) => timeSync('git', ['handoff', ...args], { cwd: repo.dir, env, input }).ms;
    gh(['write', 'auth-refactor', '-F', '-'], BODY(0));
    const floor = nodeFloor(repo.env);
    let n = 1;
    const write = interleave(Number(runs ?? 11), () => gh(['write', 'auth-refactor', '-F', '-'], BODY(n++)), floor);
    const show = interleave(Number(runs ?? 15), () => gh(['show', 'auth-refactor']), floor);
    const hooks = timeSync('git', ['handoff', 'install', '--hooks'], { cwd: repo.dir, env });
    if (hooks.status !== 0) throw new Error(`install --hooks: ${hooks.stderr}`);
    const hooked = interleave(Number(runs ?? 11), () => gh(['write', 'auth-refactor', '-F', '-'], BODY(n++)), floor);
    return [
      row('git handoff write (existing topic)', write, 2.0),
      row('git handoff show <topic>', show, 1.6),
      row('git handoff write (existing topic), git hooks installed', hooked, 2.0),
    ];
  } finally {
    repo.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchStore({ runs: f.runs }), f.json);
}
