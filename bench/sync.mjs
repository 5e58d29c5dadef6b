#!/usr/bin/env node
// Sync rows of issue 57: what `git handoff sync` costs at 100, 1,000 and 10,000 handoffs (part `sync`; 100,000 is part
// `sync100k`, minutes long), each beside its floor, the least git itself does for the same refs, timed in the same run:
//   - the first sync of a clone holding N handoffs (a push of every ref) against one `git push` of the same refs by
//     wildcard refspecs into an empty repository, and a new clone's first sync against one `git fetch` of them;
//   - a sync with nothing to do against `node -e ''` plus one `git fetch` of the same refspecs (nothing new);
//   - a sync after one handoff changed against `node -e ''` plus that fetch and a `git push` of one ref, and how many
//     refs the sync pushed;
//   - a sync after `changed` handoffs changed (half on the remote by another clone, half here) against one `git fetch`
//     plus one `git push` of the same refs by a plain clone of the same remote given the same changes;
// and the pushes a claim, a renewal, a release and a sync of an offline claim start (counted, a git on PATH logging them).
//   node bench/sync.mjs [--runs N] [--sizes 100,1000] [--changed 1000] [--json]
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateHandoffs, importVersions } from './gen-repo.mjs';
import { emit, flags, interleave, median, nodeFloor, row, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';

const SPECS = ['+refs/handoffs/*:refs/floor/handoffs/*', '+refs/handoff-archive/*:refs/floor/handoff-archive/*', '+refs/notes/handoff-reads*:refs/floor/notes/handoff-reads*', '+refs/claims/*:refs/floor/claims/*'];

/** A clone with `n` handoffs on min(100, n) branches, its bare remote (file://), and a second, empty clone of it. */
function world(n) {
  const a = tempRepo('gh-bench-sync-');
  const t0 = Date.now();
  generateHandoffs(a, { handoffs: n, branches: Math.min(100, n) });
  const generatedMs = Date.now() - t0;
  const bare = path.join(a.root, 'remote.git');
  a.git(['init', '-q', '--bare', bare]);
  a.git(['remote', 'add', 'origin', `file://${bare}`]);
  const b = path.join(a.root, 'clone-b');
  a.git(['init', '-q', '--initial-branch=main', b]);
  a.git(['remote', 'add', 'origin', `file://${bare}`], { cwd: b });
  return { a, bare, b, generatedMs };
}

export function benchSync({ runs, sizes = [100, 1000, 10000], changed } = {}) {
  const rows = [];
  for (const n of sizes) {
    const { a, bare, b, generatedMs } = world(n);
    try {
      // the owner of topic-0-notes on feature/Team-0 as bench/gen-repo.mjs writes it
      const env = { ...viaGit(a.env), GIT_HANDOFF_SESSION: 'bench-session-0' };
      const at = (cwd) => ({ cwd, env });
      const size = n.toLocaleString('en-US');
      const sync = (cwd = a.dir) => timeSync('git', ['handoff', 'sync'], at(cwd)).ms;
      const floor = nodeFloor(a.env);
      const fetchFloor = (cwd = a.dir) => timeSync('git', ['fetch', '-q', '--no-tags', 'origin', ...SPECS], at(cwd)).ms;

      // the first sync of every ref, once each way, beside git alone moving the same refs by wildcard refspecs
      const firstPush = sync();
      const empty = path.join(a.root, 'floor-remote.git');
      a.git(['init', '-q', '--bare', empty]);
      const pushFloor = timeSync('git', ['push', '-q', `file://${empty}`, 'refs/handoffs/*:refs/handoffs/*'], at(a.dir)).ms;
      rows.push(row(`sync · first sync of ${size} handoffs (pushes all) vs git push of them by wildcard`, { measured: firstPush, baseline: pushFloor, ratio: firstPush / pushFloor, runs: 1 }, null, `(generated in ${(generatedMs / 1000).toFixed(1)} s)`));
      const firstFetch = sync(b);
      const c = path.join(a.root, 'floor-clone');
      a.git(['init', '-q', c]);
      a.git(['remote', 'add', 'origin', `file://${bare}`], { cwd: c });
      const fetchAll = fetchFloor(c);
      rows.push(row(`sync · a new clone's first sync of ${size} (fetches all) vs git fetch of them`, { measured: firstFetch, baseline: fetchAll, ratio: firstFetch / fetchAll, runs: 1 }, null));

      // nothing to do
      fetchFloor();
      const idle = interleave(Number(runs ?? 7), () => sync(), () => floor() + fetchFloor());
      rows.push(row(`sync · nothing to do, ${size} handoffs vs node -e '' + git fetch of the same refs`, idle, null));

      // one handoff changed
      let v = 0;
      const topic = 'topic-0-notes';
      const branch = 'feature/Team-0';
      let pushed = [];
      const one = () => {
        timeSync('git', ['handoff', 'write', topic, '--branch', branch, '-m', `Goal: version ${v++}`], at(a.dir));
        const r = timeSync('git', ['handoff', 'sync', '--json'], at(a.dir));
        pushed.push(JSON.parse(String(r.stdout)).push.updates.filter((u) => u.status === 'pushed' && u.kind !== 'record').length);
        return r.ms;
      };
      let f = 0;
      const floorOne = () => {
        const oid = a.git(['commit-tree', 'HEAD^{tree}', '-m', `floor ${f++}`]).stdout.trim();
        a.git(['update-ref', 'refs/floor-change/x', oid]);
        return floor() + fetchFloor() + timeSync('git', ['push', '-q', '--force', 'origin', 'refs/floor-change/x:refs/floor-change/x'], at(a.dir)).ms;
      };
      const oneChanged = interleave(Number(runs ?? 7), one, floorOne);
      rows.push(row(`sync · one handoff changed, ${size} handoffs vs node -e '' + git fetch + git push of one ref`, oneChanged, null, `(refs pushed per sync: ${median(pushed)}, the loss record's ref aside)`));
      rows.push(manyChanged({ a, bare, env, n, changed: changed ?? Math.max(2, n / 10), runs: Number(runs ?? 5) }));
    } finally {
      a.cleanup();
    }
  }
  return rows;
}

/**
 * A sync after `changed` handoffs changed, half by another clone (pushed to the remote), half here, against a plain
 * clone of a twin remote given the same changes that fetches and pushes them with git alone. Each run changes other
 * versions; the changes here are told to the record first (`git handoff list`), as a write would.
 */
function manyChanged({ a, bare, env, n, changed, runs }) {
  const branches = Math.min(100, n);
  const half = Math.floor(changed / 2);
  // git alone, no hook of the product: the other clone, and the twin clone with its own copy of the remote
  const plain = (dir) => ({ dir, git: (args, o = {}) => a.git(['-c', 'core.hooksPath=/dev/null', ...args], { ...o, cwd: dir }) });
  const twinRemote = path.join(a.root, 'twin-remote.git');
  a.git(['push', '-q', 'origin', 'main']);
  a.git(['clone', '-q', '--mirror', bare, twinRemote]);
  const other = plain(path.join(a.root, 'other'));
  const twin = plain(path.join(a.root, 'twin'));
  for (const [c, url] of [[other, bare], [twin, twinRemote]]) {
    a.git(['clone', '-q', '-b', 'main', `file://${url}`, c.dir]);
    c.git(['fetch', '-q', 'origin', '+refs/handoffs/*:refs/handoffs/*']);
  }
  const twinFetch = () => timeSync('git', ['-c', 'core.hooksPath=/dev/null', 'fetch', '-q', '--no-tags', 'origin', ...SPECS], { cwd: twin.dir, env });
  twinFetch();
  let version = 0;
  const change = () => {
    version++;
    importVersions(other, { branches, from: 0, count: half, version });
    for (const url of [bare, twinRemote]) other.git(['push', '-q', `file://${url}`, 'refs/handoffs/*:refs/handoffs/*'], { allowFail: true });
    for (const c of [a, twin]) importVersions(c, { branches, from: Math.floor(n / 2), count: changed - half, version });
    timeSync('git', ['handoff', 'list', '--all'], { cwd: a.dir, env });
  };
  // the twin's push: the refs it changed go, the ones the remote is ahead on are refused by git without a transfer
  const floorRun = () => {
    const f = twinFetch();
    const p = timeSync('git', ['-c', 'core.hooksPath=/dev/null', 'push', '-q', 'origin', 'refs/handoffs/*:refs/handoffs/*'], { cwd: twin.dir, env, allowFail: true });
    return { ms: f.ms + p.ms, cpu: f.cpu + p.cpu };
  };
  const syncRun = () => timeSync('git', ['handoff', 'sync'], { cwd: a.dir, env });
  const ms = { sync: [], floor: [] };
  const cpu = { sync: 0, floor: 0 };
  const one = (key, fn) => {
    const r = fn();
    ms[key].push(r.ms);
    cpu[key] += r.cpu;
  };
  // a warm-up pair untimed, then each pair of runs after its own changes, in alternating order
  change();
  syncRun();
  floorRun();
  for (let i = 0; i < runs; i++) {
    change();
    if (i % 2) {
      one('sync', syncRun);
      one('floor', floorRun);
    } else {
      one('floor', floorRun);
      one('sync', syncRun);
    }
  }
  const r = { measured: median(ms.sync), baseline: median(ms.floor), runs, cpu: { measured: cpu.sync / runs, baseline: cpu.floor / runs, ratio: cpu.sync / cpu.floor } };
  return row(`sync · ${changed.toLocaleString('en-US')} handoffs changed (half there, half here), ${n.toLocaleString('en-US')} handoffs vs git fetch + git push of them`, { ...r, ratio: r.measured / r.baseline }, 1.5);
}

/** The pushes `claim`, a renewal, `release` and a sync of an offline claim start, counted by a git on PATH that logs them. */
export function benchClaimPushes() {
  const a = tempRepo('gh-bench-claim-pushes-');
  try {
    const bare = path.join(a.root, 'remote.git');
    a.git(['init', '-q', '--bare', bare]);
    a.git(['remote', 'add', 'origin', `file://${bare}`]);
    const bin = path.join(a.root, 'bin');
    const log = path.join(a.root, 'git.log');
    mkdirSync(bin);
    const real = timeSync('sh', ['-c', 'command -v git']).stdout.toString().trim();
    // git is started with -c options before the verb: a push to the remote is any call naming `push` and `origin`
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\ncase " $* " in *" push "*" origin "*) echo push >> '${log}';; esac\nexec '${real}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const env = { ...viaGit(a.env), GIT_HANDOFF_SESSION: 'bench-claims-1' };
    env.PATH = `${bin}:${env.PATH}`;
    const count = (args, prep) => {
      prep?.();
      writeFileSync(log, '');
      // git-handoff itself, not `git handoff`: git puts its exec path first on PATH for the commands it runs
      timeSync('git-handoff', args, { cwd: a.dir, env });
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    };
    const rowOf = (name, n) => ({ name, measured: n, baseline: null, ratio: null, goal: null, unit: ' pushes', met: null, runs: 1, note: '' });
    const out = [
      rowOf('pushes · claim (new)', count(['claim', 'src/auth/'])),
      rowOf('pushes · claim again (renewal)', count(['claim', 'src/auth/'])),
      rowOf('pushes · release', count(['release'])),
      rowOf('pushes · sync, nothing changed', count(['sync'])),
    ];
    a.git(['remote', 'set-url', 'origin', path.join(a.root, 'nowhere')]);
    timeSync('git-handoff', ['claim', 'docs/'], { cwd: a.dir, env });
    a.git(['remote', 'set-url', 'origin', `file://${bare}`]);
    out.push(rowOf('pushes · sync of an offline claim', count(['sync'])));
    return out;
  } finally {
    a.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  const sizes = f.sizes ? String(f.sizes).split(',').map(Number) : undefined;
  emit([...benchSync({ runs: f.runs, sizes, changed: f.changed && Number(f.changed) }), ...benchClaimPushes()], f.json);
}
