// `git handoff drop <topic>`: a throwaway handoff that never left this clone, taken away on the record.
import { openRepo } from '../../git/repo';
import { dropHandoff } from '../../handoff/store/drop';
import { assertTopic } from '../../handoff/store/names';
import { resolveBranch } from '../../handoff/store/store';
import { command, writerOf } from '../context';
import { answer } from '../output';
import { PERSON, SESSION, withOptions, withTopic } from '../spec';

export const dropCommand = command({
  command: 'drop <topic>',
  describe: 'take away a throwaway handoff of yours that never left this clone (kept under refs/handoff-dropped/, on the record); anything pushed is archived instead',
  builder: (y) => withTopic(withOptions(y, [PERSON, SESSION]), 'the handoff: two or more words joined by "-", e.g. scratch-notes')
      .example('$0 drop scratch-notes', 'gone from list, boot and sync; its versions stay reachable by name')
      .epilog('Undo: `git handoff restore <topic>` (or the refs/handoff-dropped/… ref drop names) puts it back live, every version as it was.'),
  handler: (a) => {
    const repo = openRepo();
    const session = writerOf(repo, a);
    assertTopic(a.topic);
    const r = dropHandoff(repo, resolveBranch(repo, a.branch), a.topic, session);
    answer(a.json, r, `dropped ${r.ref} (${r.oid.slice(0, 7)}); its versions are kept as ${r.keptAs} and in the loss record as removed on purpose\n  undo it: git handoff restore ${r.keptAs}\n`);
  },
});
