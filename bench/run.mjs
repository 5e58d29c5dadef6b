#!/usr/bin/env node
// `npm run bench`: every row of issue 7, each against its baseline timed in the same run, as one table.
//   node bench/run.mjs [--runs N] [--only calls,guard,store,list,commit,record,claims] [--json]
import { execSync } from 'node:child_process';
import os from 'node:os';
import { benchClaims } from './claims.mjs';
import { benchCommit } from './commit.mjs';
import { benchGuardRows } from './guard.mjs';
import { fmt, flags } from './lib.mjs';
import { benchList } from './list.mjs';
import { benchRecord } from './record.mjs';
import { benchStore } from './store.mjs';
import { benchToolCalls } from './tool-call.mjs';

const f = flags();
const only = f.only ? String(f.only).split(',') : ['calls', 'guard', 'store', 'list', 'commit', 'record', 'claims'];
const runs = f.runs;
const machine = {
  date: new Date().toISOString(),
  cpu: `${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}`,
  node: process.version,
  git: execSync('git --version', { encoding: 'utf8' }).trim(),
  loadBefore: os.loadavg().map((l) => l.toFixed(2)).join(' '),
  // node reads and parses this whole file at every start, `node -e ''` included: a system bundle is most of a
  // node start, so it moves every ratio against that baseline (the guard's own node starts without it)
  extraCaCerts: process.env.NODE_EXTRA_CA_CERTS || null,
};
const rows = [];
const parts = { calls: () => benchToolCalls({ runs }), guard: () => benchGuardRows({ runs }), store: () => benchStore({ runs }), list: () => benchList({ runs }), commit: () => benchCommit({ runs }), record: () => benchRecord({ runs }), claims: () => benchClaims({ runs }) };
for (const name of only) {
  if (!parts[name]) throw new Error(`unknown part ${name}: use ${Object.keys(parts).join(',')}`);
  rows.push(...parts[name]());
}
machine.loadAfter = os.loadavg().map((l) => l.toFixed(2)).join(' ');

if (f.json) {
  process.stdout.write(JSON.stringify({ machine, rows }, null, 2) + '\n');
} else {
  const ratio = (r) => (r.ratio == null ? '' : `${r.ratio.toFixed(2)}×`);
  const goal = (r) => (r.goal == null ? '' : `≤ ${r.goal}${r.unit ?? '×'}`);
  const verdict = (r) => (r.met == null ? (r.measured == null && r.goal != null ? 'n/a' : '') : r.met ? 'met' : 'MISSED');
  const cpu = (r) => (r.cpu?.ratio == null ? '' : `${r.cpu.ratio.toFixed(2)}×`);
  const table = [
    ['measured', 'time', 'baseline', 'ratio', 'goal', '', 'cpu ratio', 'runs'],
    ...rows.map((r) => [r.name, r.measured == null ? '—' : fmt(r.measured, r.unit), r.baseline == null ? '—' : fmt(r.baseline), ratio(r), goal(r), verdict(r), cpu(r), r.runs ? String(r.runs) : '']),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((t) => [...t[i]].length)));
  const line = (t) => '| ' + t.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join(' | ') + ' |';
  const out = [
    `git-handoff bench — ${machine.date} — ${machine.cpu} — node ${machine.node} — ${machine.git} — load ${machine.loadBefore} → ${machine.loadAfter}`,
    `NODE_EXTRA_CA_CERTS: ${machine.extraCaCerts ? `${machine.extraCaCerts} (read by every node start, the baseline's included; not by the guard's)` : 'not set'}`,
    'time: medians of wall time; baselines timed in the same run, interleaved with the measured command.',
    'cpu ratio: mean CPU time (user + system of the whole process tree) against the baseline\'s, which machine load barely moves.',
    line(table[0]),
    '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
    ...table.slice(1).map(line),
    '',
    ...rows.filter((r) => r.note).map((r) => `${r.name}: ${r.note}`),
  ];
  process.stdout.write(out.join('\n') + '\n');
}
