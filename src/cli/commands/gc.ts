// `git handoff gc [--remote [R]] [--dry-run]`: archive entries past handoff.archiveRetention are pruned here (and on R).
import { EXIT } from '../../errors';
import { openRepo } from '../../git/repo';
import { DEFAULT_RETENTION, pruneArchive, type Retention } from '../../handoff/store/retention';
import { pruneRemote, rejectionError } from '../../sync/push';
import { resolveRemote } from '../../sync/remote';
import { command } from '../context';
import { answer, endWith } from '../output';

const days = (ms: number) => (ms % 86_400_000 === 0 ? `${ms / 86_400_000} days` : `${Math.round(ms / 3_600_000)} hours`);
const policy = (r: Retention | null) => (r ? `older than ${days(r.ageMs)}, past the newest ${r.keep} of their topic` : 'none: handoff.archiveRetention is off');

export const gcCommand = command({
  command: 'gc',
  describe: `prune archive entries past handoff.archiveRetention (default ${DEFAULT_RETENTION}: older than 90 days and not their topic's newest), here and with --remote on the handoff remote`,
  builder: (y) =>
    y
      .option('remote', { describe: 'also delete them on this remote (default: handoff.remote, else origin, else the only one)' })
      .option('dry-run', { type: 'boolean', describe: 'say what would be pruned, prune nothing' })
      .example('$0 gc', "this clone's archive entries past retention")
      .example('$0 gc --remote --dry-run', 'what would go here and on the handoff remote')
      .epilog(
        'Each pruned entry is noted in the loss record as removed (recover never reports it), and the record restarts its chain so git can ' +
          'let the versions only those entries kept go. Fetch and push never carry an entry past retention again. A host with the server check ' +
          '(install --server) accepts the deletion of an entry past its own retention only.',
      ),
  handler: (a) => {
    const repo = openRepo();
    const dryRun = !!a['dry-run'];
    const here = pruneArchive(repo, { dryRun });
    const remote = a.remote === undefined || a.remote === false ? null : resolveRemote(repo, typeof a.remote === 'string' ? a.remote : undefined);
    const there = remote ? pruneRemote(repo, remote, { dryRun }) : null;
    const verb = dryRun ? 'would prune' : 'pruned';
    const done = !there ? [] : dryRun ? there.updates : there.updates.filter((u) => u.status === 'pushed');
    answer(a.json, { dryRun, retention: here.retention, pruned: here.pruned, kept: here.kept, remote: there }, [
      `archive retention: ${policy(here.retention)}`,
      `${verb} ${here.pruned.length} archive entr${here.pruned.length === 1 ? 'y' : 'ies'} here (${here.kept} kept)`,
      ...here.pruned.map((ref) => `  ${ref}`),
      ...(there ? [`${verb} ${done.length} on ${there.remote}`, ...done.map((u) => `  ${u.ref}`)] : []),
    ]);
    if (there?.rejected.length) throw rejectionError(there);
    const stopped = there?.stopped && { code: EXIT.environment, why: `${there.remote} stopped the pruning (${there.stopped.reason}); \`git handoff gc --remote\` continues` };
    endWith(a.json, [stopped]);
  },
});
