// The full guard and the git hooks, bundled to dist/fast.cjs: loaded by a git hook stub, and by dist/guard.cjs
// for a tool call a rule may apply to. It bundles only their own code (no yargs, no git library), and loads each
// handler only when it is the one asked for.
import type { Seen } from './guard/first';
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

/** `git-handoff githook <name> [args]`: ends once the handler has (its writes are synchronous, its git processes awaited), as guard does. */
export function githook(name: string, args: string[]): void {
  finish(
    import('./hooks/entry').then((m) => m.runGithook(name, args)),
    true,
  );
}
