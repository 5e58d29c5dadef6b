// `git handoff write <topic>`: a new version, compare-and-swap on the ref.
import type { Argv, CommandModule } from 'yargs';
import { openRepo } from '../../git/repo';
import { requireSession } from '../../handoff/session';
import { writeHandoff } from '../../handoff/store';
import { readBodyArg, type GlobalArgs } from '../context';
import { printJson } from '../output';

interface Args extends GlobalArgs {
  topic: string;
  m?: string[];
  F?: string;
  branch?: string;
  session?: string;
  takeOver?: boolean;
  reason?: string;
}

export const writeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'write <topic>',
  describe: 'write a new version of a handoff (compare-and-swap on its ref)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('topic', { type: 'string', demandOption: true, describe: 'two or more words joined by "-", e.g. auth-refactor' })
      .option('m', { alias: 'message', type: 'string', array: true, describe: 'body paragraph (repeatable)' })
      .option('F', { alias: 'file', type: 'string', describe: 'read the body from a file, or - for stdin' })
      .option('branch', { type: 'string', describe: 'the branch (default: the checked-out one)' })
      .option('session', { type: 'string', describe: 'this session id (default: from the environment)' })
      .option('take-over', { type: 'boolean', describe: "take over another session's handoff (needs --reason)" })
      .option('reason', { type: 'string', describe: 'why you take it over (kept in the history)' })
      .example('$0 write auth-refactor -m "Goal: …" -m "Next: …"', '')
      .example('$0 write auth-refactor -F notes.md --take-over --reason "owner session ended"', '') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const session = requireSession(a.session);
    const body = readBodyArg(a.m, a.F);
    const r = writeHandoff(repo, {
      topic: a.topic,
      body,
      branch: a.branch,
      session,
      takeover: a.takeOver ? { reason: a.reason ?? '' } : null,
    });
    if (a.json) return printJson(r);
    for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
    if (!a.quiet) process.stdout.write(`${r.ref} ${r.oid.slice(0, 7)}${r.created ? ' (created)' : r.takeover ? ' (taken over)' : ''}\n`);
  },
};
