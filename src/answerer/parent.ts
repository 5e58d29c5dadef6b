// The parent a hook's node process counts from (src/guard/lineage.ts, client-process.ts), apart so that the guard
// loads nothing else of the answerer.
/**
 * The process a hook's node would have as its parent: in a spare (spare.ts) the front's parent, which the answerer
 * read from /proc; elsewhere this process's own. Set only in-process (a symbol on `process`): no variable or
 * payload can name it.
 */
export const HOOK_PARENT = Symbol.for('git-handoff.hook-parent');
export const hookParent = (): number => (process as unknown as { [HOOK_PARENT]?: number })[HOOK_PARENT] ?? process.ppid;
