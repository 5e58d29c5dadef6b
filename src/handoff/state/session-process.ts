// Whether a session's client process still runs (a killed client sends no end event): named by pid, /proc start time
// (a reused pid is not it) and host (only this host's can be checked). Kept per session for those that hold no lease.
import { readTextOr } from '../../read-file';
import { processStart } from './lineage-record';
import { localRecord } from './state-file';

/** A client process: its pid, its /proc start time (null where there is no /proc), its host. */
export type ClientProcess = ReturnType<typeof describeProcess>;

// node:os required at the first use: the guard's full look loads this module at every run and needs no host name
// on most (loading node:os costs about 0.2 ms)
export const thisHost = () => (require('node:os') as typeof import('node:os')).hostname();

export const describeProcess = (pid: number) => ({ pid, start: processStart(pid), host: thisHost() });

/** True only when the process is known not to run any more: on this host, and gone or another process now. */
export function processGone(p: { pid: number | null; start?: string | null; host?: string | null }): boolean {
  if (!p.pid) return false;
  if (p.host && p.host !== thisHost()) return false;
  if (p.start) {
    const now = processStart(p.pid);
    if (now !== null || existsProc()) return now !== p.start;
  }
  try {
    process.kill(p.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

let procFs: boolean | undefined;
const existsProc = (): boolean => (procFs ??= readTextOr('/proc/self/stat') !== null);

const PROCESSES = localRecord('processes');

export const recordSessionProcess = (commonDir: string, session: string, p: ClientProcess) => PROCESSES.write(commonDir, { session, ...p }, session);

export function readSessionProcesses(commonDir: string): Map<string, ClientProcess> {
  const out = new Map<string, ClientProcess>();
  for (const j of PROCESSES.all(commonDir)) {
    if (typeof j.session === 'string' && Number.isInteger(j.pid)) out.set(j.session, { pid: j.pid, start: j.start ?? null, host: j.host ?? '' });
  }
  return out;
}
