// `git handoff log <topic>`: every version, newest first, with owners and takeovers.
import type { Argv, CommandModule } from 'yargs';
import { openRepo } from '../../git/repo';
import { readRef } from '../../git/refs';
import { assertTopic, handoffRef } from '../../handoff/names';
import { short } from '../../handoff/session';
import { logHandoff, notFound, resolveBranch } from '../../handoff/store';
import type { GlobalArgs } from '../context';
import { printJson, relativeTime, terminalSafe } from '../output';
import { describeSignature } from './show';

interface Args extends GlobalArgs {
  topic: string;
  branch?: string;
}

export const logCommand: CommandModule<GlobalArgs, Args> = {
  command: 'log <topic>',
  describe: 'every version of a handoff, newest first: oid, owner, time, takeovers',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('topic', { type: 'string', demandOption: true })
      .option('branch', { type: 'string' })
      .example('$0 log auth-refactor', 'who wrote each version, and every takeover with its reason')
      .example('$0 log auth-refactor --json', '') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const branch = resolveBranch(repo, a.branch);
    const ref = handoffRef(branch, assertTopic(a.topic));
    if (!readRef(repo, ref)) throw notFound(ref, branch, a.topic);
    const entries = logHandoff(repo, ref);
    if (a.json) return printJson(entries);
    const lines = entries.map((e) => {
      let line = `${e.oid.slice(0, 12)}  ${short(e.session)}  ${(e.client ?? '').padEnd(11)}  ${relativeTime(e.time).padEnd(14)}  ${e.subject}`;
      if (e.takeoverFrom) line += `\n              takeover from ${short(e.takeoverFrom)}: ${e.reason ?? ''}`;
      if (e.signature.state !== 'none') line += `\n              signature: ${describeSignature(e.signature)}`;
      if (e.parents.length > 1) line += `\n              merge of ${e.parents.map((p) => p.slice(0, 12)).join(' + ')}`;
      return line;
    });
    process.stdout.write(terminalSafe(lines.join('\n')) + '\n');
  },
};
