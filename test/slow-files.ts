// The property, differential, fuzz and stress runs: each costs a minute or more of the suite on 2 cores, so they
// run apart, whole, as `npm run test:slow` (vitest.slow.config.ts), which CI (.ci/run) runs after `npm test`.
// Per-file costs measured for issue 27 are in docs/testing.md.
export const SLOW_TESTS = [
  'test/fuzz/**/*.test.ts', // the shell corpus through every client shape, random payloads, totality
  'test/guard/front.test.ts', // the sh front against the TypeScript guard, differential (property runs)
  'test/guard/shell.test.ts', // shell parsing properties
  'test/guard/attack5.test.ts', // issue 37's seven classes, ~100 calls each in six client shapes and through the real front
  'test/harden/trailers.test.ts', // trailer forging: properties, our parser against git's
  'test/harden/hostile-content.test.ts', // hostile bodies: properties end to end
  'test/harden/transaction-bounds.test.ts', // 520 commits of 1 MiB through the hook
  'test/harden/crash.test.ts', // SIGKILL at every point of a write
  'test/harden/contention.test.ts', // the contention bench, shortened
  'test/handoff/race.test.ts', // real processes racing on one ref
  'test/sync/upgrade.test.ts', // builds the commit 094717a from history and runs both builds on the same repositories
  'test/cli/readme-install.test.ts', // the README install: npm ci, npm link, npm pack, npm install -g
  'test/faults/kill-sync.test.ts', // 20 SIGKILLs of sync/fetch/push over file:// and smart HTTP, each followed by a sync
  'test/faults/crowd.test.ts', // 32 writers of one topic through the hooks, syncs and guard calls at once
  'test/claims/race-slow.test.ts', // claim races, 12 rounds per transport in CI (CLAIM_RACE_ROUNDS=200 for issue 38's full run): 3 clones × 4 sessions over file://, git daemon, smart HTTP
  'test/faults/full-disk-levels.test.ts', // 13 fill levels of a tmpfs × every writing command and the guard
  'test/hooks/client-sessions.test.ts', // 12 real commits through the hooks, one under each client's session variable
  'test/hooks/stub-handler.test.ts', // the hook stub against its handlers, hook by hook, on generated messages, states and sessions (differential)
  // issue 40: the default suite had grown to 17 min on a quiet 2-core machine; these are matrices of real processes
  // (docs/testing.md has their cost), each a spelling list run through guard processes and real commands
  'test/guard/attack3-*.test.ts', // the third attacker's spellings: every client shape in-process and the real sh front
  'test/guard/attack4.test.ts', // the fourth pass's spellings, the same way
  'test/guard/rules/anchors.test.ts', // every spelling of git-handoff's programs and person-only commands in every client shape and the real front, the SessionEnd attack run for real (20 s quiet)
  'test/guard/rules/interpreter-writes.test.ts', // ~45 interpreter spellings in every client shape and the real front, ordinary scripts run (23 s quiet)
  'test/guard/rules/earlier.test.ts', // links and index changes earlier on the line, each attack also run with no guard (20 s quiet)
  'test/guard/classes.test.ts', // the second attacker's twelve classes × their spellings × every client shape (464 s at load 20–41)
  'test/guard/run-values.test.ts', // values that run commands (core.hooksPath, aliases, …) in every spelling, in-process and the real front (461 s)
  'test/guard/git-config.test.ts', // git config spellings that would move hooks or refs, the same way (210 s)
  'test/guard/shell-writes.test.ts', // shell write spellings, each through the guard and then run for real (61 s)
  'test/lineage/shared-checkout.test.ts', // every refused command of a shared checkout, and its safe form run for real (100 s)
  'test/guard/new-clients.test.ts', // Copilot CLI, Qwen Code and OpenCode shapes through every hook (45–53 s)
  'test/sync/transport.test.ts', // sync over file://, git:// (git daemon) and smart HTTP servers (42 s)
  'test/harden/ambiguous-trailers.test.ts', // forged and ambiguous trailers through every reader and the hooks (38 s)
  // issue 40, round two (this session): whole files of faults, races and scale
  'test/faults/drop-rule.test.ts', // every ambiguous block × every way back, each refused by both the hooks and the guard (46 s)
  'test/sync/scale.test.ts', // sync of many handoffs counted in git processes (27 s)
  'test/sync/receipts.test.ts', // two clones reading at once, real processes; a server refusing dropped receipts (21 s)
  'test/faults/maintenance.test.ts', // pack-refs, gc --aggressive --prune=now and maintenance over every kind of ref (20 s)
  'test/faults/read-only.test.ts', // a read-only repository and HOME through every command and the guard (13 s)
  // two clones and a bare remote per case, each case several syncs (seconds each on 2 cores)
  'test/sync/unguarded-remote.test.ts', // a remote without the check, with and without the git hooks (27 s)
  'test/sync/archive.test.ts', // archives and restores travelling between clones (19 s)
  'test/harden/archive-record.test.ts', // every way a pusher archives another's handoff, through fetch and a server (20 s)
  'test/sync/secrets-gate.test.ts', // every secret rule through push, fetch and merges (33 s)
  'test/claims/remote.test.ts', // claims across clones: offline, expiry against renewal, a killed holder (24 s)
  'test/sync/failure.test.ts', // unreachable remotes, push races, refused pushes (19 s)
  'test/sync/record-remote.test.ts', // the record published per clone, recover --from in a new clone (31 s)
  // issue 57: hosts that limit a push's size and rate, claims published or said not to be, the tracking namespace
  'test/sync/host-limits.test.ts', // pre-receive hooks refusing as GitHub and GitLab do; each rate case waits out a window (38 s)
  'test/sync/namespace.test.ts', // branch lists, decorations and pruning pulls after a sync of every family (17 s)
  'test/claims/publish.test.ts', // offline claims published by sync, raced against another clone; a host refusing the claims ref (13 s)
  'test/sync/retention.test.ts', // archive entries aged past a retention of seconds, pruned here, on a remote and its server check (14 s)
  // the hardening and loss-record scenarios beyond the record's basic cases (each builds an attack or a damage by hand,
  // then runs every reader over it); the first hour's edge cases (issue 40's numbered items)
  'test/harden/terminal-output.test.ts', // escapes, C1 and bidi controls from data through list, show and log (15 s)
  'test/harden/store-processes.test.ts', // git processes per command, counted (13 s)
  'test/harden/signing.test.ts', // signed versions through write, takeover, merge, redact (12 s)
  'test/harden/import-owner.test.ts', // import of files owned by others (12 s)
  'test/record/in-place.test.ts', // the record rewritten in place by hand (14 s)
  'test/record/forged-takeover.test.ts', // issue 36's forged takeover through recover (13 s)
  'test/record/witness.test.ts', // issue 36's store wiped, relocated, deleted and cloned again, each through the SessionStart hook (37 s at load 20)
  'test/record/first-sight.test.ts', // a store met for the first time after a loss (11 s)
  'test/record/damaged.test.ts', // damaged record objects (9 s)
  'test/cli/undrop.test.ts', // every way back from a drop (24 s)
  'test/guard/attacker.test.ts', // the first attacker's state, symlink, watchdog and bound cases (24 s)
  'test/cli/first-hour-edges.test.ts', // issue 40's numbered items, each from what a user sees (21 s)
  'test/cli/first-hour3.test.ts', // the third first-hour round's items (22 s)
];

