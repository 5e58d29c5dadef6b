#!/usr/bin/env node
// The `git commit` rows: a person (no session) committing with the handoff hooks installed, against the same commit
// in a twin repository whose same hooks are empty `exit 0` stubs; interleaved, medians (goal: 1.5×, no node start).
// Then the same for an agent's commit (a session id in the environment: its trailers added, its staged changes
// checked; goal: 3×, about one node start), timed beside its floor: the empty stubs with prepare-commit-msg running
// `node -e ''` (one node start, nothing read or decided: no agent's commit that starts node costs less).
//   node bench/commit.mjs [--runs N] [--before <another build's bin/git-handoff>] [--json]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { emit, flags, interleave, interleaveMany, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

const NAME = 'git commit by a person, hooks installed';
const AGENT = 'git commit by an agent session, hooks installed';
const FLOOR = "floor · an agent's commit: empty stubs, prepare-commit-msg `node -e ''`";

/** A repository with `install --hooks` run (by the launcher `bin`, else this build's through git); null when that command is not built yet. */
function hookedRepo(bin) {
  const repo = tempRepo('gh-bench-commit-');
  const env = viaGit(repo.env);
  const r = bin ? timeSync(bin, ['install', '--hooks'], { cwd: repo.dir, env, allowFail: true }) : timeSync('git', ['handoff', 'install', '--hooks'], { cwd: repo.dir, env, allowFail: true });
  const hooksDir = repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim();
  const ours = r.status === 0 ? readdirSync(hooksDir).filter((f) => !f.endsWith('.sample') && /git-handoff/.test(readFileSync(path.join(hooksDir, f), 'utf8'))) : [];
  return { repo, env, hooksDir, ours, ok: r.status === 0 && ours.length > 0, why: String(r.stderr).trim().split('\n')[0] };
}

export function benchCommit({ runs, before } = {}) {
  const hooked = hookedRepo();
  const stubbed = hookedRepo();
  const floored = hookedRepo();
  // another build's hooks (`--before <its bin/git-handoff>`), timed in the same rounds
  const other = before ? hookedRepo(before) : null;
  try {
    if (!hooked.ok) return [{ name: NAME, measured: null, baseline: null, ratio: null, goal: 1.5, met: null, runs: 0, note: `not available yet: \`git handoff install --hooks\` ${hooked.why || 'installed no hooks'}` }];
    for (const f of stubbed.ours) writeFileSync(path.join(stubbed.hooksDir, f), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    for (const f of floored.ours) writeFileSync(path.join(floored.hooksDir, f), f === 'prepare-commit-msg' ? "#!/bin/sh\nnode -e ''\n" : '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    let n = 0;
    const commit = (t, extra = {}) => () => {
      n++;
      writeFileSync(path.join(t.repo.dir, 'README.md'), `bench ${n}\n`);
      t.repo.git(['add', 'README.md']);
      return timeSync('git', ['commit', '-q', '-m', `change ${n}`], { cwd: t.repo.dir, env: { ...t.env, ...extra } }).ms;
    };
    const r = interleave(Number(runs ?? 15), commit(hooked), commit(stubbed));
    const agent = { GIT_HANDOFF_SESSION: 'bench-agent-session' };
    const a = interleaveMany(Number(runs ?? 15), [commit(stubbed, agent), commit(floored, agent), commit(hooked, agent), ...(other ? [commit(other, agent)] : [])]);
    const last = hooked.repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)']).stdout.trim();
    if (last !== agent.GIT_HANDOFF_SESSION) throw new Error(`bench commit: the agent's commit carries no session trailer (${JSON.stringify(last)})`);
    return [
      row(NAME, r, 1.5, `(hooks: ${hooked.ours.join(', ')}; baseline: the same hooks as \`exit 0\` stubs)`),
      row(AGENT, a.vs(2), 3, '(the trailers added, the commit checked; baseline: the same commit with `exit 0` stubs, which add none)'),
      row(FLOOR, a.vs(1), null, "(the least an agent's commit that starts node costs: one node start, against the same `exit 0` stubs)"),
      row(`  ${AGENT}, against that floor`, a.vs(2, 1), null, "(what the hooks add beyond one node start)"),
      ...(other ? [row(`  ${AGENT}: the build ${before}`, a.vs(3), 3, '(its hooks in a twin repository, against the same `exit 0` stubs)')] : []),
    ];
  } finally {
    hooked.repo.cleanup();
    stubbed.repo.cleanup();
    floored.repo.cleanup();
    other?.repo.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchCommit({ runs: f.runs, before: f.before }), f.json);
}
