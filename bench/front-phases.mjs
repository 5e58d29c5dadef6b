#!/usr/bin/env node
// Where the sh front's time goes (issue 39): the wired hook command of an ordinary tool call, run as the client runs
// it, with copies of bin/git-handoff-guard that stop (`exit 0`) before each phase; a phase's cost is the difference
// between the copies that stop before and after it. The setting is bench/tool-call.mjs's (a session seen here, its
// lease fresh); each round starts with one call through the real front, so node refreshes the lease when it is due.
// Per call and phase: the CPU ms (user + system of the hook's processes, their mean over every run: what a busy
// machine's other work barely moves) and the least over the rounds of a batch's mean wall ms (the least: other work
// only adds); the whole hook's median wall beside it.
//   node bench/front-phases.mjs [--client claude|gemini|codex|qwen|copilot] [--runs N (batch)] [--rounds R] [--json]
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, childCpuMs, flags, median } from './lib.mjs';
import { CALLS, runsOf, wiredRepo } from './tool-call.mjs';

/** Each phase: its name and the line of the front it ends before (null: the front's end). */
export const PHASES = [
  ["the front read and its definitions (generated block, arguments)", /^\[ -n "\$held" \] \|\| take$/],
  ['the payload read (cat; none where bash read it)', /^case \$payload in/],
  ['the payload split into its keys', /^keys && if/],
  ['the event, session and cwd located', /^if \[ \$event = post \]/],
  ["a shell line's words (a file's call: none)", /^\tended && settled/],
  ["a shell line's lineage and lease; for a file, the file tools' definitions read", /^plain=\$common\/\$config_plain/],
  ["for a file, node's configuration summary and the places' links", /^case \$shape in$/],
  ['for a file, its targets (cd -P, locate)', /^stated \|\| full/],
  ['for a file, its one stat', /^settled \|\| full/],
  ['for a file, lineage and lease', /^! \[ -e "\$common\/\$claims_file" \]/],
  ['for a file, the claims file and the ledger append', null],
];

/** Copies of the front in `dir`: k = 0 stops at once, k ≥ 1 before PHASES[k - 1]'s end (the last: whole). */
function copies(dir) {
  const front = readFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), 'utf8').split('\n');
  const out = [];
  for (let k = 0; k <= PHASES.length; k++) {
    let text = '#!/bin/sh\nexit 0\n';
    if (k > 0) {
      const re = PHASES[k - 1][1];
      const at = re ? front.findIndex((l) => re.test(l)) : front.length;
      if (at < 0) throw new Error(`front-phases: no line of the front matches ${re}`);
      text = [...front.slice(0, at), 'exit 0', ...front.slice(at)].join('\n');
    }
    const bin = path.join(dir, `v${k}`, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'git-handoff-guard'), text);
    chmodSync(path.join(bin, 'git-handoff-guard'), 0o755);
    out.push(path.join(bin, 'git-handoff-guard'));
  }
  return out;
}

export function frontPhases({ client = 'claude', runs = 20, rounds = 7 } = {}) {
  const w = wiredRepo(client);
  try {
    const fronts = copies(path.join(w.repo.root, 'phases'));
    const rows = [];
    for (const call of CALLS.slice(0, 4)) {
      const { pre, post } = runsOf(w, client, call);
      const hooks = [...pre, ...post].filter(([cmd]) => cmd.includes('git-handoff-guard'));
      const hook = (cmd, input, env) => spawnSync(w.shell, [...w.args, cmd], { cwd: w.repo.dir, env: { ...w.env, ...env }, input });
      const wall = fronts.map(() => []);
      const cpu = fronts.map(() => 0);
      for (let r = 0; r < rounds; r++) {
        for (const [cmd, input, env] of hooks) hook(cmd, input, env);
        fronts.forEach((f, k) => {
          // the copy in place of the front, and of the names Claude Code's wiring reads the front in by from PATH
          // (git-handoff-front, -split: else `.` would read PATH's front, whatever the copy)
          const wired = hooks.map(([cmd, input, env]) => [cmd.replace(/git-handoff-(?:guard|front-split|front)\b/g, `"${f}"`), input, env]);
          const c0 = childCpuMs();
          const t0 = process.hrtime.bigint();
          for (let i = 0; i < runs; i++) for (const [cmd, input, env] of wired) hook(cmd, input, env);
          wall[k].push(Number(process.hrtime.bigint() - t0) / 1e6 / runs);
          cpu[k] += (childCpuMs() - c0) / runs / rounds;
        });
      }
      const least = wall.map((xs) => Math.min(...xs));
      rows.push({
        call: call.name,
        total: { wall: least.at(-1), median: median(wall.at(-1)), cpu: cpu.at(-1) },
        start: { wall: least[0], cpu: cpu[0] },
        phases: PHASES.map(([name], k) => ({ name, wall: least[k + 1] - least[k], cpu: cpu[k + 1] - cpu[k] })),
      });
    }
    return rows;
  } finally {
    w.repo.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  const rows = frontPhases({ client: f.client ? String(f.client) : 'claude', runs: Number(f.runs ?? 20), rounds: Number(f.rounds ?? 7) });
  if (f.json) process.stdout.write(JSON.stringify(rows) + '\n');
  else {
    const cell = (x) => `${x.cpu.toFixed(2)} / ${x.wall.toFixed(2)}`;
    const out = [`| phase (CPU / least wall, ms) | ${rows.map((r) => r.call).join(' | ')} |`, `|---|${rows.map(() => '---').join('|')}|`];
    out.push(`| the client's shell, an empty front (\`exit 0\`) | ${rows.map((r) => cell(r.start)).join(' | ')} |`);
    PHASES.forEach(([name], k) => out.push(`| ${name} | ${rows.map((r) => cell(r.phases[k])).join(' | ')} |`));
    out.push(`| whole hook (CPU / least wall; median wall) | ${rows.map((r) => `${cell(r.total)}; ${r.total.median.toFixed(2)}`).join(' | ')} |`);
    process.stdout.write(out.join('\n') + '\n');
  }
}