// Files whose quick cases run in the default set and whose costly variants (more transports, the gc'd repeat, racing
// writers, the long differential) run in the slow set: test/helpers/sets.ts registers each case in one set only.
export const SPLIT_TESTS = [
  'test/handoff/record.test.ts', // slow: every loss case again after reflog expire + gc --prune=now; 16 writers at once
  'test/handoff/tx.test.ts', // slow: concurrent writers of one topic through the hooks
  'test/handoff/receipts.test.ts', // slow: two readers racing for many rounds
  'test/sync/server.test.ts', // slow: the server check over file://, git daemon and smart HTTP
  'test/sync/divergence.test.ts', // slow: the two full divergence-and-resolve rounds
  'test/hooks/push.test.ts', // slow: an archive travelling, atomically and split
  'test/handoff/secrets-write.test.ts', // slow: every rule of the preset through import
  'test/faults/stale-locks.test.ts', // slow: a tracking ref's lock and live holders working from elsewhere (each waits seconds)
  'test/handoff/format-version.test.ts', // slow: every command against a newer store
  'test/boot/boot.test.ts', // slow: boot over many handoffs
  'test/guard/quoting.test.ts', // slow: the quoting property checked by the shell itself
  'test/guard/shell-rules.test.ts', // slow: every way around git handoff, through the guard
  'test/guard/first-file.test.ts', // slow: the first file against the full guard on every Write/Edit shape
  'test/harden/untrusted-data.test.ts', // slow: fetch and a server refusing huge bodies, states and messages
  'test/claims/guard.test.ts', // slow: renewal, which waits for three quarters of a claim's lifetime
];
