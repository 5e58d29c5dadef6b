// Shared by the bench scripts: isolated temporary repositories, the built bin, timing and medians.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// GIT_HANDOFF_BENCH_BIN measures another build (e.g. a helper's worktree) with the same harness
export const BIN = process.env.GIT_HANDOFF_BENCH_BIN ?? path.join(ROOT, 'bin', 'git-handoff');

/** An environment with its own HOME and identity, no system git config and no client session variables. */
export function isolatedEnv(home, extra = {}) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (k.startsWith('GIT_') || k.startsWith('CLAUDE') || k.startsWith('GEMINI') || k.startsWith('CODEX')) delete env[k];
  }
  delete env.XDG_CACHE_HOME;
  Object.assign(env, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C', NO_COLOR: '1' }, extra);
  return env;
}

/**
 * What creating a file costs on the filesystem of `dir` (default: where tempRepo puts the bench's repositories):
 * median ms of a new file created and written (200 bytes), and of the same file rewritten in place. A store write
 * creates files (loose objects, ref locks, the witness's copy), so this prices a part of the store rows that a
 * bare `node -e ''` never pays. On this project's VM: 0.02-0.03 ms quiet, 0.9-1.2 ms while a test suite wrote to
 * the same disk (2026-11-24): a row measured then is the disk's, not ours.
 */
