// `git handoff import <file>…`: file-based handoffs into refs, each written as its owner.
import type { Argv, CommandModule } from 'yargs';
import { openRepo } from '../../git/repo';
import { HANDOVER_TOPIC, planImport, runImport } from '../../handoff/import';
import { resolveSession, short } from '../../handoff/session';
import type { GlobalArgs } from '../context';
import { printJson, terminalSafe } from '../output';

interface Args extends GlobalArgs {
  files: string[];
  branch?: string;
  topic?: string;
  session?: string;
}

export const importCommand: CommandModule<GlobalArgs, Args> = {
  command: 'import <files..>',
  describe: 'turn file-based handoffs (handoff-<branch>-<topic>.md, handover.md, a directory of them) into refs, keeping the owner',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('files', { type: 'string', array: true, demandOption: true, describe: 'files, or directories searched for handoff files' })
      .option('branch', { type: 'string', describe: 'the branch, when the file name does not say it (default for handover.md: the checked-out one)' })
      .option('topic', { type: 'string', describe: `the topic, when the file name does not say it (default for handover.md: ${HANDOVER_TOPIC}); one file only` })
      .option('session', { type: 'string', describe: 'the owner of files without a <!-- claude-session: ID --> first line (default: from the environment)' })
      .example('$0 import memory/', 'every handoff-<branch>-<topic>.md under memory/, owners kept')
      .example('$0 import handover.md --topic auth-refactor', 'owner from --session or the environment')
      .epilog(
        'A handoff-<branch>-<topic>.md file keeps the owner named on its first line, <!-- claude-session: ID -->, and ' +
          'that line is not part of the body. Its <branch> is matched against the local branches (slashes written as ' +
          'dashes); a name that fits none, or several, asks for --branch and --topic. A body already stored as a ' +
          "version of the handoff is not written again, so importing twice is harmless. Someone else's handoff is " +
          'refused (exit 3) as with write. Nothing is written when an argument is bad.',
      ) as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const plans = planImport(repo, a.files.map(String), { branch: a.branch, topic: a.topic, session: resolveSession(a.session) });
    const results = runImport(repo, plans);
    const failed = results.find((r) => r.error);
    if (a.json) printJson(results);
    else {
      for (const r of results) {
        if (r.error) {
          process.stderr.write(`git-handoff: ${r.file}: ${r.error.message}\n`);
          continue;
        }
        for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
        if (a.quiet) continue;
        const what = r.status === 'unchanged' ? `unchanged (already version ${r.oid!.slice(0, 7)})` : `${r.status} ${r.oid!.slice(0, 7)}`;
        process.stdout.write(terminalSafe(`${r.ref} ${what} · owner ${short(r.session)} · from ${r.file}\n`));
      }
    }
    if (failed) process.exitCode = failed.error!.exitCode;
  },
};

