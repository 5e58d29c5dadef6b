// The full guard and the git hooks, bundled to dist/fast.cjs: loaded by a git hook stub, and by dist/guard.cjs
// for a tool call a rule may apply to. It bundles only their own code (no yargs, no git library), and loads each
// handler only when it is the one asked for.
import type { Seen } from './guard/first';
import type { StdinState } from './guard/io';

function finish(p: Promise<number>): void {
  p.then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`git-handoff: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

/** `git-handoff guard`, given what the first look read of stdin and saw in it (or nothing: it reads stdin itself). */
export function guard(stdin?: StdinState, seen?: Seen): void {
  finish(import('./guard/entry').then((m) => m.runGuard(stdin, seen)));
}

/** `git-handoff githook <name> [args]` */
export function githook(name: string, args: string[]): void {
  finish(import('./hooks/entry').then((m) => m.runGithook(name, args)));
}
