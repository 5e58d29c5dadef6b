#!/usr/bin/env node
// `npm run bench`: every row, each against its baseline timed in the same run, in both environments (issue 39):
// NODE_EXTRA_CA_CERTS unset, where the goals are judged, and set (every node start, the baseline's too, reads the
// bundle: the flattering ratios). Then the goals' table (issues 39 and 52: its rows, both environments, each goal
// against node, the row's floor or empty hook stubs), and the trace (bench/trace.mjs): where the milliseconds of
// write, show, list and the guard's node path go.
//   node bench/run.mjs [--runs N] [--only calls,start,floor,guard,store,list,commit,record,claims,trace,witness,status,sync,sync100k,scale,refhooks] [--client claude,codex,…] [--env both|unset|set] [--before <another build's bin/git-handoff>: its agent's commit beside this one's] [--json]
// Part `floor` (bench/floor.mjs): the least any implementation of a row of the goals' table costs, beside the row.
// Part `sync` (bench/sync.mjs): sync at 100, 1,000 and 10,000 handoffs beside git's own fetch and push of the same refs,
// and the pushes a claim starts; `sync100k` the same at 100,000 (minutes: not in the default run).
// Part `scale` (bench/scale.mjs, minutes, named only): list, status, claims and the session start at 100,000 handoffs
// with 1,000 archive entries of one topic, beside their floors and the same commands at 1,000.
// Part `refhooks` (bench/ref-hooks.mjs, minutes, named only): gc of 1,000 archive entries and a plain fetch of 1,000
// handoffs with the git hooks installed, beside the same without them.
import { benchRefHooks } from './ref-hooks.mjs';
import { benchScale } from './scale.mjs';
import { benchStart } from './start.mjs';
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
import { benchStatus } from './status.mjs';
import { benchStore } from './store.mjs';
import { benchToolCalls } from './tool-call.mjs';
import { benchTrace } from './trace.mjs';
import { benchWitness } from './witness.mjs';
import { benchClaimPushes, benchSync } from './sync.mjs';

const f = flags();
const ALL = ['calls', 'start', 'floor', 'guard', 'store', 'list', 'commit', 'record', 'claims', 'trace', 'witness', 'status', 'sync'];
// parts run only when named (--only): minutes long
const NAMED = ['sync100k', 'scale', 'refhooks'];
const only = f.only ? String(f.only).split(',') : ALL;
for (const name of only) if (![...ALL, ...NAMED].includes(name)) throw new Error(`unknown part ${name}: use ${[...ALL, ...NAMED].join(',')}`);
const runs = f.runs;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** The rows of the parts asked for, measured in this process's environment. */
async function measure(parts) {
  const fns = { calls: () => benchToolCalls({ runs, clients: f.client ? String(f.client).split(',') : undefined }), start: () => benchStart({ runs }), floor: () => benchFloors({ runs }), guard: () => benchGuardRows({ runs }), store: () => benchStore({ runs }), list: () => benchList({ runs }), commit: () => benchCommit({ runs, before: f.before }), record: () => benchRecord({ runs }), claims: () => benchClaims({ runs }), trace: () => benchTrace({ runs }), witness: () => benchWitness({ runs }), status: () => benchStatus({ runs }), sync: () => [...benchSync({ runs }), ...benchClaimPushes()], sync100k: () => benchSync({ runs: runs ?? 3, sizes: [100000] }), scale: () => benchScale({ runs }), refhooks: () => benchRefHooks({ runs }) };
  const rows = [];
  // a part may answer a promise (status: it starts a server and asks it)
  for (const name of parts) rows.push(...(await fns[name]()));
  return rows;
}