export function fileCosts(dir = tmpdir(), n = 200) {
  const root = mkdtempSync(path.join(dir, 'gh-fs-'));
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  try {
    const create = [];
    const rewrite = [];
    for (let i = 0; i < n; i++) {
      const f = path.join(root, `f${i}`);
      let t = process.hrtime.bigint();
      writeFileSync(f, 'x'.repeat(200));
      create.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      writeFileSync(f, 'y'.repeat(200));
      rewrite.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return { dir, create: median(create), rewrite: median(rewrite) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A temporary repository with one commit on main; `cleanup()` removes it. */
export function tempRepo(prefix = 'gh-bench-') {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  const home = path.join(root, 'home');
  const dir = path.join(root, 'repo');
  mkdirSync(home);
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Bench User\n\temail = bench@example.com\n');
  const env = isolatedEnv(home);
  const git = (args, opts = {}) => {
    const r = spawnSync('git', args, { cwd: opts.cwd ?? dir, env: { ...env, ...opts.env }, input: opts.input, encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.status !== 0 && !opts.allowFail) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r;
  };
  git(['init', '-q', '--initial-branch=main', dir], { cwd: root });
  writeFileSync(path.join(dir, 'README.md'), 'bench\n');
  git(['add', '-A']);
  git(['commit', '-q', '--no-verify', '-m', 'initial']);
  return { root, home, dir, env, git, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs a command to completion: exit code, output, wall time in ms, and the child's peak RSS in KiB. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.stdin.end(opts.input ?? '');
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      resolve({ code, ms, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

const TICK_MS = 10; // USER_HZ is 100 on Linux
/** CPU time (user + system, ms) of this process's reaped children, from /proc/self/stat; null off Linux. */
export function childCpuMs() {
  if (!existsSync('/proc/self/stat')) return null;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * TICK_MS; // fields 16 and 17: cutime, cstime
}

/** Wall time of one synchronous run (no event-loop overhead in the measurement) and its CPU time, throwing on a failure. */
export function timeSync(cmd, args, opts = {}) {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env, input: opts.input ?? '', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  lastCpu = c0 == null ? null : childCpuMs() - c0;
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: lastCpu, status: r.status, stdout: r.stdout, stderr: r.stderr };
}
let lastCpu = null;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times a measured command against its baseline, interleaved (baseline, measured, baseline, …) so both see the
 * same machine load; `measured()` and `baseline()` return milliseconds. Returns both medians and the ratio.
 */
export function interleave(runs, measured, baseline, warmup = 2) {
  for (let i = 0; i < warmup; i++) {
    baseline();
    measured();
  }
  const a = [];
  const b = [];
  // CPU per run (mean over the runs: each reading is in 10 ms ticks), a view that machine load barely moves
  const cpu = { a: 0, b: 0, ok: childCpuMs() != null };
  const one = (fn, into, key) => {
    const c0 = childCpuMs();
    into.push(fn());
    if (cpu.ok) cpu[key] += childCpuMs() - c0;
  };
  for (let i = 0; i < runs; i++) {
    if (i % 2) {
      one(measured, a, 'a');
      one(baseline, b, 'b');
    } else {
      one(baseline, b, 'b');
      one(measured, a, 'a');
    }
  }
  const m = median(a);
  const base = median(b);
  const cpuRatio = cpu.ok && cpu.b > 0 ? cpu.a / cpu.b : null;
  return { measured: m, baseline: base, ratio: m / base, runs, cpu: cpu.ok ? { measured: cpu.a / runs, baseline: cpu.b / runs, ratio: cpuRatio } : null };
}

/**
 * interleave() for several commands at once, each turn in a rotated order so that each sees the same machine load:
 * the medians and mean CPU of each (`fns[0]` the baseline of the others' ratios: `vs(i)` gives interleave()'s shape
 * for command i against it).
 */
export function interleaveMany(runs, fns, warmup = 2) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) fn();
  const ms = fns.map(() => []);
  const cpu = fns.map(() => 0);
  const ok = childCpuMs() != null;
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < fns.length; j++) {
      const k = (i + j) % fns.length;
      const c0 = childCpuMs();
      ms[k].push(fns[k]());
      if (ok) cpu[k] += childCpuMs() - c0;
    }
  }
  const med = ms.map(median);
  const vs = (i, base = 0) => ({
    measured: med[i],
    baseline: med[base],
    ratio: med[i] / med[base],
    runs,
    cpu: ok ? { measured: cpu[i] / runs, baseline: cpu[base] / runs, ratio: cpu[base] > 0 ? cpu[i] / cpu[base] : null } : null,
  });
  return { medians: med, vs };
}

/** `node -e ''`: the floor every node command pays. */
export const nodeFloor = (env) => () => timeSync(process.execPath, ['-e', ''], { env }).ms;

/** The command-line flags after the script name: --key value / --flag. */
export function flags(argv = process.argv.slice(2)) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([\w-]+)$/.exec(argv[i]);
    if (!m) continue;
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) o[m[1]] = argv[++i];
    else o[m[1]] = true;
  }
  return o;
}

/** One result row, in the shape bench/run.mjs prints. */
export function row(name, r, goal, note = '') {
  return { name, measured: r.measured, baseline: r.baseline, ratio: r.ratio, goal, met: goal == null ? null : r.ratio <= goal, runs: r.runs, cpu: r.cpu ?? null, note };
}

/** Prints rows as JSON when --json, else as a small table. */
export function emit(rows, asJson) {
  if (asJson) return void process.stdout.write(JSON.stringify(rows) + '\n');
  for (const r of rows) {
    const ratio = r.ratio == null ? '' : `${r.ratio.toFixed(2)}×`;
    const goal = r.goal == null ? '' : `goal ≤ ${r.goal}${r.unit ?? '×'} ${r.met == null ? '' : r.met ? 'met' : 'MISSED'}`;
    const cpu = r.cpu ? ` [cpu ${r.cpu.measured.toFixed(0)} vs ${r.cpu.baseline.toFixed(0)} ms, ${r.cpu.ratio?.toFixed(2)}×]` : '';
    process.stdout.write(`${r.name}: ${fmt(r.measured, r.unit)} vs ${fmt(r.baseline, r.unit)} ${ratio} ${goal}${cpu} ${r.note ?? ''}\n`);
  }
}

export const fmt = (v, unit) => (v == null ? '—' : unit === ' MiB' || unit === ' KiB' ? `${v.toFixed(1)}${unit}` : unit === ' pushes' ? `${v}${unit}` : `${v.toFixed(1)} ms`);
