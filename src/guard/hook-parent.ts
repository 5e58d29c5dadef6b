// A process's parent as /proc says it, for the walks from the guard up to its client (src/guard/lineage.ts,
// client-process.ts).
import { readFileSync } from 'node:fs';

/** The parent of process `pid` (field 4 of /proc/<pid>/stat, after the command name's closing parenthesis: the name may hold spaces or parentheses), or null where /proc does not say. */
export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) || null;
  } catch {
    return null;
  }
}
