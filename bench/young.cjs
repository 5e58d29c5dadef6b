// Preloaded into a hook's node by bench/tool-call.mjs (NODE_OPTIONS=--require): what that node's run allocated in
// V8's young generation and how many collections it met, written at exit as one JSON line to $GIT_HANDOFF_BENCH_YOUNG.
// A run that allocates more than node's start leaves free meets a scavenge (3 to 5 ms where docs/benchmarks.md measures).
const v8 = require('node:v8');
const { appendFileSync } = require('node:fs');

const file = process.env.GIT_HANDOFF_BENCH_YOUNG;
const young = () => {
  const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
  return { used: s.space_used_size, free: s.space_available_size };
};
if (file) {
  const start = young();
  const profiler = new v8.GCProfiler();
  profiler.start();
  process.once('exit', () => {
    const end = young();
    const gcs = profiler.stop()?.statistics ?? [];
    // what each collection emptied, added to what is in use at exit, is what the run allocated
    let allocated = end.used - start.used;
    let collections = 0;
    for (const g of gcs) {
      const at = (when) => when.heapSpaceStatistics.find((x) => x.spaceName === 'new_space')?.spaceUsedSize ?? 0;
      allocated += at(g.beforeGC) - at(g.afterGC);
      collections += 1;
    }
    appendFileSync(file, `${JSON.stringify({ allocated, room: start.free, collections, ms: gcs.reduce((s, g) => s + g.cost / 1000, 0) })}\n`);
  });
}
