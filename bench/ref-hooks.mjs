#!/usr/bin/env node
// What the reference-transaction hook adds to the moves of many refs at once (issue 72), each beside the same command
// without the hooks, timed in the same run on a fresh copy of one prepared repository per run:
//   - `git handoff gc` pruning N archive entries past retention, hooks installed (the stub alone: gc's own deletions go
//     without it), and with a chained hook (git runs the stub, which starts node once for the whole transaction);
//   - a plain `git fetch` of N new handoffs into the tracking refs `install --remote` adds, hooks installed, and with
//     empty stubs (`exit 0`): git 2.39 runs any reference-transaction hook twice per ref of a fetch without --atomic,
//     so the empty stub is the floor of every hook there.
//   node bench/ref-hooks.mjs [--runs N] [--size 1000] [--json]
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateHandoffs } from './gen-repo.mjs';
import { BIN, emit, flags, interleaveMany, row, tempRepo, timeSync } from './lib.mjs';

const HOOKS = ['prepare-commit-msg', 'commit-msg', 'pre-commit', 'pre-push', 'reference-transaction'];

/** The built CLI in `dir`, failing loudly. */
const cli = (r, args, cwd = r.dir) => timeSync(BIN, args, { cwd, env: r.env });

/** N topics with two archive entries each, the older past the default retention (90 days, the newest kept), hooks installed. */
function gcTemplate(n) {
  const r = tempRepo('gh-bench-refhooks-gc-');
  generateHandoffs(r, { handoffs: n, branches: 1 });
  const lines = r.git(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/handoffs/']).stdout.trim().split('\n').flatMap((l) => {
    const [oid, ref] = l.split(' ');
    const entry = (seconds) => `create ${ref.replace('refs/handoffs/', 'refs/handoff-archive/')}/${seconds}-${oid.slice(0, 12)} ${oid}`;
    return [entry(1_700_000_000), entry(1_700_000_100), `delete ${ref} ${oid}`];
  });
  r.git(['update-ref', '--stdin'], { input: lines.join('\n') + '\n' });
  cli(r, ['install', '--hooks']);
  // the loss record takes the entries in once, so each run's gc starts from a record that holds them
  cli(r, ['list', '--archived']);
  return r;
}

/** An origin holding N handoffs and a clone of it with `install --remote origin --hooks`, nothing of them fetched yet. */
function fetchTemplate(n) {
  const r = tempRepo('gh-bench-refhooks-fetch-');
  generateHandoffs(r, { handoffs: n, branches: Math.min(100, n) });
  const clone = path.join(r.root, 'clone');
  r.git(['clone', '-q', r.dir, clone]);
  cli(r, ['install', '--remote', 'origin', '--hooks'], clone);
  return { r, clone };
}

/** Hooks in a copy: none, git-handoff's stubs with a chained hook beside the reference-transaction one, or empty stubs. */
function setHooks(hooksDir, kind) {
  if (kind === 'none') for (const h of HOOKS) rmSync(path.join(hooksDir, h), { force: true });
  if (kind === 'chained') writeFileSync(path.join(hooksDir, 'reference-transaction.handoff-chained'), '#!/bin/sh\ncat >/dev/null\n', { mode: 0o755 });
  if (kind === 'empty') for (const h of HOOKS) writeFileSync(path.join(hooksDir, h), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}

/** Milliseconds of `command` run in a fresh copy of `root` with its hooks set to `kind` (the copy is not timed). */
function onCopy(root, gitDir, kind, command) {
  return () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'gh-bench-refhooks-run-'));
    try {
      cpSync(root, copy, { recursive: true });
      const at = (p) => path.join(copy, path.relative(root, p));
      setHooks(path.join(at(gitDir), 'hooks'), kind);
      return command(at);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  };
}

export function benchRefHooks({ runs, size = 1000 } = {}) {
  const n = Number(runs ?? 3);
  const label = size.toLocaleString('en-US');
  const rows = [];
  const g = gcTemplate(size);
  try {
    const gc = (kind) => onCopy(g.root, path.join(g.dir, '.git'), kind, (at) => timeSync(BIN, ['gc'], { cwd: at(g.dir), env: { ...g.env, HOME: at(g.home), XDG_CONFIG_HOME: path.join(at(g.home), '.config') } }).ms);
    const t = interleaveMany(n, [gc('none'), gc('stub'), gc('chained')], 1);
    rows.push(row(`ref hooks · git handoff gc of ${label} archive entries, hooks installed, vs no hooks`, t.vs(1), 1.5));
    rows.push(row(`ref hooks · the same with a chained reference-transaction hook (node once for the transaction) vs no hooks`, t.vs(2), null));
  } finally {
    g.cleanup();
  }
  const f = fetchTemplate(size);
  try {
    const fetch = (kind) => onCopy(f.r.root, path.join(f.clone, '.git'), kind, (at) => timeSync('git', ['fetch', '-q', 'origin'], { cwd: at(f.clone), env: { ...f.r.env, HOME: at(f.r.home) } }).ms);
    const t = interleaveMany(n, [fetch('none'), fetch('empty'), fetch('stub')], 1);
    rows.push(row(`ref hooks · plain git fetch of ${label} new handoffs, hooks installed, vs no hooks`, t.vs(2), 1.5));
    rows.push(row(`ref hooks · the same, hooks installed vs empty stubs (exit 0: git runs a hook twice per fetched ref)`, t.vs(2, 1), 1.5));
  } finally {
    f.r.cleanup();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  emit(benchRefHooks({ runs: f.runs, size: f.size ? Number(f.size) : undefined }), f.json);
}
