#!/usr/bin/env node
// `npm run bench`: every row, each against its baseline timed in the same run, in both environments (issue 39):
// NODE_EXTRA_CA_CERTS unset, where the goals are judged, and set (every node start, the baseline's too, reads the
// bundle: the flattering ratios). Then issue 39's table (its rows, both environments, the goals), and the trace
// (bench/trace.mjs): where the milliseconds of write, show, list and the guard's node path go.
//   node bench/run.mjs [--runs N] [--only calls,answerer,floor,guard,store,list,commit,record,claims,trace,witness,sync,sync100k] [--client claude,codex,…] [--env both|unset|set] [--json]
// Part `sync` (bench/sync.mjs): sync at 100, 1,000 and 10,000 handoffs beside git's own fetch and push of the same refs,
// and the pushes a claim starts; `sync100k` the same at 100,000 (minutes: not in the default run).
// Part `answerer`: the tool-call rows again with the user's resident answerer running (src/answerer); every other
// part runs with none (GIT_HANDOFF_ANSWERER=0). Part `floor` (bench/floor.mjs): the least any implementation of a row
// of issue 39's table costs, beside the row in that table.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchClaims } from './claims.mjs';
import { benchCommit } from './commit.mjs';
import { benchFloors } from './floor.mjs';
import { benchGuardRows } from './guard.mjs';
import { fileCosts, fmt, flags } from './lib.mjs';
import { benchList } from './list.mjs';
import { benchRecord } from './record.mjs';
import { benchStore } from './store.mjs';
import { benchToolCalls } from './tool-call.mjs';
import { benchTrace } from './trace.mjs';
import { benchWitness } from './witness.mjs';
import { benchClaimPushes, benchSync } from './sync.mjs';

const f = flags();
const ALL = ['calls', 'answerer', 'floor', 'guard', 'store', 'list', 'commit', 'record', 'claims', 'trace', 'witness', 'sync'];
// parts run only when named (--only): minutes long
const NAMED = ['sync100k'];
const only = f.only ? String(f.only).split(',') : ALL;
for (const name of only) if (![...ALL, ...NAMED].includes(name)) throw new Error(`unknown part ${name}: use ${[...ALL, ...NAMED].join(',')}`);
const runs = f.runs;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** The rows of the parts asked for, measured in this process's environment. */
function measure(parts) {
  const fns = { calls: () => benchToolCalls({ runs, clients: f.client ? String(f.client).split(',') : undefined }), answerer: () => benchToolCalls({ runs, clients: f.client ? String(f.client).split(',') : undefined, answerer: true }), floor: () => benchFloors({ runs }), guard: () => benchGuardRows({ runs }), store: () => benchStore({ runs }), list: () => benchList({ runs }), commit: () => benchCommit({ runs }), record: () => benchRecord({ runs }), claims: () => benchClaims({ runs }), trace: () => benchTrace({ runs }), witness: () => benchWitness({ runs }), sync: () => [...benchSync({ runs }), ...benchClaimPushes()], sync100k: () => benchSync({ runs: runs ?? 3, sizes: [100000] }) };
  return parts.flatMap((name) => fns[name]());
}

// a child run: one environment, rows as JSON (the parent sets or clears the variable)
if (f.child) {
  process.stdout.write(JSON.stringify({ loadBefore: load(), rows: measure(only), loadAfter: load() }) + '\n');
  process.exit(0);
}

// the bundle a node start reads when the variable is set: the caller's, else the system's
const CA = process.env.NODE_EXTRA_CA_CERTS || ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'].find((p) => existsSync(p)) || null;
const envs = (f.env ?? 'both') === 'both' ? ['unset', 'set'] : [String(f.env)];
if (envs.includes('set') && !CA) throw new Error('--env set: no CA bundle found to set NODE_EXTRA_CA_CERTS to');

