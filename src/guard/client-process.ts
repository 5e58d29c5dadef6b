// The client process a hook runs for, for the lease and for `sessions` (a session whose process has exited is not
// live): the one its hooks' variable names (ClientRecord.pidVariable, checked to be an ancestor: src/guard/lineage.ts),
// else the nearest ancestor that is the client (ClientRecord.isProcess). Only where /proc says; null elsewhere.
import { readFileSync } from 'node:fs';
import { ancestors } from '../handoff/state/lineage-record';
import type { GuardClient } from '../clients/event';
import { RECORDS } from '../clients/records';
import { clientPid } from './lineage';

function nearestAncestor(test: (argv: string[], comm: string) => boolean): number | null {
  for (const { pid, argv } of ancestors()) {
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return null;
    }
    if (test(argv, comm)) return pid;
  }
  return null;
}

/** The pid of the client process this hook runs for, or null when it cannot be told. */
export function clientProcess(client: GuardClient, env: NodeJS.ProcessEnv): number | null {
  const r = RECORDS[client];
  if (r.pidVariable) return clientPid(client, env);
  return r.isProcess ? nearestAncestor(r.isProcess) : null;
}
