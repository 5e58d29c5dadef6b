// The processes of this machine whose command line names git-handoff (as `ps` lists them) and whose working directory
// is under `dir` (from /proc): what a test of a long-running command (status --watch, web) checks is gone once stopped.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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

/** The processes of this user whose environment has `HOME=<home>` (from /proc), this one excluded. */
export function processesWithHome(home: string): number[] {
  const want = `HOME=${home}`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let env: string;
    try {
      env = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue; // ended, or not ours
    }
    if (env.split('\0').includes(want)) found.push(Number(name));
  }
  return found;
}

/**
 * Waits up to `graceMs` for every process a client left with this HOME (an MCP server, a helper it forked) to end,
 * then kills the rest: a test's HOME is removed only once nothing writes into it.
 */
export async function endProcessesWithHome(home: string, graceMs = 10_000): Promise<number[]> {
  const until = Date.now() + graceMs;
  let left = processesWithHome(home);
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesWithHome(home);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended meanwhile
    }
  }
  for (let i = 0; i < 50 && processesWithHome(home).length; i++) await new Promise((r) => setTimeout(r, 100));
  return left;
}
