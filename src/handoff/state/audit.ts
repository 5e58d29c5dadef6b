// The audit trail of bypasses (GIT_HANDOFF_BYPASS=1) and allowed secrets, shared by the guard, the hooks and commands.
import path from 'node:path';
import { handoffDir } from './paths';
import { appendState } from './state-file';

export const auditFile = (commonDir: string) => path.join(handoffDir(commonDir), 'audit.jsonl');

export function appendAudit(commonDir: string, record: Record<string, unknown>): void {
  appendState(auditFile(commonDir), JSON.stringify({ t: new Date().toISOString(), ...record }) + '\n', handoffDir(commonDir));
}
