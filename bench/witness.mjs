#!/usr/bin/env node
// The witness outside .git (issue 36): what it costs per write and how big it grows. `git handoff write` to an
// existing topic with the witness (the default) against the same write with it off (GIT_HANDOFF_WITNESS=0), each in
// a repository of its own that always writes so, interleaved in one run; the row is the time the witness adds (median
// against median) with the CPU beside it. (Until the sixteenth session of issue 39 both wrote to one repository: each
// write with the witness then found it one write behind, caught it up and ran the record's full check at its start,
// so the row showed ~19 ms where a witness kept up costs a few.) A second row is the witness's size on disk per write
// after those writes (loose, before any gc --auto).
//   node bench/witness.mjs [--runs N] [--json]
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { emit, flags, interleave, tempRepo, timeSync } from './lib.mjs';
import { BODY, viaGit } from './store.mjs';

/** Bytes on disk (allocated blocks) under `dir`. */
function diskBytes(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? diskBytes(p) : statSync(p).blocks * 512;
  }
  return n;
}

export function benchWitness({ runs } = {}) {
  const on = tempRepo();
  const off = tempRepo();
  try {
    const envOf = (repo, extra = {}) => ({ ...viaGit(repo.env), GIT_HANDOFF_SESSION: 'bench-session', XDG_STATE_HOME: path.join(repo.home, '.local', 'state'), ...extra });
    const witnessHome = path.join(envOf(on).XDG_STATE_HOME, 'git-handoff', 'witness');
    let n = 0;
    let writes = 0;
    const write = (repo, extra) => timeSync('git', ['handoff', 'write', 'auth-refactor', '-F', '-'], { cwd: repo.dir, env: envOf(repo, extra), input: BODY(n++) }).ms;
    const withWitness = () => (writes++, write(on, {}));
    write(on, {});
    write(off, { GIT_HANDOFF_WITNESS: '0' });
    const before = diskBytes(witnessHome);
    const r = interleave(Number(runs ?? 11), withWitness, () => write(off, { GIT_HANDOFF_WITNESS: '0' }));
    const grown = diskBytes(witnessHome) - before;
    return [
      { name: 'witness: time added to git handoff write', measured: r.measured - r.baseline, baseline: r.baseline, ratio: r.ratio, goal: null, unit: ' ms', met: null, runs: r.runs, cpu: r.cpu, note: 'with the witness against GIT_HANDOFF_WITNESS=0, each in a repository of its own, interleaved' },
      { name: 'witness: disk per write (loose objects, 4 KiB blocks)', measured: grown / writes / 1024, baseline: null, ratio: null, goal: null, unit: ' KiB', met: null, runs: writes, cpu: null, note: `${writes} versions, each with its record commit` },
    ];
  } finally {
    on.cleanup();
    off.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchWitness({ runs: f.runs }), f.json);
}
