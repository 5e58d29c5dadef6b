// The parent a hook's node process counts from (src/guard/lineage.ts, client-process.ts), and a process's parent as
// /proc says it (those walks and the answerer's), apart so that the guard loads nothing else of the answerer.
import { readFileSync } from 'node:fs';
/**
 * The process a hook's node would have as its parent: in a spare (spare.ts) the front's parent, which the answerer
 * read from /proc; elsewhere this process's own. Set only in-process (a symbol on `process`): no variable or
 * payload can name it.
 */
export const HOOK_PARENT = Symbol.for('git-handoff.hook-parent');
export const hookParent = (): number => (process as unknown as { [HOOK_PARENT]?: number })[HOOK_PARENT] ?? process.ppid;

/** The parent of process `pid` (field 4 of /proc/<pid>/stat, after the command name's closing parenthesis: the name may hold spaces or parentheses), or null where /proc does not say. */
export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) || null;
  } catch {
    return null;
  }
}
