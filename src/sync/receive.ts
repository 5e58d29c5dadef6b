// The server side (`install --server`): a pre-receive hook that holds every pushed handoff update to the
// ownership invariant, so a forced push that rewrites or steals a handoff is refused and the pusher is told why.
import { readFileSync } from 'node:fs';
import { openRepo } from '../git/repo';
import { checkReceive, parseUpdates } from '../handoff/store/ref-updates';
import { stripTerminalControls } from '../terminal-text';
import { withoutRedactions } from '../handoff/secrets/redact-check';
import { describeVersions, receiveFindings } from './secrets-gate';

/** `git handoff githook pre-receive`: reads the updates on stdin, prints each refusal for the pusher, exits 1 if any. */
export async function preReceiveHook(input: string = readFileSync(0, 'utf8')): Promise<number> {
  const repo = openRepo(process.cwd());
  const updates = parseUpdates(input);
  // `git handoff redact` is the one rewrite let through, checked against its originals (SPEC 2.6)
  const refusals = await withoutRedactions(repo, checkReceive(repo, updates), updates);
  for (const r of refusals) {
    // ref names and messages came from the pusher: no control reaches a terminal through git's sideband
    process.stderr.write(stripTerminalControls(`git-handoff: refused ${r.ref}: ${r.message}\ngit-handoff:   ${r.hint}`) + '\n');
  }
  // the same secret scan as a client's write, on every incoming version (SPEC 2.6)
  const secrets = refusals.length ? [] : await receiveFindings(repo, updates);
  for (const l of describeVersions(secrets)) process.stderr.write(`git-handoff: refused (secret found) ${l}\n`);
  if (secrets.length) process.stderr.write('git-handoff:   rewrite them with `git handoff redact <topic>` before pushing; if a secret was real, rotate it\n');
  if (refusals.length || secrets.length) process.stderr.write(`git-handoff: the server kept its handoffs as they were; nothing in this push was applied.\n`);
  return refusals.length || secrets.length ? 1 : 0;
}
