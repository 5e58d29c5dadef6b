// What runs between the parsed command line and a command's handler, the same whichever parser read it (yargs's
// middlewares in parser.ts, or hot.ts): -C, the store's format gate and the loss record's check, then the pager.
import { HandoffError } from '../errors';
import { openRepo, setFormatGate } from '../git/repo';
import { assertKnownFormat } from '../handoff/store/format';
import { upgradeTracking } from '../handoff/store/tx/migrate';
import { PAGED_COMMANDS, pagerCommand, startPager } from './pager';
import { checkRecord, renderLosses } from '../handoff/record/record-check';
import { compareReads } from '../handoff/record/record-reads';
import { trace } from '../trace';

// the guard and the git hooks answer for git and the agents: a newer store must not turn them into refusals of everything
const UNGATED = new Set(['guard', 'githook']);

/** `-C <path>` (repeatable, like git -C): each in turn, before anything reads the repository. */
export function changeDirectory(paths: string | string[] | undefined): void {
  for (const p of paths === undefined ? [] : ([] as string[]).concat(paths)) {
    try {
      process.chdir(p);
    } catch (e) {
      throw new HandoffError('environment', 'bad-directory', `cannot change to ${p}: ${(e as Error).message}`);
    }
  }
}

/** After -C, before the handler: the store's format gate (SPEC 2), the loss record's check, then -q and the pager. */
export function beforeCommand(command: string, a: { quiet?: unknown; json?: unknown }, noPager: boolean): void {
  // a store this build may read is upgraded before anything reads it (format 3: tracking copies out of refs/remotes/)
  if (!UNGATED.has(command)) setFormatGate((repo) => (assertKnownFormat(repo), upgradeTracking(repo)));
  noticeLosses(command);
  trace('record check');
  quietOutput(command, !!a.quiet, !!a.json);
  // show, log and diff page their output on a terminal, unless --no-pager/-P, -q or --json
  const pager = !noPager && !a.quiet && !a.json && PAGED_COMMANDS.has(command) ? pagerCommand() : null;
  if (pager) startPager(pager);
}

// what answers a program (a client's hook, the shell's completion), not a person: -q does not silence it
const PROGRAM_OUTPUT = new Set(['guard', 'githook', 'completion']);

/**
 * -q / --quiet, as every command's help says: nothing on stdout, errors (and warnings) still on stderr and the exit
 * code as ever; --json is data asked for and is printed.
 */
function quietOutput(command: string, quiet: boolean, json: boolean): void {
  if (!quiet || json || PROGRAM_OUTPUT.has(command)) return;
  process.stdout.write = ((_chunk: unknown, ...rest: unknown[]) => {
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stdout.write;
}

// boot restores by itself (session start); recover checks in full itself; these never touch a repository's refs
const OWN_CHECK = new Set(['boot', 'recover', 'guard', 'githook', 'completion', '__complete', '']);

/** The loss record's check at command start; never fails the command (outside a repository it says nothing). */
function noticeLosses(command: string): void {
  if (OWN_CHECK.has(command) || process.env.GIT_HANDOFF_RECORD_CHECK === '0') return;
  try {
    const repo = openRepo(process.cwd());
    const check = checkRecord(repo);
    const text = renderLosses(check);
    if (text) process.stderr.write(text);
    // stat-only: a ref file rewritten in place is found when the command reads that ref (record-reads.ts)
    else if (check.cached) compareReads(repo);
  } catch {
    // not a repository, or git cannot answer: the command itself says so
  }
}
