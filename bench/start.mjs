#!/usr/bin/env node
// The session start (issues 71, 72): Claude Code's SessionStart hook as the client runs it (`/bin/sh -c` with the
// command `install --agent claude` wired, the payload on stdin) in a repository with three handoffs, against
// `node -e ''`; and `git handoff boot` there against `node -e ''` plus the raw read of the branch's own refs. Each
// row's note counts the git processes one run starts (GIT_HANDOFF_TRACE).
//   node bench/start.mjs [--runs N] [--json]
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, emit, flags, interleave, nodeFloor, row, timeSync } from './lib.mjs';
import { wiredRepo } from './tool-call.mjs';

const SESSION = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const WRITER = '9b1e77d0-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const TOPICS = ['auth-refactor', 'login-redirect-loop', 'cache-layer'];

/** The git processes one run of `fn` starts, read from its trace. */
function gitCount(env, fn) {
  const file = path.join(env.HOME, 'start-trace.jsonl');
  rmSync(file, { force: true });
  fn({ ...env, GIT_HANDOFF_TRACE: file });
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"phase":"git"')).length;
}

export function benchStart({ runs } = {}) {
  const n = Number(runs ?? 21);
  const w = wiredRepo('claude');
  try {
    const at = { cwd: w.repo.dir, env: { ...w.env, GIT_HANDOFF_SESSION: WRITER } };
    for (const t of TOPICS) timeSync('git', ['handoff', 'write', t, '-m', `## Goal\nFinish ${t}.\n\n## Next action\nRun the tests.\n`], at);
    const [cmd] = w.settings.hooks.SessionStart.flatMap((g) => g.hooks.map((h) => h.command));
    const payload = readFileSync(path.join(ROOT, 'fixtures', 'hook-payloads', 'claude-code', 'session-start.json'), 'utf8').split('/home/user/my-project').join(w.repo.dir);
    const start = (env = w.env) => timeSync(w.shell, [...w.args, cmd], { cwd: w.repo.dir, env, input: payload }).ms;
    const boot = (env = w.env) => timeSync('git', ['handoff', 'boot', '--session', SESSION], { cwd: w.repo.dir, env }).ms;
    const raw = () => timeSync('git', ['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/handoffs/main/', 'refs/handoff-archive/main/'], { cwd: w.repo.dir, env: w.env }).ms;
    const floor = nodeFloor(w.repo.env);
    const gits = (fn) => `(${gitCount(w.env, fn)} git processes a run)`;
    return [
      row("Claude Code SessionStart, three handoffs (vs node -e '')", interleave(n, () => start(), floor), 1.5, gits(start)),
      row("boot, three handoffs (vs node -e '' + raw for-each-ref of the branch's refs)", interleave(n, () => boot(), () => floor() + raw()), 1.5, gits(boot)),
    ];
  } finally {
    w.repo.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchStart({ runs: f.runs }), f.json);
}
