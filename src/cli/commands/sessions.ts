// `git handoff sessions` (who is live in which worktree, and what each wrote) and `git handoff release`.
import type { Argv, CommandModule } from 'yargs';
import { HandoffError } from '../../errors';
import { openRepo } from '../../git/repo';
import { lineageOf, listRecords, successorOf } from '../../handoff/lineage-record';
import { requireSession, short } from '../../handoff/session';
import { listSessions, releaseSession } from '../../hooks/sessions';
import type { GlobalArgs } from '../context';
import { printJson, relativeTime, table, terminalSafe } from '../output';

interface Args extends GlobalArgs {
  session?: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const MAX_PATHS = 3;

export const sessionsCommand: CommandModule<GlobalArgs, Args> = {
  command: 'sessions',
  describe: 'worktree leases: which session is live or stale where, the session each continues (lineage), and the paths each wrote',
  builder: (y: Argv<GlobalArgs>) => y.example('$0 sessions --json', 'one object per session and worktree: status live|stale|released, lease, paths') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const rows = listSessions(repo);
    const records = listRecords(repo.commonDir);
    const byId = new Map(records.map((r) => [r.session, r]));
    if (a.json) {
      return printJson(
        rows.map((s) => ({
          ...s,
          heartbeat: iso(s.heartbeat),
          lastActivity: iso(s.lastActivity),
          lineage: lineageOf(repo.commonDir, s.session, records),
          continues: byId.get(s.session)?.from ?? null,
          continuedBy: successorOf(s.session, records),
        })),
      );
    }
    if (rows.length === 0) {
      if (!a.quiet) process.stdout.write('no sessions: no lease and nothing in the ledger\n');
      return;
    }
    const body = rows.map((s) => {
      const seen = Math.max(s.heartbeat ?? 0, s.lastActivity ?? 0);
      const paths = s.paths.length === 0 ? '-' : `${s.paths.length}: ${s.paths.slice(0, MAX_PATHS).join(', ')}${s.paths.length > MAX_PATHS ? ', …' : ''}`;
      const rec = byId.get(s.session);
      const next = successorOf(s.session, records);
      const lineage = [rec?.from ? `continues ${short(rec.from)} (${rec.source})` : null, next ? `continued by ${short(next)}` : null].filter(Boolean).join('; ') || '-';
      return [s.worktree, short(s.session), s.status, s.lease ? 'yes' : 'no', seen ? relativeTime(new Date(seen).toISOString()) : '-', paths, lineage];
    });
    process.stdout.write(terminalSafe(table(body, ['WORKTREE', 'SESSION', 'STATUS', 'LEASE', 'LAST SEEN', 'PATHS', 'LINEAGE'])) + '\n');
  },
};

export const releaseCommand: CommandModule<GlobalArgs, Args> = {
  command: 'release',
  describe: "end a session's hold on this worktree: its lease and its claims on the paths it wrote",
  builder: (y: Argv<GlobalArgs>) =>
    y
      .option('session', { type: 'string', describe: 'the session to release (default: this one, from the environment)' })
      .example('$0 release --session 5f0c6a52-…', 'a finished session no longer blocks commits of the files it wrote here') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    if (!repo.worktree) throw new HandoffError('usage', 'no-worktree', 'a bare repository has no worktree leases; run release inside a worktree');
    const session = requireSession(a.session).id;
    const r = releaseSession(repo, session, repo.worktree);
    if (a.json) return printJson(r);
    if (a.quiet) return;
    const lease = r.lease ? 'lease removed' : 'it held no lease here';
    const paths = r.paths.length ? `its claims on ${r.paths.length} path${r.paths.length === 1 ? '' : 's'} dropped` : 'it had no claims on paths';
    process.stdout.write(`released session ${short(session)} in ${r.worktree}: ${lease}; ${paths}\n`);
  },
};
