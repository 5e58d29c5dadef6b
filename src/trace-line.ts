// The writer of GIT_HANDOFF_TRACE (src/trace.ts): exported by dist/load.cjs alone, so the other bundles carry only
// the test of the variable. Where a run's milliseconds go (issue 39): each node process of git-handoff appends one
// JSON line per phase to the file: `t` ms since that process started (node's time origin), `at` the wall clock in
// ms, `cpu` its own CPU time so far, `faults` its minor page faults so far (the pages it touched first: each one the
// kernel maps, about 15 µs on the machine docs/benchmarks.md measures on), the phase, and for a git process its
// command line and how long it took. bench/trace.mjs reads the lines and prints the phases of `write`, `show`, `list`
// and the guard's node path.
import { appendFileSync } from 'node:fs';

const traceFile = (): string => process.env.GIT_HANDOFF_TRACE || '';

// one start line and one exit line per process, whichever of its bundles (load.cjs, cli.cjs, …) traces first
const STARTED = Symbol.for('git-handoff.trace.started');

/** One phase line: `detail` a short text (a git command line), `ms` the duration of what it names. */
export function traceLine(phase: string, detail?: string, ms?: number): void {
  const file = traceFile();
  if (!file) return;
  const g = globalThis as { [STARTED]?: boolean };
  if (!g[STARTED]) {
    g[STARTED] = true;
    // the process's own start and end: the first line carries its command line
    write('start', process.argv.slice(2).join(' ').slice(0, 200), undefined, 0, 0, 0);
    process.once('exit', () => write('exit'));
  }
  write(phase, detail, ms);
}

function write(phase: string, detail?: string, ms?: number, t = performance.now(), cpu?: number, faults = process.resourceUsage().minorPageFault): void {
  // cpu: this process's own CPU time so far (user + system, ms), which machine load moves far less than `t`
  const c = cpu === undefined ? process.cpuUsage() : null;
  const line: Record<string, unknown> = { pid: process.pid, t, at: performance.timeOrigin + t, cpu: c ? (c.user + c.system) / 1000 : cpu, faults, phase };
  if (detail !== undefined) line.detail = detail;
  if (ms !== undefined) line.ms = ms;
  try {
    appendFileSync(traceFile(), `${JSON.stringify(line)}\n`);
  } catch {
    // a trace is a measurement: it never fails the command it watches
  }
}
