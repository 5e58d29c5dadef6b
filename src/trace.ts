// GIT_HANDOFF_TRACE=<file>: where a run's milliseconds go (bench/trace.mjs reads the lines). Each node process appends
// one JSON line per phase: `t` ms since node's time origin, `at` the wall clock, `cpu` its own CPU time so far, `faults`
// its minor page faults so far (the pages it touched first), the phase, and for a git process its command line and
// how long it took. Off (the variable unset or empty), every call is one look at the variable.
import { appendFileSync } from 'node:fs';

const traceFile = (): string => process.env.GIT_HANDOFF_TRACE || '';

/** Whether this run traces: callers that would time something only for the trace test this first. */
export const tracing = (): boolean => !!traceFile();

// one start line and one exit line per process, whichever of its bundles (guard.cjs, fast.cjs, …) traces first
const STARTED = Symbol.for('git-handoff.trace.started');

/** One phase line: `detail` a short text (a git command line), `ms` the duration of what it names. */
export function trace(phase: string, detail?: string, ms?: number): void {
  if (!tracing()) return;
  const g = globalThis as { [STARTED]?: boolean };
  if (!g[STARTED]) {
    g[STARTED] = true;
    // the first line carries the command line
    write('start', process.argv.slice(2).join(' ').slice(0, 200), undefined, 0, 0, 0);
    process.once('exit', () => write('exit'));
  }
  write(phase, detail, ms);
}

function write(phase: string, detail?: string, ms?: number, t = performance.now(), cpu?: number, faults = process.resourceUsage().minorPageFault): void {
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
