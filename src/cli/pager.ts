// A pager for long output, by git's conventions: only when stdout is a terminal; the program git would use
// (`git var GIT_PAGER`: GIT_PAGER, core.pager, PAGER, then less); `cat` or empty means none; LESS=FRX and LV=-c
// unless set; not again under a pager git already started (GIT_PAGER_IN_USE); `--no-pager` / `-P` turn it off.
import { spawn, type ChildProcess } from '../process';
import { git } from '../git/run';
import { terminalWriter } from './output';
import { splitAtDashes } from './argv';

/** The commands whose output is paged, as `git log`, `git show` and `git diff` are. */
export const PAGED_COMMANDS = new Set(['show', 'log', 'diff']);

/** argv without the pager switches, and whether one was given. */
export function pagerSwitches(argv: string[]): { argv: string[]; noPager: boolean } {
  const [head, rest] = splitAtDashes(argv);
  const kept = head.filter((a) => a !== '--no-pager' && a !== '-P');
  return { argv: [...kept, ...rest], noPager: kept.length !== head.length };
}

/** The pager command to run, or null for none. */
export function pagerCommand(): string | null {
  if (!process.stdout.isTTY || process.env.GIT_PAGER_IN_USE) return null;
  const r = git(['var', 'GIT_PAGER'], { allowFail: true });
  const cmd = r.status === 0 ? r.stdout.trim() : (process.env.GIT_PAGER ?? process.env.PAGER ?? 'less');
  return cmd === '' || cmd === 'cat' ? null : cmd;
}

let pager: ChildProcess | null = null;
/** stdout's own write while the pager takes the output, put back when it ends */
let plainWrite: typeof process.stdout.write | null = null;

/** Sends everything the command writes to stdout through the pager (stderr stays on the terminal, as in git). The
 * pager starts at the first byte of output: a command that fails before printing leaves the terminal untouched. */
export function startPager(cmd: string): void {
  plainWrite = process.stdout.write;
  // the pager shows what it gets on the terminal: it gets it through the terminal's one filter
  process.stdout.write = terminalWriter((chunk: unknown, ...rest: unknown[]) => {
    if (!pager) pager = spawnPager(cmd);
    return pager.stdin!.write(chunk as string, ...(rest as []));
  });
}

function spawnPager(cmd: string): ChildProcess {
  const env = { LESS: 'FRX', LV: '-c', ...process.env, GIT_PAGER_IN_USE: 'true' };
  const child = spawn('sh', ['-c', cmd], { stdio: ['pipe', 'inherit', 'inherit'], env });
  child.on('error', () => {}); // a pager that cannot start: the output is lost as with git, the exit code stays
  child.stdin!.on('error', () => {}); // the reader quit early (q in less): it has all it wanted
  return child;
}

/** Closes the pager's input and waits until the person leaves it. */
export function endPager(): Promise<void> {
  const child = pager;
  if (plainWrite) process.stdout.write = plainWrite;
  plainWrite = null;
  if (!child) return Promise.resolve();
  pager = null;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on('close', () => resolve());
    child.stdin!.end();
  });
}