// a child run: one environment, rows as JSON (the parent sets or clears the variable)
if (f.child) {
  const loadBefore = load();
  const rows = await measure(only);
  process.stdout.write(JSON.stringify({ loadBefore, rows, loadAfter: load() }) + '\n');
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
  const args = [fileURLToPath(import.meta.url), '--child', '--only', parts.join(','), ...(runs ? ['--runs', String(runs)] : []), ...(f.client ? ['--client', String(f.client)] : []), ...(f.before ? ['--before', String(f.before)] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'] }));
}

const machine = {
  date: new Date().toISOString(),
  cpu: `${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}`,
  node: process.version,
  git: execSync('git --version', { encoding: 'utf8' }).trim(),
  nodeExtraCaCerts: CA,
  // what a file created costs where the repositories are, before the rows: the store rows pay it (a write creates about
  // fifteen) and node -e '' does not; another process writing to the same disk can make it forty times dearer
  files: fileCosts(),
};
// the trace is measured once, unset (its phases, not ratios)
const measured = only.filter((p) => p !== 'trace');
const results = {};
for (const e of envs) results[e] = measured.length ? inEnv(e, measured) : { rows: [], loadBefore: load(), loadAfter: load() };
const traceRows = only.includes('trace') ? inEnv('unset', ['trace']).rows : [];

// the goals' table: issue 39's and 52's rows, by the names the parts give them (Claude Code's calls, all hooks), each
// goal against `node` (node -e ''), the row's `floor` (bench/floor.mjs) or its own baseline (`base`: empty hook stubs,
// raw for-each-ref)
const ISSUE = [
  ['ordinary Write of a source file, all hooks', 'Claude Code tool call: Write of an ordinary source file', 1.3, 'floor'],
  ['ordinary Edit', 'Claude Code tool call: Edit of an ordinary source file', 1.3, 'floor'],
  ['Bash `npm test`', 'Claude Code tool call: Bash `npm test`', 1.3, 'floor'],
  ['Bash `ls -la`', 'Claude Code tool call: Bash `ls -la`', 1.3, 'floor'],
  ['Bash `cat README.md`', 'Claude Code tool call: Bash `cat README.md`', 1.3, 'floor'],
  ["this session's own protected handoff file (node's)", 'Claude Code tool call: Write of its own protected handoff file', 1.5, 'node'],
  ["an edit of this session's own handoff file (node's)", 'Claude Code tool call: Edit of its own protected handoff file', 1.5, 'node'],
  ['Bash `git commit -m x` in a shared worktree (node\'s)', 'Claude Code tool call: Bash `git commit -m x` in a shared worktree', 1.5, 'node'],
  ['a refused handoff ref move (node\'s)', 'Claude Code tool call: Bash `git update-ref refs/handoffs/…` (refused)', 1.5, 'node'],
  ["a person's commit with hooks vs empty stubs", 'git commit by a person, hooks installed', 1.5, 'base'],
  ["an agent's commit with hooks vs empty stubs", 'git commit by an agent session, hooks installed', 3, 'base', "floor · an agent's commit: empty stubs, prepare-commit-msg `node -e ''`"],
  ['`write` (CAS, existing topic) vs node', 'git handoff write (existing topic)', 2.0, 'node', 'floor · git handoff write (existing topic), with the loss record'],
  ['`show` vs node', 'git handoff show <topic>', 1.6, 'node'],
  ['`write` with the git hooks installed (what `install` leaves)', 'git handoff write (existing topic), git hooks installed', 2.0, 'node', 'floor · git handoff write (existing topic), with the loss record'],
  ['`list --all --json`, 10,000 handoffs, vs node + for-each-ref', 'git handoff list --all --json, 10,000 handoffs / 100 branches', 1.5, 'base'],
  ["the same with nothing kept (the first `list --all` after an upgrade, or after more than 64 refs moved)", '  the same, nothing kept (every field read from git)', null, 'base'],
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
  return [n, ...rs.flatMap((r) => [time(r), r?.baseline == null ? '—' : fmt(r.baseline, r.unit), ratio(r), cpu(r)]), goal(rs[0] ?? rs[1]), verdict(rs[0]), String((rs[0] ?? rs[1])?.runs ?? '')];
});
const out = [
  `git-handoff bench — ${machine.date} — ${machine.cpu} — node ${machine.node} — ${machine.git}`,
  ...envs.map((e) => `load (${e} run): ${results[e].loadBefore} → ${results[e].loadAfter}`),
  `NODE_EXTRA_CA_CERTS: unset, and set to ${CA ?? '(no bundle found)'} (read by every node start, the baseline's included; not by the guard's); goals are judged ${judged}.`,
  `a file created in ${machine.files.dir} (and written, 200 bytes), median of 200 before the rows: ${machine.files.create.toFixed(3)} ms (rewritten in place: ${machine.files.rewrite.toFixed(3)} ms); a store write creates about fifteen.`,
  'time: medians of wall time; baselines timed in the same run, interleaved with the measured command.',
  "cpu ratio: mean CPU time (user + system of the whole process tree) against the baseline's, which machine load barely moves.",
  '',
  ...render([head, ...body]),
  '',
  ...envs.flatMap((e) => results[e].rows.filter((r) => r.note).map((r) => `${r.name}: ${r.note}`).filter((v, i, a) => e === envs[0] || !a.includes(v))),
  '',
  "The goals' table (issues 39 and 52; Claude Code's calls, all hooks; goals judged with NODE_EXTRA_CA_CERTS unset): each row's ratio",
  `against node -e '', its floor's (bench/floor.mjs: what the row must read, write and start, and no decision; ${judged}), and the goal's measure:`,
  "against the floor for a call the sh front ends, against node for one node decides, against the row's own baseline for the rest:",
  ...render([
    ['row', ...envs.flatMap((e) => [`vs node (${e})`, `cpu (${e})`]), `floor (${judged})`, `vs floor (${judged})`, 'goal', 'verdict'],
    ...ISSUE.map(([label, name, g, against, floorName]) => {
      const rs = rowsOf.map((m) => m.get(name));
      const fl = rowsOf[0].get(floorName ?? `floor · ${name}`);
      // the row's own floor timed in its rounds where it has one (bench/tool-call.mjs), else the floor part's row
      const overFloor = rs[0]?.vsFloor?.ratio ?? (rs[0]?.ratio != null && fl?.ratio != null ? rs[0].ratio / fl.ratio : null);
      const measure = against === 'floor' ? overFloor : rs[0]?.ratio ?? null;
      const v = g == null ? '' : measure == null ? 'not run' : measure <= g ? 'met' : 'MISSED';
      const unit = { floor: '× its floor', node: "× node -e ''", base: '× its baseline' }[against];
      const own = rs[0]?.vsFloor;
      const floorCell = own ? `${own.floorVsNode.toFixed(2)}×` : ratio(fl) || '—';
      const overCell = overFloor == null ? '—' : `${overFloor.toFixed(2)}×${own?.cpu?.ratio != null ? ` (cpu ${own.cpu.ratio.toFixed(2)}×)` : ''}`;
      return [label, ...rs.flatMap((r) => [ratio(r) || '—', cpu(r) || '—']), floorCell, overCell, g == null ? '' : `≤ ${g}${unit}`, v];
    }),
  ]),
];
if (traceRows.length) {
  out.push('', 'Where the milliseconds go (GIT_HANDOFF_TRACE, NODE_EXTRA_CA_CERTS unset; medians; cpu: the node process\'s own CPU in that phase; faults: the pages it touched first there):');
  out.push(...render([['phase', 'wall', 'cpu', 'faults', 'runs'], ...traceRows.map((r) => [r.name.replace(/^trace · /, ''), fmt(r.measured), r.cpuMs == null ? '' : `${r.cpuMs.toFixed(1)} ms`, r.faults == null ? '' : String(r.faults), String(r.runs)])]));
}
process.stdout.write(out.join('\n') + '\n');
