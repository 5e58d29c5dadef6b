// The audit trail of bypasses (GIT_HANDOFF_BYPASS=1): one JSON line per event in <git-common-dir>/handoff/audit.jsonl,
// shared by the agent guard and the git hooks.
import path from 'node:path';
import { handoffDir } from './paths';
import { appendState } from './state-file';

export const auditFile = (commonDir: string) => path.join(handoffDir(commonDir), 'audit.jsonl');

/** Appends `record` with a timestamp (`t`, ISO 8601); one line, so concurrent appends never interleave. */
export function appendAudit(commonDir: string, record: Record<string, unknown>): void {
  appendState(auditFile(commonDir), JSON.stringify({ t: new Date().toISOString(), ...record }) + '\n', handoffDir(commonDir));
}
