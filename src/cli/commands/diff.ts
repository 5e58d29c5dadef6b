// `git handoff diff <topic> [<from> [<to>]]`: what changed in a handoff's body between two versions (also the
// patches of `log -p`), as a unified diff of handoff.md from git itself.
import { openRepo, type Repo } from '../../git/repo';
import { readHandoff, resolveBranch } from '../../handoff/store/store';
import { command } from '../context';
import { answer, colors } from '../output';
import { withTopic } from '../spec';

/** The unified diff of the body from `from` to `to`; from null: against the version's first parent (all of it for the first). */
export function bodyPatch(repo: Repo, from: string | null, to: string): string {
  const args = from === null ? ['show', '--no-ext-diff', '--no-color', '--format=', '--diff-merges=first-parent', to] : ['diff', '--no-ext-diff', '--no-color', from, to];
  return repo.out([...args, '--', 'handoff.md']);
}

/** A patch in this CLI's colours (git's own would carry resets the terminal guard strips). */
export function paintPatch(patch: string): string {
  const c = colors();
  return patch
    .split('\n')
    .map((l) => (/^(diff |index |--- |\+\+\+ |new file|deleted file)/.test(l) ? c.bold(l) : l.startsWith('@@') ? c.cyan(l) : l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l))
    .join('\n');
}

export const diffCommand = command({
  command: 'diff <topic> [from] [to]',
  describe: "what changed in a handoff's body between two versions (default: its newest version against the one before)",
  builder: (y) => withTopic(y)
      .positional('from', { type: 'string', describe: 'the older version: an oid from `git handoff log`, or ~N back from the newest' })
      .positional('to', { type: 'string', describe: 'the newer version (default: the newest)' })
      .example('$0 diff auth-refactor', 'what the newest version changed')
      .example('$0 diff auth-refactor ~3', 'everything since three versions back')
      .example('$0 diff auth-refactor 1a2b3c4d 5e6f7a8b', 'between two versions from `git handoff log`'),
  handler: (a) => {
    const repo = openRepo();
    const branch = resolveBranch(repo, a.branch);
    const to = readHandoff(repo, branch, a.topic, a.to, '<to>').oid;
    const from = a.from === undefined ? null : readHandoff(repo, branch, a.topic, a.from, '<from>').oid;
    const patch = bodyPatch(repo, from, to);
    const none = `no change to the body between ${from ? from.slice(0, 12) : 'the version before'} and ${to.slice(0, 12)}`;
    answer(a.json, { topic: a.topic, branch, from, to, patch }, [patch.trim() ? paintPatch(patch.replace(/\n$/, '')) : none]);
  },
});
