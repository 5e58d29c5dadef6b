#!/usr/bin/env node
// List rows of issue 7: `git handoff list --all --json` over 10,000 handoffs on 100 branches against `node -e ''`
// plus the raw `git for-each-ref` with the same fields (timed in the same run, interleaved); its peak memory;
// and how its time grows from 100 to 1,000 to 10,000 handoffs.
//   node bench/list.mjs [--runs N] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generateHandoffs } from './gen-repo.mjs';
import { emit, flags, interleave, median, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

// the fields the store reads (src/git/repo.ts listRefs): the same work git does for the tool
const RAW = ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00', 'refs/handoffs/'];

function handoffRepo(handoffs) {
  const repo = tempRepo('gh-bench-list-');
  const t0 = Date.now();
  generateHandoffs(repo, { handoffs, branches: Math.min(100, handoffs) });
  return { repo, generatedMs: Date.now() - t0 };
}

/** Peak resident memory (MiB) of one run, from GNU time; null where /usr/bin/time is missing. */
function peakMiB(cmd, args, opts) {
  if (!existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { ...opts, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop()) / 1024;
}

export function benchList({ runs } = {}) {
  const rows = [];
  const growth = [];
  for (const n of [100, 1000, 10000]) {
    const { repo, generatedMs } = handoffRepo(n);
    try {
      const env = viaGit(repo.env);
      const opts = { cwd: repo.dir, env };
      const list = () => timeSync('git', ['handoff', 'list', '--all', '--json'], opts).ms;
      const count = JSON.parse(String(timeSync('git', ['handoff', 'list', '--all', '--json'], opts).stdout)).length;
      if (count !== n) throw new Error(`list printed ${count} handoffs, expected ${n}`);
      const floor = nodeFloor(repo.env);
      if (n === 10000) {
        const raw = () => timeSync('git', RAW, opts).ms;
        const r = interleave(Number(runs ?? 15), list, () => floor() + raw());
        rows.push(row('git handoff list --all --json, 10,000 handoffs / 100 branches', r, 1.5, `(repository generated in ${(generatedMs / 1000).toFixed(1)} s; the listing kept by the run before)`));
        // the same with nothing kept (the first listing after an upgrade, or after more than 64 refs moved): all read from git
        const kept = path.join(repo.dir, '.git', 'handoff', 'listing');
        const cold = () => {
          rmSync(kept, { force: true });
          return list();
        };
        const c = interleave(Math.max(7, Math.floor(Number(runs ?? 15) / 2)), cold, () => floor() + raw());
        rows.push(row('  the same, nothing kept (every field read from git)', c, null));
        const peaks = [0, 1, 2].map(() => peakMiB('git', ['handoff', 'list', '--all', '--json'], opts));
        const peak = peaks.includes(null) ? null : Math.max(...peaks);
        rows.push({ name: 'peak memory of list --all --json at 10,000', measured: peak, baseline: null, ratio: null, goal: 120, unit: ' MiB', met: peak == null ? null : peak <= 120, runs: 3, note: peak == null ? 'not available: /usr/bin/time missing' : '' });
      }
      const r = interleave(Math.max(7, Math.floor(Number(runs ?? 15) / 2)), list, floor, 1);
      growth.push({ n, r });
    } finally {
      repo.cleanup();
    }
  }
  // growth: each size against `node -e ''`, so load cancels out of the comparison between sizes
  for (const g of growth) rows.push({ ...row(`  growth: list --all --json at ${g.n.toLocaleString('en-US')} (vs node -e '')`, g.r, null), growth: true });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchList({ runs: f.runs }), f.json);
}
