// What the scanner bundle uses instead of secretlint's profiler and the debug package: both only observe
// (performance marks, DEBUG= logging), and loading them cost more than the scan itself (perf_hooks, tty).
export const secretLintProfiler = { mark(_marker: unknown): void {} };
const debug = (_ns: string) => (..._args: unknown[]): void => {};
export default debug;
