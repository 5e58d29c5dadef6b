// The full guard, bundled to dist/fast.cjs: loaded by dist/guard.cjs for a tool call a rule may apply to. It bundles
// only its own code (no yargs, no git library), and of that what the guard's frequent calls run: its other modules
// are in dist/rest.cjs (scripts/guard-split.mjs). The git hooks have their own bundle (dist/hooks.cjs,
// src/fast-hooks.ts), which takes the rest of their code (src/hooks/more.ts, most of it shared with the guard) through this one.
import type { Seen } from './guard/context';
import type { StdinState } from './guard/io';

/** Sets the exit code the command's promise ends with; `exit`: ends the process there (see guard). */
function finish(p: Promise<number>, exit = false): void {
  p.then(
    (code) => {
      process.exitCode = code;
      if (exit) process.exit(code);
    },
    (e) => {
      process.stderr.write(`git-handoff: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * `git-handoff guard`, given what the first look read of stdin and saw in it (or nothing: it reads stdin itself).
 * Once it answered, the process ends at once: nothing of it is pending then (every write it makes is synchronous,
 * every git process awaited), and what node would still do — V8's idle-time collection of the young generation,
 * the teardown — cost each call about 1 ms. 'exit' listeners run (a code cache saved).
 */
export function guard(stdin?: StdinState, seen?: Seen): void {
  finish(
    import('./guard/entry').then((m) => m.runGuard(stdin, seen)),
    true,
  );
}

/** The git hooks' code beyond one session's ordinary commit (src/hooks/more.ts), for dist/hooks.cjs (src/hooks/load-more.ts). */
export const hookModules = (): typeof import('./hooks/more') => require('./hooks/more') as typeof import('./hooks/more');
