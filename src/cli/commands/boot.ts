// `git handoff boot`: the session-start view, verified against the repository now.
import { openRepo } from '../../git/repo';
import { bootView, renderBoot } from '../../handoff/store/boot';
import { recoverAtSessionStart } from '../../handoff/record/recover';
import { resolveBranch } from '../../handoff/store/store';
import { command, readerFor } from '../context';
import { printJson } from '../output';
import { showJson } from './show';
import { SESSION_VARS } from '../../clients/names';
import { ALL, BRANCH, READER, withOptions } from '../spec';

export const bootCommand = command({
  command: 'boot',
  describe: "the session-start view: this branch's handoffs (yours first), each verified against the repository now",
  builder: (y) =>
    withOptions(y, [...READER, BRANCH, ALL])
      .option('wrap', {
        type: 'boolean',
        describe: 'wrap body excerpts in <untrusted-content> tags (default: when stdout is not a terminal, i.e. read by an agent)',
      })
      .option('receipt', { type: 'boolean', default: true, describe: 'record a `surfaced` receipt on each handoff addressed to you (--no-receipt: none)' })
      .conflicts('all', 'branch')
      .example('$0 boot', 'at session start: what the last sessions left here, and whether it is still true')
      .example(`$0 boot --json --session "$${SESSION_VARS[0][0]}"`, '')
      .epilog(
        'Each handoff is led by its owner, age, sync state and verification, then its Goal, Next action and Stop ' +
          'conditions sections (markdown headings, any case); a handoff without them shows its first line.',
      ),
  handler: (a) => {
    const repo = openRepo();
    const reader = readerFor(repo, a);
    const branch = a.all ? null : a.branch !== undefined || repo.branch ? resolveBranch(repo, a.branch) : null;
    const view = bootView(repo, { record: recoverAtSessionStart(repo), session: reader?.id ?? null, reader, surface: a.receipt !== false, branch, all: a.all || !branch });
    if (a.json) return printJson({ branch: view.branch, session: view.session, handoffs: view.handoffs.map(showJson), ...(view.record ? { record: view.record } : {}), ...(view.renamed ? { renamedFrom: view.renamed } : {}), ...(view.takenFromYou ? { takenFromYou: view.takenFromYou.map((t) => ({ ...t, at: new Date(t.at * 1000).toISOString() })) } : {}) });
    process.stdout.write(renderBoot(view, { untrusted: a.wrap ?? !process.stdout.isTTY }));
  },
});
