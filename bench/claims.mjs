#!/usr/bin/env node
// Claims rows (issue 38): `git handoff claim` (a renewal: one compare-and-swap of the branch's claims table) against
// `git handoff write` of an existing topic, locally; and with a file:// handoff remote, `claim` (one push with a
// lease) against `git handoff write` plus one `git push` of that handoff ref: the push round trip the claim adds.
// Interleaved, medians of --runs (default 11).
//   node bench/claims.mjs [--runs N] [--json]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emit, flags, interleave, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

export function benchClaims({ runs } = {}) {
  const repo = tempRepo('gh-bench-claims-');
  try {
    const env = { ...viaGit(repo.env), GIT_HANDOFF_SESSION: 'bench-session' };
    const gh = (args, input) => timeSync('git', ['handoff', ...args], { cwd: repo.dir, env, input }).ms;
    const body = (n) => `Goal: bench version ${n}\n`;
    let n = 0;
    gh(['write', 'auth-refactor', '-F', '-'], body(n++));
    gh(['claim', 'src/auth/', '--note', 'bench']);
    const local = interleave(Number(runs ?? 11), () => gh(['claim', 'src/auth/', '--note', 'bench']), () => gh(['write', 'auth-refactor', '-F', '-'], body(n++)));
    const bare = path.join(mkdtempSync(path.join(tmpdir(), 'gh-bench-remote-')), 'remote.git');
    repo.git(['init', '-q', '--bare', bare]);
    repo.git(['remote', 'add', 'origin', `file://${bare}`]);
    gh(['claim', 'src/auth/', '--note', 'bench']);
    const pushWrite = () => {
      const ms = gh(['write', 'auth-refactor', '-F', '-'], body(n++));
      return ms + timeSync('git', ['push', '-q', 'origin', 'refs/handoffs/main/auth-refactor'], { cwd: repo.dir, env }).ms;
    };
    const remote = interleave(Number(runs ?? 11), () => gh(['claim', 'src/auth/', '--note', 'bench']), pushWrite);
    return [
      row('git handoff claim (renewal, local) vs write', local, 1.0),
      row('git handoff claim (file:// remote, one push) vs write + git push', remote, 1.0),
    ];
  } finally {
    repo.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchClaims({ runs: f.runs }), f.json);
}
