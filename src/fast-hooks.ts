// dist/hooks.cjs: what `git-handoff githook <name>` runs (src/hooks/entry.ts), loaded by the launcher through a V8
// code cache of its own per hook. It bundles the git hooks' handlers alone (no guard, no CLI), each handler's module
// loaded when its hook runs: an agent's commit starts one node for prepare-commit-msg, and this is what it loads.

/** `git-handoff githook <name> [args]`: ends once the handler has (its writes are synchronous, its git processes awaited). */
export function githook(name: string, args: string[]): void {
  (require('./hooks/entry') as typeof import('./hooks/entry')).runGithook(name, args).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`git-handoff: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
