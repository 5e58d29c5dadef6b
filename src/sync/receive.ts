// The server side (`install --server`): a pre-receive hook that holds every pushed handoff update to the
// ownership invariant, so a forced push that rewrites or steals a handoff is refused and the pusher is told why.
import { readFileSync } from 'node:fs';
import { openRepo } from '../git/repo';
import { checkReceive, parseUpdates } from '../handoff/ref-updates';

export { checkReceive, parseUpdates, type ReceiveUpdate, type Refusal } from '../handoff/ref-updates';

/** `git handoff githook pre-receive`: reads the updates on stdin, prints each refusal for the pusher, exits 1 if any. */
export function preReceiveHook(input: string = readFileSync(0, 'utf8')): number {
  const refusals = checkReceive(openRepo(process.cwd()), parseUpdates(input));
  for (const r of refusals) {
    process.stderr.write(`git-handoff: refused ${r.ref}: ${r.message}\ngit-handoff:   ${r.hint}\n`);
  }
  if (refusals.length) process.stderr.write(`git-handoff: the server kept its handoffs as they were; nothing in this push was applied.\n`);
  return refusals.length ? 1 : 0;
}
