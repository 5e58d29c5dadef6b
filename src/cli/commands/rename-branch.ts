// `git handoff rename-branch <old> [<new>]`: after `git branch -m`, the handoffs of the old name carried to the new one.
import { quote } from 'shell-quote';
import { openRepo } from '../../git/repo';
import { carryBranch, resolveBranch } from '../../handoff/store/store';
import { shownRef, takeoverArg, command, writerOf } from '../context';
import { answer } from '../output';
import { WRITER, withOptions } from '../spec';

export const renameBranchCommand = command({
  command: 'rename-branch <old> [new]',
  describe: "carry a renamed branch's handoffs to its new name (after git branch -m), on the record: the old ones archived, new versions under the new name",
  builder: (y) =>
    withOptions(y, WRITER)
      .positional('old', { type: 'string', demandOption: true, describe: 'the name the handoffs are under (the branch before git branch -m)' })
      .positional('new', { type: 'string', describe: 'the name they go to (default: the checked-out branch)' })
      .example('$0 rename-branch feature/login', 'after `git branch -m feature/login feature/auth`, on feature/auth')
      .example('$0 rename-branch feature/login feature/auth --take-over --reason "branch renamed"', "other sessions' handoffs too"),
  handler: (a) => {
    const repo = openRepo();
    const session = writerOf(repo, a);
    const takeover = takeoverArg(a, 'rename-branch');
    const from = resolveBranch(repo, a.old);
    const to = resolveBranch(repo, a.new);
    const r = carryBranch(repo, from, to, session, takeover, `${quote([from])} ${quote([to])}`);
    answer(a.json, r, r.carried.map((c) => `${shownRef(c.ref)} ${c.oid.slice(0, 7)}${c.takeover ? ' (taken over)' : ''} · from ${from}, archived as ${c.archivedAs}\n`).join(''));
  },
});
