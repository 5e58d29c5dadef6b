// `git handoff list`: one row per handoff, from one for-each-ref.
import { openRepo } from '../../git/repo';
import { renamedFrom, renamedHint } from '../../handoff/store/boot';
import { HandoffError } from '../../errors';
import { assertAddressee, assertSlug, filterRows, type Reader } from '../../handoff/store/address';
import { NO_SESSION_HELP, short } from '../../handoff/state/session';
import { remoteOnlyHandoffs } from '../../handoff/store/remote-only';
import { listHandoffs, type HandoffRow } from '../../handoff/store/store';
import { command, readerFor, writerOf } from '../context';
import { LIST_SPEC, withSpec } from '../spec';
import { colorSync, colors, printJson, relativeTime, table, terminalSafe } from '../output';

export function printRows(rows: HandoffRow[], archived = false): void {
  const c = colors();
  const ids = rows.map((r) => r.session);
  const body = rows.map((r) => [
    terminalSafe(r.branch),
    r.topic,
    c.cyan(short(r.session, ids)),
    relativeTime(r.updatedAt),
    archived ? r.ref.split('/').slice(2).join('/') : colorSync(r.sync),
  ]);
  process.stdout.write(table(body, ['BRANCH', 'TOPIC', 'SESSION', 'UPDATED', archived ? 'ARCHIVED AS' : 'SYNC']) + '\n');
}

export const listCommand = command({
  command: 'list',
  describe: 'list handoffs: branch, topic, owner, updated, sync state',
  builder: (y) =>
    withSpec(y, LIST_SPEC)
      .example('$0 list', "this branch's handoffs")
      .example('$0 list --all --json', 'every handoff of every branch')
      .example('$0 list --archived --all', 'archived handoffs, to restore one'),
  handler: (a) => {
    const repo = openRepo();
    const all = a.all || (!a.branch && !repo.branch);
    const branch = all ? undefined : (a.branch ?? repo.branch!);
    const mine = a.mine ? writerOf(repo, a).id : undefined;
    const reader = a.forMe || a.unread ? readerFor(repo, a) : null;
    if ((a.forMe || a.unread) && !reader) throw new HandoffError('noSession', 'no-session', `--${a.forMe ? 'for-me' : 'unread'} needs to know who you are: ${NO_SESSION_HELP}`);
    // handoffs a remote has that this clone has not fetched into refs/handoffs/ yet (tracking copies only)
    const far = a.archived ? [] : remoteOnlyHandoffs(repo, { all, branch }).filter((r) => !mine || r.session === mine);
    const rows = filterRows(repo, [...listHandoffs(repo, { all, branch, mine, archived: a.archived }), ...far], {
      to: a.to === undefined ? undefined : assertAddressee(a.to),
      tag: a.tag === undefined ? undefined : assertSlug(a.tag, '--tag'),
      forMe: a.forMe ? (reader as Reader) : undefined,
      unread: a.unread ? (reader as Reader) : undefined,
    });
    if (a.json) return printJson(rows);
    if (rows.length === 0) {
      const where = branch ? ` on branch ${branch}` : '';
      // --mine or filters that left nothing: say which, and how many there are without them (the others' with --mine)
      const filters = [a.unread && 'unread by you', a.forMe && !a.unread && 'addressed to you', a.to !== undefined && `for ${a.to}`, a.tag !== undefined && `tagged ${a.tag}`].filter(Boolean);
      const total = mine || filters.length ? listHandoffs(repo, { all, branch, archived: a.archived }).length : 0;
      const was = !all && branch && !a.archived && !mine && !filters.length ? renamedFrom(repo, branch) : null;
      const renamed = was && branch ? renamedHint(was, branch) : null;
      process.stdout.write(
        mine
          ? `no ${a.archived ? 'archived ' : ''}handoffs of session ${short(mine)}${where}${total ? ` (${total} of other sessions: git handoff list${a.archived ? ' --archived' : ''})` : ''}\n`
          : filters.length
            ? `no ${a.archived ? 'archived ' : ''}handoffs ${filters.join(', ')}${where}${total ? ` (${total} without that filter: git handoff list${a.archived ? ' --archived' : ''}${all ? ' --all' : ''})` : ''}\n`
            : `no ${a.archived ? 'archived ' : ''}handoffs${where}${a.archived ? '' : ' (archived ones: git handoff list --archived)'}\n${renamed ?? ''}`,
      );
      return;
    }
    printRows(rows, a.archived);
    const fetches = [...new Set(far.filter((r) => rows.includes(r)).map((r) => r.fetch))];
    if (fetches.length) process.stdout.write(`remote-only: on the remote, not in this clone yet; ${fetches.join(', ')} brings them\n`);
  },
});
