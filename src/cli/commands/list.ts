// `git handoff list`: one row per handoff, from one for-each-ref.
import type { Argv, CommandModule } from 'yargs';
import { openRepo } from '../../git/repo';
import { requireSession, short } from '../../handoff/session';
import { listHandoffs, type HandoffRow } from '../../handoff/store';
import type { GlobalArgs } from '../context';
import { colorSync, colors, printJson, relativeTime, table, terminalSafe } from '../output';

interface Args extends GlobalArgs {
  branch?: string;
  all?: boolean;
  mine?: boolean;
  archived?: boolean;
  session?: string;
}

export function printRows(rows: HandoffRow[], archived = false): void {
  const c = colors();
  const body = rows.map((r) => [
    terminalSafe(r.branch),
    r.topic,
    c.cyan(short(r.session)),
    relativeTime(r.updatedAt),
    archived ? r.ref.split('/').slice(2).join('/') : colorSync(r.sync),
  ]);
  process.stdout.write(table(body, ['BRANCH', 'TOPIC', 'OWNER', 'UPDATED', archived ? 'ARCHIVED AS' : 'SYNC']) + '\n');
}

export const listCommand: CommandModule<GlobalArgs, Args> = {
  command: 'list',
  describe: 'list handoffs: branch, topic, owner, updated, sync state',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .option('branch', { type: 'string', describe: 'this branch (default: the checked-out one)' })
      .option('all', { type: 'boolean', describe: 'every branch' })
      .option('mine', { type: 'boolean', describe: "only this session's handoffs" })
      .option('archived', { type: 'boolean', describe: 'archived handoffs instead' })
      .option('session', { type: 'string', describe: 'this session id, for --mine' })
      .conflicts('all', 'branch')
      .example('$0 list', "this branch's handoffs")
      .example('$0 list --all --json', 'every handoff of every branch')
      .example('$0 list --archived --all', 'archived handoffs, to restore one') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const all = a.all || (!a.branch && !repo.branch);
    const branch = all ? undefined : (a.branch ?? repo.branch!);
    const mine = a.mine ? requireSession(a.session).id : undefined;
    const rows = listHandoffs(repo, { all, branch, mine, archived: a.archived });
    if (a.json) return printJson(rows);
    if (rows.length === 0) {
      if (!a.quiet) process.stdout.write(`no ${a.archived ? 'archived ' : ''}handoffs${branch ? ` on branch ${branch}` : ''}\n`);
      return;
    }
    printRows(rows, a.archived);
  },
};
