#!/usr/bin/env node
// Issue 55's rows: `git handoff status` over 10,000 handoffs on 100 branches against `list --all --json` on the same
// repository (timed in the same run, interleaved; goal ≤ 1.5×): `status --all --json` (the whole store, as list --all
// reads it) and `status` of one branch; the page's weight (dist/web: bytes and gzip); and `git handoff web`'s start,
// from the command to its address printed, against `node -e ''`, with its first /api/status answer at 10,000.
//   node bench/status.mjs [--runs N] [--json]
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateHandoffs } from './gen-repo.mjs';
import { emit, flags, interleave, median, nodeFloor, ROOT, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

const kib = (n) => n / 1024;

/** The page's files as the browser gets them (carried in dist/web.cjs): raw and gzip, KiB. */
export function pageWeight() {
  const { PAGE } = createRequire(import.meta.url)(path.join(ROOT, 'dist', 'web.cjs'));
  const files = [PAGE.js, PAGE.css].map((t) => Buffer.from(t));
  const raw = files.reduce((a, b) => a + b.length, 0);
  const gz = files.reduce((a, b) => a + gzipSync(b, { level: 9 }).length, 0);
  return [
    { name: 'web: the page (app.js + app.css: preact, htm, jsdiff, the views)', measured: kib(raw), baseline: null, ratio: null, goal: null, unit: ' KiB', met: null, runs: 1, note: `${kib(gz).toFixed(1)} KiB gzip` },
    { name: 'web: dist/web.cjs (the server and the page, loaded by `web` alone)', measured: kib(statSync(path.join(ROOT, 'dist', 'web.cjs')).size), baseline: null, ratio: null, goal: null, unit: ' KiB', met: null, runs: 1, note: '' },
  ];
}

/** Starts `git handoff web --no-open` and resolves with the ms until it printed its address, and a stop function. */
function startWeb(cwd, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('git', ['handoff', 'web', '--no-open'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/\?t=(\S+)/.exec(out);
      if (m) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        resolve({ ms, port: Number(m[1]), token: m[2], stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGINT'))) });
      }
    });
    child.on('exit', (code) => reject(new Error(`web exited ${code}: ${out}`)));
  });
}

const get = (port, p) =>
  new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    request({ host: '127.0.0.1', port, path: p, headers: { Host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
    })
      .on('error', reject)
      .end();
  });

export async function benchStatus({ runs } = {}) {
  const n = Number(runs ?? 15);
  const rows = [];
  const repo = tempRepo('gh-bench-status-');
  try {
    const t0 = Date.now();
    generateHandoffs(repo, { handoffs: 10000, branches: 100 });
    const env = viaGit(repo.env);
    const opts = { cwd: repo.dir, env };
    // a few live claims and a session's lease, as a team's repository has
    for (const [s, p] of [['bench-session-1', 'src/auth/'], ['bench-session-2', 'docs/'], ['bench-session-3', 'src/billing/']]) {
      timeSync('git', ['handoff', 'claim', p, '--session', s, '--branch', 'feature/Team-7', '--note', 'bench'], opts);
    }
    const list = () => timeSync('git', ['handoff', 'list', '--all', '--json'], opts).ms;
    const statusAll = () => timeSync('git', ['handoff', 'status', '--all', '--json'], opts).ms;
    const status = () => timeSync('git', ['handoff', 'status'], opts).ms;
    const statusBranch = () => timeSync('git', ['handoff', 'status', '--branch', 'feature/Team-7', '--json'], opts).ms;
    const count = JSON.parse(String(timeSync('git', ['handoff', 'status', '--all', '--json'], opts).stdout)).handoffs.length;
    if (count !== 10000) throw new Error(`status --all --json printed ${count} handoffs, expected 10000`);
    const note = `(repository generated in ${((Date.now() - t0) / 1000).toFixed(1)} s; the listing kept by the run before, as for list)`;
    rows.push(row('git handoff status --all --json vs list --all --json, 10,000 handoffs / 100 branches', interleave(n, statusAll, list), 1.5, note));
    rows.push(row('git handoff status (the checked-out branch, the screen) vs list --all --json, same repository', interleave(n, status, list), 1.5));
    rows.push(row('git handoff status --branch feature/Team-7 --json (100 handoffs) vs list --all --json', interleave(n, statusBranch, list), 1.5));
    // the server's start: to its address printed, against a bare node start; then its first status at 10,000
    const floor = nodeFloor(repo.env);
    const starts = [];
    const floors = [];
    const firsts = [];
    for (let i = 0; i < Math.max(5, Math.floor(n / 3)); i++) {
      floors.push(floor());
      const w = await startWeb(repo.dir, env);
      starts.push(w.ms);
      firsts.push(await get(w.port, `/api/status?all=1&t=${w.token}`));
      await w.stop();
    }
    const s = median(starts);
    const f = median(floors);
    rows.push({ name: "web: the server's start (the command to its address printed) vs node -e ''", measured: s, baseline: f, ratio: s / f, goal: null, met: null, runs: starts.length, cpu: null, note: '' });
    rows.push({ name: 'web: its first /api/status?all=1 at 10,000 handoffs', measured: median(firsts), baseline: null, ratio: null, goal: null, met: null, runs: firsts.length, cpu: null, note: '' });
  } finally {
    repo.cleanup();
  }
  return [...rows, ...pageWeight()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(await benchStatus({ runs: f.runs }), f.json);
}
