// The bypass audit: every GIT_HANDOFF_BYPASS=1 that let something through, one JSON line each, in
// <git-common-dir>/handoff/audit.jsonl (appends of one line are atomic, so writers never collide).
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { handoffDir } from './ledger';

export const auditFile = (commonDir: string) => path.join(handoffDir(commonDir), 'audit.jsonl');

/** Appends one record (with its time) to the audit log. */
export function appendAudit(commonDir: string, record: Record<string, unknown>): void {
  mkdirSync(handoffDir(commonDir), { recursive: true });
  appendFileSync(auditFile(commonDir), JSON.stringify({ t: new Date().toISOString(), ...record }) + '\n');
}
