// The processes of this machine whose command line names git-handoff (as `ps` lists them) and whose working directory
// is under `dir` (from /proc): what a test of a long-running command (status --watch, web) checks is gone once stopped.
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';

export function handoffProcessesIn(dir: string): Array<{ pid: number; args: string }> {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  if (ps.status !== 0) throw new Error(`ps failed: ${ps.stderr}`);
  return ps.stdout.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[2].includes('git-handoff') || Number(m[1]) === process.pid) return [];
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${m[1]}/cwd`);
    } catch {
      return []; // ended between ps and here
    }
    return cwd === dir || cwd.startsWith(`${dir}/`) ? [{ pid: Number(m[1]), args: m[2] }] : [];
  });
}
