// The audit trail of bypasses (GIT_HANDOFF_BYPASS=1) and allowed secrets, shared by the guard, the hooks and commands.
import { localRecord } from './state-file';

const AUDIT = localRecord('audit.jsonl');
export const auditFile = (commonDir: string) => AUDIT.at(commonDir);

export const appendAudit = (commonDir: string, record: Record<string, unknown>) => AUDIT.append(commonDir, { t: new Date().toISOString(), ...record });
