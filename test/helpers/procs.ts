// The processes of this machine whose working directory is under `dir` and whose command line names git-handoff:
// what a test of a long-running command (status --watch, web) checks is gone once it was stopped (ps's view, from /proc).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export function handoffProcessesIn(dir: string): Array<{ pid: number; args: string }> {
  return readdirSync('/proc').flatMap((d) => {
    if (!/^\d+$/.test(d)) return [];
    try {
      const args = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ').trim();
      const cwd = readlinkSync(`/proc/${d}/cwd`);
      return args.includes('git-handoff') && (cwd === dir || cwd.startsWith(`${dir}/`)) ? [{ pid: Number(d), args }] : [];
    } catch {
      return [];
    }
  });
}
