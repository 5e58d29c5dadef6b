#!/usr/bin/env node
// The floors of issue 39's rows: for each, the least any implementation of what the row must do costs, started the
// way the row's own command is started and timed against the same `node -e ''`, so a goal can be read against
// what is reachable at all on this machine.
// - A tool call (Claude Code's rows): its hook started as Claude Code starts it (`/bin/sh -c`, the same payload on
//   stdin), doing only the I/O the decision cannot do without and no decision at all: the payload read as the
//   wiring must read it (Claude Code's Write group by `cat`: dash reads a pipe a byte a system call, so `read`
//   costs more past a few KB; the other group by `read`), for a file the one `stat` that gives its link count (the
//   hard-link rule) and the ledger's clock, and the ledger's one line; for a shell line the payload alone; for a call
//   node decides (a handoff file, a refused ref move) node's start and the payload parsed.
// - `write` / `show`: bench/floor-store.cjs through git's dispatch and a bin link, as the store rows run git-handoff:
//   a compare-and-swap write's git status, four objects and one update-ref (and, as a second row, with the loss
//   record's commit in the same transaction and its objects copied outside .git, as issues 23 and 36 require); a
//   show's tip read in-process and its git status.
//   node bench/floor.mjs [--runs N] [--json]
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, emit, flags, interleave, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';
import { BODY } from './store.mjs';
import { CALLS, runsOf, wiredRepo } from './tool-call.mjs';

const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The least hook command for one of Claude Code's calls: [command, what it does]. */
export function leastHook(call, dir, ledger) {
  const file = call.arg?.file ? path.join(dir, call.arg.file) : null;
  const stamp = file && `set -- $(stat -L -c '%h %.3Y' /proc/self ${q(file)}) && printf '{"t":%s}\\n' "$4" >>${q(ledger)}`;
  if (call.node) return [`NODE_EXTRA_CA_CERTS= exec node -e 'JSON.parse(require("fs").readFileSync(0, "utf8"))'`, 'node started, the payload parsed'];
  if (call.kind === 'shell') return ['IFS= read -r p || :', 'the payload read by `read`'];
  if (call.kind === 'write') return [`p=$(cat) && ${stamp}`, 'the payload by `cat`, one `stat`, one ledger line'];
  return [`{ IFS= read -r p || :; } && ${stamp}`, 'the payload by `read`, one `stat`, one ledger line'];
}

/** The tool-call floors: Claude Code's rows, each the least hook for its call. */
export function benchCallFloors({ runs } = {}) {
  const w = wiredRepo('claude');
  try {
    const ledger = path.join(w.repo.dir, '.git', 'bench-floor.jsonl');
    const rows = [];
    for (const call of CALLS) {
      if (call.name.includes('shared worktree')) continue;
      const { pre } = runsOf(w, 'claude', call);
      const [cmd, what] = leastHook(call, w.repo.dir, ledger);
      const input = pre[0][1];
      const hook = () => timeSync(w.shell, [...w.args, cmd], { cwd: w.repo.dir, env: w.env, input }).ms;
      rows.push(row(`floor · Claude Code tool call: ${call.name}`, interleave(Number(runs ?? 21), hook, nodeFloor(w.repo.env)), null, `(the least hook: /bin/sh -c, ${what})`));
    }
    return rows;
  } finally {
    w.repo.cleanup();
  }
}

/** The store floors: bench/floor-store.cjs as `git handoff-floor …`, through a bin link on PATH. */
export function benchStoreFloors({ runs } = {}) {
  const repo = tempRepo('gh-bench-floor-');
  const bin = mkdtempSync(path.join(tmpdir(), 'gh-bench-floor-bin-'));
  try {
    const script = path.join(ROOT, 'bench', 'floor-store.cjs');
    chmodSync(script, 0o755);
    symlinkSync(script, path.join(bin, 'git-handoff-floor'));
    mkdirSync(path.join(repo.home, '.local', 'state'), { recursive: true });
    const env = { ...repo.env, PATH: `${bin}${path.delimiter}${repo.env.PATH}` };
    repo.git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'second']);
    let n = 0;
    const floor = (args, input = '') => timeSync('git', ['handoff-floor', ...args], { cwd: repo.dir, env, input }).ms;
    floor(['write', 'auth-refactor'], BODY(n++));
    floor(['write', 'record-kept', '--record'], BODY(n++));
    const node = nodeFloor(repo.env);
    return [
      row('floor · git handoff write (existing topic)', interleave(Number(runs ?? 11), () => floor(['write', 'auth-refactor'], BODY(n++)), node), null, '(bench/floor-store.cjs: git status, the tip read in-process, 4 objects, one update-ref --stdin)'),
      row('floor · git handoff write (existing topic), with the loss record', interleave(Number(runs ?? 11), () => floor(['write', 'record-kept', '--record'], BODY(n++)), node), null, "(the same, and the record's next commit in the transaction, its 3 objects copied outside .git)"),
      row('floor · git handoff show <topic>', interleave(Number(runs ?? 15), () => floor(['show', 'auth-refactor']), node), null, '(bench/floor-store.cjs: the tip, its tree and body read in-process, git status)'),
    ];
  } finally {
    rmSync(bin, { recursive: true, force: true });
    repo.cleanup();
  }
}

export const benchFloors = ({ runs } = {}) => [...benchCallFloors({ runs }), ...benchStoreFloors({ runs })];

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchFloors({ runs: f.runs }), f.json);
}
