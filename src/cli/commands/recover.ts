// `git handoff recover [ref…] [--scan] [--from R]`: puts back what the loss record says was lost (src/handoff/record/recover.ts);
// --from first takes this clone's record back from a handoff remote (src/sync/record-remote.ts).
import { EXIT, HandoffError } from '../../errors';
import { openRepo, type Repo } from '../../git/repo';
import { recover, recoverScan, type RecoverResult } from '../../handoff/record/recover';
import { recoverFrom } from '../../sync/record-remote';
import { resolveRemote } from '../../sync/remote';
import { claimsRemote } from '../../handoff/claims/claims';
import { readConfig } from '../../git/config';
import { command } from '../context';
import { answer, endWith } from '../output';
import { personOnly } from '../person-only';

/**
 * `--from R` trusts R's record of this clone only when R is the handoff remote a person chose (handoff.remote, else
 * origin, else the only remote: SPEC 10): a remote added to hold a record someone made (`git remote add backup …`) is
 * not a source of what recovery restores. Exit 2, code `not-handoff-remote`; nothing is fetched.
 */
function handoffRemoteOnly(repo: Repo, named: string): void {
  // the handoff remote as claims publish to it: null when none is chosen
  const chosen = claimsRemote(repo, readConfig(repo)).remote;
  if (chosen === named) return;
  resolveRemote(repo, named); // an unknown name is said as such (unknown-remote)
  throw new HandoffError(
    'usage',
    'not-handoff-remote',
    `recover --from takes this clone's record only from the handoff remote${chosen ? ` (${chosen})` : ' (none is chosen: several remotes)'}, and ${named} is not it: ` +
      `what a record names becomes what recovery restores. If ${named} is where your handoffs live, set it as the handoff remote yourself (\`git config handoff.remote ${named}\`) and run this again.`,
    { remote: named, handoffRemote: chosen },
  );
}

export const recoverCommand = command({
  command: 'recover [ref..]',
  describe: 'restore handoffs, archive entries and receipts lost outside git-handoff (every version, by CAS; a rogue tip is kept aside)',
  builder: (y) =>
    y
      .positional('ref', { type: 'string', array: true, describe: 'only these refs (as the report names them); default: everything lost' })
      .option('scan', { type: 'boolean', describe: 'also rebuild from unreachable objects (git fsck): when the record itself is gone too' })
      .option('from', { type: 'string', requiresArg: true, describe: "first take this clone's loss record back from a handoff remote (where `sync` published it): a destroyed clone rebuilt" })
      .example('$0 recover', 'everything the last check reported lost')
      .example('$0 recover --scan', 'after refs and the record were deleted: handoff commits found by their trailers')
      .example('$0 recover --from origin', 'in a clone made again after the first one was destroyed: every version its record on origin names')
      .epilog(
        'A deleted handoff comes back at its recorded tip; a moved one goes back only when what is there now breaks the ' +
          'ownership rule, and that tip is kept at refs/handoff-rogue/…; two sound histories are both kept (the recorded one ' +
          'at refs/handoff-kept/…). An archived handoff is never brought back live. Exit 6 when something could not be restored.',
      ),
  handler: (a) => {
    if (a.from !== undefined) personOnly('recover', ['--from']);
    const repo = openRepo();
    if (a.from !== undefined) handoffRemoteOnly(repo, a.from);
    const from = a.from !== undefined ? recoverFrom(repo, a.from) : null;
    const scanned: RecoverResult | null = a.scan ? recoverScan(repo) : null;
    const r = recover(repo, { refs: a.ref });
    const actions = [...(scanned?.actions ?? []), ...r.actions];
    const result = { problem: r.problem ?? scanned?.problem ?? null, actions, left: r.left, ...(from ? { from } : {}) };
    const lines = actions.map((x) => `${x.action}: ${x.message}`);
    if (result.problem) lines.unshift(`the loss record: ${result.problem}`);
    if (from) lines.unshift(from.message ?? (from.ref ? `${from.remote}'s ${from.ref} holds nothing this clone's record does not` : `${from.remote} holds no loss record of this clone (nor of one clone whose place is gone): nothing taken from it`));
    if (lines.length === 0 && !r.left.length) lines.push('nothing lost: every recorded handoff, archive entry and receipt is in place');
    for (const l of r.left) if (!actions.some((x) => x.ref === l.ref)) lines.push(`left: ${l.detail}`);
    answer(a.json, result, lines);
    // exit 6 when a loss is left, or the record claimed a version that was not trusted (see the lines above)
    const refused = actions.filter((x) => x.action === 'refused').length;
    const why = r.left.length
      ? `${r.left.length} loss${r.left.length === 1 ? '' : 'es'} could not be restored (see above)`
      : `the record claimed ${refused} version${refused === 1 ? '' : 's'} that ${refused === 1 ? 'was' : 'were'} not trusted (see above); the refs stay as they are`;
    endWith(a.json, [(r.left.length > 0 || refused > 0) && { code: EXIT.integrity, why }]);
  },
});
