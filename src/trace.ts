// GIT_HANDOFF_TRACE=<file>: where a run's milliseconds go (issue 39; bench/trace.mjs reads the lines). Off (the
// variable unset or empty), every call is one look at the variable: nothing is loaded, timed or written. On, the writer (src/trace-line.ts) comes from dist/load.cjs, the launcher's loader, so each bundle
// carries only this test; the other bundles are in the same directory (their __dirname).
const on = (): boolean => !!process.env.GIT_HANDOFF_TRACE;

/** Whether this run traces: callers that would time something only for the trace test this first. */
export const tracing = on;

/** Milliseconds since this process started (only called when tracing). */
export const traceNow = (): number => performance.now();

/** One phase line: `detail` a short text (a git command line), `ms` the duration of what it names. */
export function trace(phase: string, detail?: string, ms?: number): void {
  if (on()) (require(`${__dirname}/load.cjs`) as typeof import('./trace-line')).traceLine(phase, detail, ms);
}
