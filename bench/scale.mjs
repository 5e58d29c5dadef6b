#!/usr/bin/env node
// The team's scale (issue 57): `list`, `status`, `claims`, the session start and a `write` over 100,000 handoffs on
// 1,000 branches with 1,000 archive entries of one topic on the checked-out branch, each against its floor timed in
// the same run (interleaved), and the same commands against a repository of 1,000 handoffs (what stays flat must);
// the session start at both sizes against node's start and the raw read of its branch's refs.
// Then the loss record's first sight of that many refs a fast-import made (issue 72), against the raw listing of them
// and a push of the objects the witness must take.
//   node bench/scale.mjs [--runs N] [--handoffs N] [--archives N] [--json]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { generateHandoffs } from './gen-repo.mjs';
import { emit, flags, interleave, interleaveMany, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

const TOPIC = 'release-plan';
const RAW = ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00', 'refs/handoffs/'];

/** A repository of `handoffs` generated handoffs, and `archives` archive entries of one topic on its checked-out branch written through the CLI. */
function scaleRepo(handoffs, archives) {
  const repo = tempRepo('gh-bench-scale-');
  const env = viaGit({ ...repo.env, GIT_HANDOFF_SESSION: 'bench-archivist' });
  const cli = (args) => execFileSync('git', ['handoff', ...args], { cwd: repo.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  // the archive entries first, through the CLI, while the repository is small (each write at 100,000 handoffs reads
  // them all: the loop would take the better part of an hour); then the other branches' handoffs in one fast-import
  for (let i = 0; i < archives; i++) {
    cli(['write', TOPIC, '-m', `Goal: release ${i}`]);
    cli(['archive', TOPIC]);
  }
  generateHandoffs(repo, { handoffs, branches: Math.max(1, Math.floor(handoffs / 100)) });
  cli(['write', TOPIC, '-m', 'Goal: the release after them']);
  cli(['claim', 'src/release/', '--note', 'the release notes']);
  return { repo, env };
}

export function benchScale({ runs, handoffs = 100_000, archives = 1000 } = {}) {
  const n = Number(runs ?? 9);
  const rows = [];
  const small = scaleRepo(1000, 10);
  const big = scaleRepo(handoffs, archives);
  const at = (r) => ({ cwd: r.repo.dir, env: r.env });
  const cmd = (r, args) => () => timeSync('git', ['handoff', ...args], at(r)).ms;
  try {
    for (const r of [small, big]) timeSync('git', ['handoff', 'list', '--all', '--json'], at(r)); // the record's first sight and the kept listing
    const label = handoffs.toLocaleString('en-US');
    const floor = nodeFloor(big.repo.env);
    const raw = () => timeSync('git', RAW, at(big)).ms;
    rows.push(row(`list --all --json at ${label} (vs node -e '' + raw for-each-ref)`, interleave(n, cmd(big, ['list', '--all', '--json']), () => floor() + raw()), 1.5));
    rows.push(row(`status --all --json at ${label} (vs list --all --json)`, interleave(n, cmd(big, ['status', '--all', '--json']), cmd(big, ['list', '--all', '--json'])), 1.5));
    // what a session reads at its start and between calls: the branch's handoffs (one topic with 1,000 archive entries) and the claims
    for (const [name, args] of [
      ['claims --json', ['claims', '--json']],
      ['boot (the session start view)', ['boot', '--session', 'bench-reader']],
      ['list (the checked-out branch)', ['list', '--json']],
      ['status (the checked-out branch)', ['status', '--json']],
      ['write (an existing topic)', ['write', TOPIC, '-m', 'Goal: the release after them, again']],
    ]) {
      const m = interleaveMany(n, [cmd(small, args), cmd(big, args)]);
      rows.push(row(`${name} at ${label} (vs the same at 1,000)`, m.vs(1, 0), 1.5));
    }
    // the session start against the least it must do: node's start and the raw read of the checked-out branch's refs
    for (const [r, size] of [[small, '1,000'], [big, label]]) {
      const own = () => floor() + timeSync('git', [...RAW.slice(0, 2), 'refs/handoffs/main/', 'refs/handoff-archive/main/'], at(r)).ms;
      rows.push(row(`boot at ${size} (vs node -e '' + raw for-each-ref of the branch's refs)`, interleave(n, cmd(r, ['boot', '--session', 'bench-reader']), own), 1.5));
    }
    // every version of the topic with 1,000 archive entries: it grows with them, as it prints them (no goal)
    rows.push(row(`log ${TOPIC} with ${archives.toLocaleString('en-US')} archive entries (vs node -e '')`, interleave(n, cmd(big, ['log', TOPIC]), floor), null));
  } finally {
    small.repo.cleanup();
    big.repo.cleanup();
  }
  rows.push(firstSight(handoffs));
  return rows;
}

/**
 * The loss record's first sight of `handoffs` refs a fast-import made (one run: it happens once), against what it
 * cannot do without, timed right after on a twin repository: the raw listing of the refs with node's start, and a
 * push of what they reach into an empty repository (the witness's copy).
 */
export function firstSight(handoffs) {
  const repos = [tempRepo('gh-bench-sight-'), tempRepo('gh-bench-sight-')];
  try {
    for (const r of repos) generateHandoffs(r, { handoffs, branches: Math.max(1, Math.floor(handoffs / 100)) });
    const [mine, twin] = repos;
    const env = { ...viaGit(mine.env), XDG_STATE_HOME: path.join(mine.home, '.local', 'state') };
    const sight = timeSync('git', ['handoff', 'list'], { cwd: mine.dir, env });
    const bare = path.join(twin.home, 'copy.git');
    const least = timeSync(process.execPath, ['-e', ''], { env: twin.env });
    const list = timeSync('git', ['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/handoffs/'], { cwd: twin.dir, env: twin.env });
    twin.git(['init', '-q', '--bare', bare]);
    const copy = timeSync('git', ['push', '-q', bare, 'refs/handoffs/*:refs/handoffs/*'], { cwd: twin.dir, env: twin.env });
    const r = { measured: sight.ms, baseline: least.ms + list.ms + copy.ms, runs: 1, cpu: sight.cpu == null ? null : { measured: sight.cpu, baseline: least.cpu + list.cpu + copy.cpu, ratio: sight.cpu / (least.cpu + list.cpu + copy.cpu) } };
    return row(`the record's first sight of ${handoffs.toLocaleString('en-US')} refs from a fast-import (vs node -e '' + raw for-each-ref + a push of their objects)`, { ...r, ratio: r.measured / r.baseline }, 2, `(list ${list.ms.toFixed(0)} ms, push ${copy.ms.toFixed(0)} ms)`);
  } finally {
    for (const r of repos) r.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchScale({ runs: f.runs, handoffs: f.handoffs ? Number(f.handoffs) : undefined, archives: f.archives ? Number(f.archives) : undefined }), f.json);
}
