// `git handoff archive <topic>` and `git handoff restore <archived ref>`: nothing is ever deleted.
import type { Argv, CommandModule } from 'yargs';
import { openRepo } from '../../git/repo';
import { requireSession } from '../../handoff/session';
import { archiveHandoff, resolveBranch, restoreHandoff } from '../../handoff/store';
import type { GlobalArgs } from '../context';
import { printJson } from '../output';

interface Args extends GlobalArgs {
  topic: string;
  ref: string;
  branch?: string;
  session?: string;
  takeOver?: boolean;
  reason?: string;
}

const ownershipOptions = (y: Argv<GlobalArgs>) =>
  y
    .option('session', { type: 'string', describe: 'this session id (default: from the environment)' })
    .option('take-over', { type: 'boolean', describe: "act on another session's handoff (needs --reason)" })
    .option('reason', { type: 'string', describe: 'why (kept in the history)' });

const takeoverOf = (a: Args) => (a.takeOver ? { reason: a.reason ?? '' } : null);

export const archiveCommand: CommandModule<GlobalArgs, Args> = {
  command: 'archive <topic>',
  describe: 'move a handoff to refs/handoff-archive (owner only, or --take-over)',
  builder: (y: Argv<GlobalArgs>) => ownershipOptions(y)
      .positional('topic', { type: 'string', demandOption: true })
      .option('branch', { type: 'string' })
      .example('$0 archive auth-refactor', 'done with it: every version stays under refs/handoff-archive')
      .example('$0 archive auth-refactor --take-over --reason "abandoned"', "another session's, on the record") as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const session = requireSession(a.session);
    const r = archiveHandoff(repo, resolveBranch(repo, a.branch), a.topic, session, takeoverOf(a));
    if (a.json) return printJson(r);
    if (!a.quiet) process.stdout.write(`archived ${r.ref} as ${r.archivedAs}\n`);
  },
};

export const restoreCommand: CommandModule<GlobalArgs, Args> = {
  command: 'restore <ref>',
  describe: 'bring an archived handoff back (owner only, or --take-over)',
  builder: (y: Argv<GlobalArgs>) => ownershipOptions(y)
      .positional('ref', { type: 'string', demandOption: true, describe: 'as `list --archived` shows it' })
      .example('$0 restore main/auth-refactor/1795332932-535247303cd4', '') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const session = requireSession(a.session);
    const r = restoreHandoff(repo, a.ref, session, takeoverOf(a));
    if (a.json) return printJson(r);
    if (!a.quiet) process.stdout.write(`restored ${r.from} to ${r.ref}\n`);
  },
};
