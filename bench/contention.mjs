#!/usr/bin/env node
// Contention (issue 8): 16 concurrent writers of 4 sessions on 8 topics for a bounded time, some taking over.
// Afterwards every accepted write is in its handoff's history (and nothing else is), every refusal is
// exit 3 or 4 with a message, every version keeps the ownership invariant, and `git fsck` is clean.
//   node bench/contention.mjs [--seconds 60] [--lanes 16] [--sessions 4] [--topics 8] [--json]
import { BIN, flags, run, tempRepo } from './lib.mjs';

const TOPICS = ['auth-refactor', 'login-redirect-loop', 'cache-layer', 'payment-retry', 'search-index', 'upload-limits', 'billing-export', 'queue-drain'];

export async function contend({ dir, env, seconds, lanes = 16, sessions = 4, topics = 8, takeoverRate = 0.1 }) {
  const deadline = Date.now() + seconds * 1000;
  const records = [];
  const lane = async (n) => {
    const session = `contender-${n % sessions}`;
    for (let i = 0; Date.now() < deadline; i++) {
      const topic = TOPICS[Math.floor(Math.random() * Math.min(topics, TOPICS.length))];
      const takeover = Math.random() < takeoverRate;
      const args = ['write', topic, '--json', '-m', `lane ${n} write ${i} by ${session}`];
      if (takeover) args.push('--take-over', '--reason', `lane ${n} takes over`);
      const r = await run(BIN, args, { cwd: dir, env: { ...env, GIT_HANDOFF_SESSION: session } });
      records.push({ lane: n, session, topic, takeover, code: r.code, stdout: r.stdout, stderr: r.stderr, ms: r.ms });
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, n) => lane(n)));
  return records;
}

/** Checks the outcome; returns the problems found (empty when every promise held) and counts. */
export function verify(repo, records) {
  const problems = [];
  const accepted = new Map();
  const counts = { writes: records.length, accepted: 0, owned: 0, concurrent: 0, takeovers: 0, other: 0 };
  for (const r of records) {
    if (r.code === 0) {
      let out;
      try {
        out = JSON.parse(r.stdout);
      } catch {
        problems.push(`accepted write printed no JSON: ${r.stdout.slice(0, 200)}`);
        continue;
      }
      counts.accepted++;
      if (out.takeover) counts.takeovers++;
      if (!accepted.has(out.ref)) accepted.set(out.ref, []);
      accepted.get(out.ref).push(out);
    } else if (r.code === 3 || r.code === 4) {
      counts[r.code === 3 ? 'owned' : 'concurrent']++;
      let err;
      try {
        err = JSON.parse(r.stdout).error;
      } catch {
        err = null;
      }
      if (!err || !err.message || !err.code) problems.push(`exit ${r.code} without an error message: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)}`);
    } else {
      counts.other++;
      problems.push(`exit ${r.code} (only 0, 3 and 4 are expected): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`);
    }
  }
  for (const [ref, outs] of accepted) {
    const log = repo.git(['log', '--format=%H%x1f%P%x1f%(trailers:key=Claude-Session-Id,valueonly)%x1f%(trailers:key=Handoff-Takeover-From,valueonly)%x1e', ref]).stdout;
    const commits = new Map();
    for (const entry of log.split('\x1e')) {
      const [oid, parents, session, from] = entry.trim().split('\x1f');
      if (oid) commits.set(oid, { parents: parents ? parents.split(' ') : [], session: session?.trim(), from: from?.trim() || null });
    }
    for (const o of outs) if (!commits.has(o.oid)) problems.push(`accepted write ${o.oid} is not in the history of ${ref}`);
    // compare-and-swap: no two accepted writes were built on the same previous version (no lost update)
    const previous = new Set();
    for (const o of outs) {
      if (previous.has(o.previous)) problems.push(`two accepted writes of ${ref} both replaced ${o.previous}`);
      previous.add(o.previous);
    }
    if (commits.size !== outs.length) problems.push(`${ref} has ${commits.size} versions but ${outs.length} writes were accepted`);
    for (const [oid, c] of commits) {
      if (c.parents.length > 1) problems.push(`${oid} is a merge`);
      const parent = c.parents[0] && commits.get(c.parents[0]);
      if (parent && parent.session !== c.session && c.from !== parent.session) {
        problems.push(`${oid} by ${c.session} extends ${parent.session}'s handoff without naming it in Handoff-Takeover-From`);
      }
    }
  }
  const fsck = repo.git(['fsck', '--full', '--strict', '--no-dangling'], { allowFail: true });
  if (fsck.status !== 0) problems.push(`git fsck: ${fsck.stdout}${fsck.stderr}`);
  return { problems, counts, refs: accepted.size };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = flags();
  const seconds = Number(f.seconds ?? 60);
  const repo = tempRepo('gh-contention-');
  try {
    const t0 = Date.now();
    const records = await contend({ dir: repo.dir, env: repo.env, seconds, lanes: Number(f.lanes ?? 16), sessions: Number(f.sessions ?? 4), topics: Number(f.topics ?? 8) });
    const elapsed = (Date.now() - t0) / 1000;
    const result = verify(repo, records);
    const summary = { seconds: elapsed, ...result.counts, refs: result.refs, problems: result.problems };
    if (f.json) process.stdout.write(JSON.stringify(summary) + '\n');
    else {
      const c = result.counts;
      process.stdout.write(
        `contention: ${elapsed.toFixed(1)} s, ${c.writes} writes: ${c.accepted} accepted (${c.takeovers} takeovers), ` +
          `${c.owned} refused as owned (exit 3), ${c.concurrent} lost the race (exit 4), ${c.other} other; ${result.refs} refs\n` +
          (result.problems.length ? `PROBLEMS:\n  ${result.problems.join('\n  ')}\n` : 'every accepted write is in history, every refusal is exit 3 or 4 with a message, fsck clean\n'),
      );
    }
    process.exitCode = result.problems.length ? 1 : 0;
  } finally {
    repo.cleanup();
  }
}
