#!/usr/bin/env node
// Where the milliseconds go (issue 39): `write` (existing topic), `show`, `list --all --json` at 10,000 handoffs and
// the guard's node path (a call the first look answers, one it hands to the full guard), each run --runs times with
// GIT_HANDOFF_TRACE set (src/trace.ts). Every node process of git-handoff writes its phases; this prints, per
// command, the median of each phase: wall ms (the time from the phase before it), the process's own CPU ms in
// that phase and the pages it touched first there (minor page faults: memory the phase made the kernel map). A git
// process is timed from node around its spawn; the node work before it is its own row. "node
// start" is node's bootstrap and the launcher up to the bundle's load; "before node's clock" what the run took
// outside the traced process (the `git handoff` dispatch or the hook's shell, node's earliest start, its exit).
//   node bench/trace.mjs [--runs N] [--only write,show,list,guard] [--json]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateHandoffs } from './gen-repo.mjs';
import { guardRepo, SESSION } from './guard.mjs';
import { ROOT, emit, flags, median, tempRepo, timeSync } from './lib.mjs';
import { BODY, viaGit } from './store.mjs';

/** The trace lines of one run, grouped by process in the order they started. */
function readTrace(file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const byPid = new Map();
  for (const l of text.split('\n')) {
    if (!l) continue;
    const e = JSON.parse(l);
    if (!byPid.has(e.pid)) byPid.set(e.pid, []);
    byPid.get(e.pid).push(e);
  }
  return [...byPid.values()].map((es) => es.sort((a, b) => a.t - b.t)).sort((a, b) => a[0].at - b[0].at);
}

/** The phases of one process: [label, wall ms, cpu ms, page faults]; a git spawn splits into the node work before it and git itself. */
function phasesOf(events) {
  const out = [];
  const seen = new Map();
  const label = (s) => {
    const n = (seen.get(s) ?? 0) + 1;
    seen.set(s, n);
    return n === 1 ? s : `${s} (${n})`;
  };
  const start = events.find((e) => e.phase === 'start');
  const who = start?.detail?.split(' ')[0] ?? '?';
  for (let i = 1; i < events.length; i++) {
    const prev = events[i - 1];
    const e = events[i];
    if (e.phase === 'git start') continue;
    if (e.phase === 'git') {
      // 'git start' just before the spawn: the node work up to it, then git's own process as node waits for it
      const sub = e.detail.split(' ').find((w, j, ws) => !w.startsWith('-') && ws[j - 1] !== '-c') ?? e.detail;
      const before = events[i - 1]?.phase === 'git start' ? events[i - 1] : null;
      const from = before ? events[i - 2] : prev;
      if (before && from) out.push([label(`node work before git ${sub}`), before.t - from.t, before.cpu - from.cpu, faultsIn(from, before)]);
      out.push([label(`git ${sub} (its own process; cpu, faults: node's side of the spawn)`), e.ms, before ? e.cpu - before.cpu : null, before ? faultsIn(before, e) : null]);
    } else {
      const name = prev.phase === 'start' ? `node start → ${e.phase}${e.detail ? ` ${e.detail}` : ''}` : `→ ${e.phase}${e.detail && e.phase !== 'compiled' ? ` (${e.detail})` : ''}`;
      out.push([label(name), e.t - prev.t, e.cpu - prev.cpu, faultsIn(prev, e)]);
    }
  }
  return { who, phases: out, total: events.at(-1).t, cpu: events.at(-1).cpu, faults: events.at(-1).faults ?? null };
}

/** The minor page faults between two lines of one process (null from a build whose lines carry none). */
const faultsIn = (a, b) => (a.faults == null || b.faults == null ? null : b.faults - a.faults);

