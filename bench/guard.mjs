#!/usr/bin/env node
// Guard rows of issue 7: one invocation of the node guard (`git-handoff guard --client=claude-code`, through
// `sh -c`, what the sh front hands a payload it cannot settle to) on one payload file against `node -e ''`,
// interleaved, medians, in a repository holding a protected handoff file owned by the payload's session.
// What a whole tool call costs through the wired front: bench/tool-call.mjs.
// The floor rows: bench/floor-hook.cjs, the least a node hook costs for the own-file decision's I/O, started as
// a client starts a hook (`sh -c`), against `node -e ''`; and the guard on that payload through the sh front, as
// Claude Code runs it, against that floor hook, so the table shows how far the guard is from any node hook.
//   node bench/guard.mjs --payload bench/payloads/read.json [--goal 1.10] [--runs N] [--json]
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, emit, flags, interleave, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

export const SESSION = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
export const GUARD_ROWS = [
  { name: 'git handoff guard, Read payload', payload: 'read.json', goal: 1.1 },
  { name: 'git handoff guard, Bash `npm test`', payload: 'bash-npm-test.json', goal: 1.12 },
  { name: 'git handoff guard, Write protected file (own marker)', payload: 'write-protected.json', goal: 1.15 },
];

const fill = (text, dir) => text.replaceAll('${CWD}', dir).replaceAll('${SESSION}', SESSION);

/** A repository wired for Claude Code, with the protected handoff file the Write payload targets. */
export function guardRepo() {
  const repo = tempRepo('gh-bench-guard-');
  const env = { ...viaGit(repo.env), CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_PROJECT_DIR: repo.dir };
  mkdirSync(path.join(repo.dir, 'memory'));
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), `<!-- claude-session: ${SESSION} -->\n# auth-refactor\n\nGoal: the old notes.\n`);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'handoff file']);
  const command = 'git-handoff guard --client=claude-code';
  return { repo, env, command };
}

/** Whether the guard is built: a raw `git update-ref -d` of a handoff ref must be denied. */
function guardWorks(g) {
  const probe = fill(readFileSync(path.join(ROOT, 'bench', 'payloads', 'deny-probe.json'), 'utf8'), g.repo.dir);
  const r = timeSync('sh', ['-c', g.command], { cwd: g.repo.dir, env: g.env, input: probe, allowFail: true });
  return /deny/.test(String(r.stdout));
}

const unavailable = (name, goal, note) => ({ name, measured: null, baseline: null, ratio: null, goal, met: null, runs: 0, note });

export function benchGuard({ payload, name, goal, runs } = {}) {
  const g = guardRepo();
  try {
    const label = name ?? `git handoff guard, ${path.basename(payload)}`;
    if (!guardWorks(g)) return [unavailable(label, goal, 'not available yet: `git handoff guard` does not deny a raw update-ref of a handoff ref')];
    const input = fill(readFileSync(path.resolve(payload), 'utf8'), g.repo.dir);
    const check = timeSync('sh', ['-c', g.command], { cwd: g.repo.dir, env: g.env, input, allowFail: true });
    const decision = check.status === 0 && !/deny/.test(String(check.stdout)) ? 'allowed' : `exit ${check.status}: ${String(check.stdout).slice(0, 120)}`;
    const guard = () => timeSync('sh', ['-c', g.command], { cwd: g.repo.dir, env: g.env, input, allowFail: true }).ms;
    const r = interleave(Number(runs ?? 21), guard, nodeFloor(g.repo.env));
    return [row(label, r, goal, `(${decision}; \`${g.command}\` via sh -c)`)];
  } finally {
    g.repo.cleanup();
  }
}

/** The floor hook and the guard through the sh front on the own-file payload, each against its baseline. */
export function benchFloor({ runs } = {}) {
  const g = guardRepo();
  try {
    const input = fill(readFileSync(path.join(ROOT, 'bench', 'payloads', 'write-protected.json'), 'utf8'), g.repo.dir);
    mkdirSync(path.join(g.repo.dir, '.git', 'bench-floor'));
    // started as the guard's node is (the front clears NODE_EXTRA_CA_CERTS: no TLS in a hook)
    const floorCmd = `NODE_EXTRA_CA_CERTS= exec node ${JSON.stringify(path.join(ROOT, 'bench', 'floor-hook.cjs'))}`;
    const front = 'git-handoff-guard --client=claude-code';
    const hook = (cmd) => () => timeSync('sh', ['-c', cmd], { cwd: g.repo.dir, env: g.env, input }).ms;
    const said = (cmd) => String(timeSync('sh', ['-c', cmd], { cwd: g.repo.dir, env: g.env, input }).stdout).trim();
    // the first run of the guard records the session (lineage, lease): later ones are the ordinary call
    const answers = [said(front), said(front), said(floorCmd)];
    if (answers[1] !== '' || answers[2] !== '{}') throw new Error(`floor rows: unexpected answers ${JSON.stringify(answers)}`);
    const n = Number(runs ?? 21);
    return [
      row('node hook floor: stdin, JSON.parse, stat + read the file, append a line, answer', interleave(n, hook(floorCmd), nodeFloor(g.repo.env)), null, '(bench/floor-hook.cjs via sh -c: the own-file decision\'s I/O in plain node, the least any node hook costs)'),
      row('  git-handoff-guard on its own handoff file, against the floor hook', interleave(n, hook(front), hook(floorCmd)), null, '(allowed; the sh front hands over to node, as Claude Code runs it; baseline: the floor hook)'),
    ];
  } finally {
    g.repo.cleanup();
  }
}

export function benchGuardRows({ runs } = {}) {
  return [...GUARD_ROWS.flatMap((r) => benchGuard({ payload: path.join(ROOT, 'bench', 'payloads', r.payload), name: r.name, goal: r.goal, runs })), ...benchFloor({ runs })];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  if (f.payload) emit(benchGuard({ payload: f.payload, goal: f.goal == null ? null : Number(f.goal), runs: f.runs }), f.json);
  else emit(benchGuardRows({ runs: f.runs }), f.json);
}
