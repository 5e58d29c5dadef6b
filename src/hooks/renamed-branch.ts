// Which branch the git command running this hook renames: reference-transaction sees only deletions (the new name is
// written with no transaction), and only git's own command line tells a rename from a forced overwrite.
import { execFileSync } from '../process';
import { ancestors } from '../handoff/state/lineage-record';

/** git's options before the command that take the next word as their value. */
const GLOBAL_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path', '--list-cmds']);
/** `git branch` options that take the next word as their value: with one of them the names are not read (nothing is taken as renamed). */
const BRANCH_VALUED = new Set(['--set-upstream-to', '--sort', '--format', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at']);

/** The names a `git branch -m|-M` command line renames (`from` null: HEAD's branch), or null for any other command. */
export function branchRename(argv: readonly string[]): { from: string | null; to: string } | null {
  let i = 1;
  for (; i < argv.length && argv[i].startsWith('-'); i++) if (GLOBAL_VALUED.has(argv[i])) i++;
  if (argv[i] !== 'branch') return null;
  let move = false;
  const names: string[] = [];
  for (let k = i + 1, ended = false; k < argv.length; k++) {
    const a = argv[k];
    if (ended || !a.startsWith('-') || a === '-') names.push(a);
    else if (a === '--') ended = true;
    else if (BRANCH_VALUED.has(a)) return null;
    else if (a === '--move') move = true;
    else if (a.startsWith('--')) continue;
    else
      for (const ch of a.slice(1)) {
        // a short group (-fM); -c/-C copy, -d/-D delete, -u takes a value (the rest of the group or the next word)
        if ('cCdDu'.includes(ch)) return null;
        if (ch === 'm' || ch === 'M') move = true;
      }
  }
  if (!move || names.length < 1 || names.length > 2) return null;
  return names.length === 1 ? { from: null, to: names[0] } : { from: names[0], to: names[1] };
}

/** A process's command line and parent by `ps` (BSD and macOS: no /proc); null where it does not say. */
function byPs(pid: number): { argv: string[]; parent: number | null } | null {
  try {
    const [ppid, ...args] = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/);
    // ps joins the arguments with spaces: a branch name holds none
    return { argv: args, parent: Number(ppid) || null };
  } catch {
    return null;
  }
}

const isGit = (argv: string[]) => /(^|\/)git$/.test(argv[0] ?? '');

/** The command line of the nearest git process above this one (the one running this hook: its shell and node between), or null. */
export function hookGitArgv(): string[] | null {
  let seen = false;
  for (const { argv } of ancestors()) {
    if (isGit(argv)) return argv;
    seen = true;
  }
  if (seen) return null;
  // no /proc
  let pid: number | null = process.ppid;
  for (let depth = 0; depth < 6 && pid !== null && pid > 1; depth++) {
    const p = byPs(pid);
    if (!p) return null;
    if (isGit(p.argv)) return p.argv;
    pid = p.parent;
  }
  return null;
}