/** Runs `once(env)` --runs times with a fresh trace file each; medians per (process, phase). */
function traced(name, runs, once) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gh-trace-'));
  const table = new Map();
  const walls = [];
  const add = (key, ms, cpu, faults = null) => {
    if (!table.has(key)) table.set(key, { ms: [], cpu: [], faults: [] });
    table.get(key).ms.push(ms);
    if (cpu != null) table.get(key).cpu.push(cpu);
    if (faults != null) table.get(key).faults.push(faults);
  };
  try {
    for (let i = 0; i < runs; i++) {
      const file = path.join(dir, `t${i}`);
      const r = once({ GIT_HANDOFF_TRACE: file });
      const procs = readTrace(file);
      if (!procs.length) throw new Error(`${name}: no trace written (is the build current?)`);
      walls.push(r.ms);
      procs.forEach((events, p) => {
        const { who, phases, total, cpu, faults } = phasesOf(events);
        const tag = p === 0 ? '' : `[process ${p + 1}: ${who}] `;
        for (const [label, ms, c, pf] of phases) add(`${tag}${label}`, ms, c, pf);
        if (p === 0) {
          add('  total in the node process (its clock)', total, cpu, faults);
          add('  before and after node\'s clock (dispatch, bootstrap, exit)', r.ms - total, null);
        }
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = [{ name: `trace · ${name}: the whole run, as its caller times it`, measured: median(walls), baseline: null, ratio: null, goal: null, met: null, runs, trace: true }];
  for (const [key, v] of table) {
    // a phase not in every run (a cache written again) shows in how many it was
    const inAll = v.ms.length === runs ? '' : ` [${v.ms.length} of ${runs} runs]`;
    rows.push({ name: `trace · ${name}: ${key}${inAll}`, measured: median(v.ms), baseline: null, ratio: null, goal: null, met: null, runs: v.ms.length, cpuMs: v.cpu.length ? median(v.cpu) : null, faults: v.faults.length ? median(v.faults) : null, trace: true });
  }
  return rows;
}

export function benchTrace({ runs, only } = {}) {
  const n = Number(runs ?? 7);
  const parts = only ?? ['write', 'show', 'list', 'guard'];
  const rows = [];
  if (parts.includes('write') || parts.includes('show')) {
    const repo = tempRepo('gh-bench-trace-');
    try {
      const env = { ...viaGit(repo.env), GIT_HANDOFF_SESSION: 'bench-session' };
      repo.git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'second']);
      const gh = (args, extra, input) => timeSync('git', ['handoff', ...args], { cwd: repo.dir, env: { ...env, ...extra }, input });
      // two untraced runs of each first: the code caches are written, as in any later run
      for (let i = 0; i < 2; i++) gh(['write', 'auth-refactor', '-F', '-'], {}, BODY(i)), gh(['show', 'auth-refactor'], {});
      let k = 2;
      if (parts.includes('write')) rows.push(...traced('write (CAS, existing topic)', n, (extra) => gh(['write', 'auth-refactor', '-F', '-'], extra, BODY(k++))));
      if (parts.includes('show')) rows.push(...traced('show <topic>', n, (extra) => gh(['show', 'auth-refactor'], extra)));
    } finally {
      repo.cleanup();
    }
  }
  if (parts.includes('list')) {
    const repo = tempRepo('gh-bench-trace-list-');
    try {
      generateHandoffs(repo, { handoffs: 10000, branches: 100 });
      const env = viaGit(repo.env);
      const gh = (extra) => timeSync('git', ['handoff', 'list', '--all', '--json'], { cwd: repo.dir, env: { ...env, ...extra } });
      gh({});
      gh({});
      rows.push(...traced('list --all --json, 10,000 handoffs', n, gh));
    } finally {
      repo.cleanup();
    }
  }
  if (parts.includes('guard')) {
    const g = guardRepo();
    try {
      const fill = (f) => readFileSync(path.join(ROOT, 'bench', 'payloads', f), 'utf8').replaceAll('${CWD}', g.repo.dir).replaceAll('${SESSION}', SESSION);
      for (const [label, file] of [['guard, own protected file (the first look answers)', 'write-protected.json'], ['guard, Bash `npm test` (the first look answers)', 'bash-npm-test.json'], ['guard, refused raw update-ref (the first look refuses)', 'deny-probe.json'], ['guard, Bash `git commit -m x` (the full guard)', 'bash-git-commit.json']]) {
        const input = fill(file);
        const hook = (extra) => timeSync('sh', ['-c', g.command], { cwd: g.repo.dir, env: { ...g.env, ...extra }, input, allowFail: true });
        hook({});
        hook({});
        rows.push(...traced(label, n, hook));
      }
    } finally {
      g.repo.cleanup();
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  const rows = benchTrace({ runs: f.runs, only: f.only ? String(f.only).split(',') : undefined });
  if (f.json) emit(rows, true);
  else for (const r of rows) process.stdout.write(`${r.name.padEnd(110)} ${r.measured.toFixed(1).padStart(7)} ms${r.cpuMs != null ? `  cpu ${r.cpuMs.toFixed(1).padStart(6)} ms` : ''}${r.faults != null ? `  faults ${String(r.faults).padStart(5)}` : ''}\n`);
}