/** One environment's rows, in a child process of its own (the variable is read by node at its start). */
function inEnv(which, parts) {
  const env = { ...process.env };
  if (which === 'set') env.NODE_EXTRA_CA_CERTS = CA;
  else delete env.NODE_EXTRA_CA_CERTS;
  const args = [fileURLToPath(import.meta.url), '--child', '--only', parts.join(','), ...(runs ? ['--runs', String(runs)] : []), ...(f.client ? ['--client', String(f.client)] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'] }));
}

const machine = {
  date: new Date().toISOString(),
  cpu: `${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}`,
  node: process.version,
  git: execSync('git --version', { encoding: 'utf8' }).trim(),
  nodeExtraCaCerts: CA,
  // the resident answerer runs only for the `answerer` part's rows (named `… (answerer)`)
  answerer: only.includes('answerer') ? 'rows named (answerer)' : 'none',
  // what a file created costs where the repositories are, before the rows: the store rows pay it (a write creates about
  // fifteen) and node -e '' does not; another process writing to the same disk can make it forty times dearer
  files: fileCosts(),
};
// the trace is measured once, unset (its phases, not ratios)
const measured = only.filter((p) => p !== 'trace');
const results = {};
for (const e of envs) results[e] = measured.length ? inEnv(e, measured) : { rows: [], loadBefore: load(), loadAfter: load() };
const traceRows = only.includes('trace') ? inEnv('unset', ['trace']).rows : [];

// issue 39's table: its rows, by the names the parts give them (Claude Code's calls, all hooks), and its goals
const ISSUE = [
  ['ordinary Write of a source file, all hooks, vs node', 'Claude Code tool call: Write of an ordinary source file', 0.15],
  ['ordinary Edit', 'Claude Code tool call: Edit of an ordinary source file', 0.15],
  ['Bash `npm test`', 'Claude Code tool call: Bash `npm test`', 0.15],
  ['Bash `ls -la`', 'Claude Code tool call: Bash `ls -la`', 0.15],
  ["this session's own protected handoff file", 'Claude Code tool call: Write of its own protected handoff file', 1.1],
  ["an edit of this session's own handoff file (not in the issue's table: an agent's usual change to its notes)", 'Claude Code tool call: Edit of its own protected handoff file', 1.1],
  ['a refused handoff ref move', 'Claude Code tool call: Bash `git update-ref refs/handoffs/…` (refused)', 1.3],
  ['`write` (CAS, existing topic) vs node', 'git handoff write (existing topic)', 2.0, 'floor · git handoff write (existing topic), with the loss record'],
  ['`show` vs node', 'git handoff show <topic>', 1.6],
  ['`write` with the git hooks installed (not in the issue\'s table: what `install` leaves)', 'git handoff write (existing topic), git hooks installed', 2.0, 'floor · git handoff write (existing topic), with the loss record'],
  ['`list --all --json`, 10,000 handoffs, vs node + for-each-ref', 'git handoff list --all --json, 10,000 handoffs / 100 branches', 1.5],
  ["the same with nothing kept (not in the issue's table: the first `list --all` after an upgrade, or after more than 64 refs moved)", '  the same, nothing kept (every field read from git)', null],
  ["a person's commit with hooks vs empty stubs", 'git commit by a person, hooks installed', 1.5],
];

if (f.json) {
  process.stdout.write(JSON.stringify({ machine, results, trace: traceRows }, null, 2) + '\n');
  process.exit(0);
}

const ratio = (r) => (r?.ratio == null ? '' : `${r.ratio.toFixed(2)}×`);
const cpu = (r) => (r?.cpu?.ratio == null ? (r?.cpuMs != null ? `${r.cpuMs.toFixed(1)} ms` : '') : `${r.cpu.ratio.toFixed(2)}×`);
const goal = (r) => (r?.goal == null ? '' : `≤ ${r.goal}${r.unit ?? '×'}`);
const verdict = (r) => (r == null ? 'not run' : r.met == null ? (r.measured == null && r.goal != null ? 'n/a' : '') : r.met ? 'met' : 'MISSED');
const time = (r) => (r?.measured == null ? '—' : fmt(r.measured, r.unit));
function render(table) {
  const widths = table[0].map((_, i) => Math.max(...table.map((t) => [...t[i]].length)));
  const line = (t) => '| ' + t.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join(' | ') + ' |';
  return [line(table[0]), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...table.slice(1).map(line)];
}
const judged = envs[0];
const byName = (e) => new Map((results[e]?.rows ?? []).map((r) => [r.name, r]));
const rowsOf = envs.map(byName);
const names = [...new Set(envs.flatMap((e) => results[e].rows.map((r) => r.name)))];
const head = ['measured', ...envs.flatMap((e) => [`time (${e})`, `baseline (${e})`, `ratio (${e})`, `cpu ratio (${e})`]), 'goal', `verdict (${judged})`, 'runs'];
const body = names.map((n) => {
  const rs = rowsOf.map((m) => m.get(n));
  return [n, ...rs.flatMap((r) => [time(r), r?.baseline == null ? '—' : fmt(r.baseline), ratio(r), cpu(r)]), goal(rs[0] ?? rs[1]), verdict(rs[0]), String((rs[0] ?? rs[1])?.runs ?? '')];
});
const out = [
  `git-handoff bench — ${machine.date} — ${machine.cpu} — node ${machine.node} — ${machine.git}`,
  ...envs.map((e) => `load (${e} run): ${results[e].loadBefore} → ${results[e].loadAfter}`),
  `NODE_EXTRA_CA_CERTS: unset, and set to ${CA ?? '(no bundle found)'} (read by every node start, the baseline's included; not by the guard's); goals are judged ${judged}.`,
  only.includes('answerer')
    ? "resident answerer: running for the rows named (answerer) only; their cpu ratio leaves out the spare's work and the next spare's node start (other processes than the call's)."
    : 'resident answerer: none in this run (part `answerer` adds the tool-call rows with one running).',
  `a file created in ${machine.files.dir} (and written, 200 bytes), median of 200 before the rows: ${machine.files.create.toFixed(3)} ms (rewritten in place: ${machine.files.rewrite.toFixed(3)} ms); a store write creates about fifteen.`,
  'time: medians of wall time; baselines timed in the same run, interleaved with the measured command.',
  "cpu ratio: mean CPU time (user + system of the whole process tree) against the baseline's, which machine load barely moves.",
  '',
  ...render([head, ...body]),
  '',
  ...envs.flatMap((e) => results[e].rows.filter((r) => r.note).map((r) => `${r.name}: ${r.note}`).filter((v, i, a) => e === envs[0] || !a.includes(v))),
  '',
  "Issue 39's table (Claude Code's calls, all hooks; goals judged with NODE_EXTRA_CA_CERTS unset, no answerer; beside them the calls with the answerer running, aim ≤ 0.1×;",
  `floor (${judged}): the least any implementation of the row costs, bench/floor.mjs: what the row must read, write and start, and no decision):`,
  ...render([
    ['row', ...envs.flatMap((e) => [`ratio (${e})`, `cpu (${e})`]), 'goal', 'verdict', `floor (${judged})`, ...envs.map((e) => `with answerer (${e})`)],
    ...ISSUE.map(([label, name, g, floorName]) => {
      const rs = rowsOf.map((m) => m.get(name));
      const withA = rowsOf.map((m) => m.get(`${name} (answerer)`));
      const store = !name.startsWith('Claude Code tool call');
      // list and commit have no floor row: their baselines are floors already (raw for-each-ref, empty hook stubs)
      const floored = !!floorName || !store || name.startsWith('git handoff show');
      const floor = ratio(rowsOf[0].get(floorName ?? `floor · ${name}`)) || (floored ? 'not run' : '—');
      return [label, ...rs.flatMap((r) => [ratio(r) || '—', cpu(r) || '—']), g == null ? '' : `≤ ${g}×`, verdict(rs[0]), floor, ...withA.map((r) => (store ? 'no hook: n/a' : ratio(r) || 'not run'))];
    }),
  ]),
];
if (traceRows.length) {
  out.push('', 'Where the milliseconds go (GIT_HANDOFF_TRACE, NODE_EXTRA_CA_CERTS unset; medians; cpu: the node process\'s own CPU in that phase):');
  out.push(...render([['phase', 'wall', 'cpu', 'runs'], ...traceRows.map((r) => [r.name.replace(/^trace · /, ''), fmt(r.measured), r.cpuMs == null ? '' : `${r.cpuMs.toFixed(1)} ms`, String(r.runs)])]));
}
process.stdout.write(out.join('\n') + '\n');
