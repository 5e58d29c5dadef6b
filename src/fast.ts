// dist/fast.cjs: the full guard and the git hooks, without the CLI framework. Loaded through a V8 code cache (src/load.ts)
// by dist/guard.cjs for a tool call the first look hands over, by the launcher for a hook.
import type { Seen } from './guard/context';
import type { StdinState } from './guard/io';

/** Ends the process with the promise's exit code: nothing of it is pending then (its writes are synchronous, its git processes awaited). */
function finish(p: Promise<number>): void {
  p.then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`git-handoff: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}

/** `git-handoff guard`, given what the first look read of stdin and saw in it (or nothing: it reads stdin itself). */
export const guard = (stdin?: StdinState, seen?: Seen): void => finish(import('./guard/entry').then((m) => m.runGuard(stdin, seen)));

/** `git-handoff githook <name> [args]` (src/hooks/entry.ts). */
export const githook = (name: string, args: string[]): void => finish((require('./hooks/entry') as typeof import('./hooks/entry')).runGithook(name, args));
