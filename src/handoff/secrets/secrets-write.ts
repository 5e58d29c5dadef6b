// Writes that pass the secret scan first (write, import): the scan is async, the store's write is not.
import type { Storage } from '../../git/storage';
import { appendAudit } from '../state/audit';
import { validateBody } from '../store/document';
import type { ImportPlan } from '../import/import';
import { trace } from '../../trace';
import { prepareWrite, publicFinding, scanWaysOn, secretFoundError, type Finding, type Prepared, type ScanPolicy } from './secrets';
import { captureState, resolveBranch, writeHandoff, type WriteOptions } from '../store/store';

export type ScannedWriteResult = Awaited<ReturnType<typeof writeScanned>>;

/** One audit line per write that let a finding through (masked, never the secret). */
function auditAllowed(repo: Storage, source: string, ref: string, oid: string, session: string, p: Prepared): void {
  if (!p.allowed.length) return;
  appendAudit(repo.commonDir, { source, event: 'allow-secret', ref, oid, session, rules: [...new Set(p.allowed.map((f) => f.rule))], findings: p.allowed.map(publicFinding) });
}

/**
 * writeHandoff after the scan of what it would record (writeHandoff fills in the head): a finding refuses (exit 2,
 * nothing written) unless redacted or allowed; the result says how many --redact replaced and which rules were let through.
 */
export async function writeScanned(repo: Storage, o: WriteOptions, policy: ScanPolicy) {
  const text = validateBody(o.body);
  const branch = resolveBranch(repo, o.branch);
  const p = await prepareWrite(text, captureState(repo, branch, text, null), policy, o.takeover?.reason);
  trace('secret scan');
  if (p.refused.length) throw secretFoundError(p.refused, `the handoff ${o.topic}`, scanWaysOn('write'));
  const takeover = o.takeover ? { ...o.takeover, reason: p.reason ?? o.takeover.reason } : o.takeover;
  const r = writeHandoff(repo, { ...o, body: p.body, state: p.state, takeover, trailers: [...(o.trailers ?? []), ...p.trailers] });
  auditAllowed(repo, 'write', r.ref, r.oid, r.session, p);
  if (p.redacted) r.warnings.push(`redacted ${p.redacted} secret${p.redacted === 1 ? '' : 's'}: each replaced by [REDACTED:<rule>]`);
  return { ...r, redacted: p.redacted, allowedSecrets: [...new Set(p.allowed.map((f) => f.rule))] };
}

/** Scans every import plan before any is written: one finding refuses the whole import (exit 2). */
export async function scanImports(repo: Storage, plans: ImportPlan[], policy: ScanPolicy): Promise<{ redacted: number; audit: (results: Array<{ ref: string; oid: string | null; session: string; status: string }>) => void }> {
  const prepared: Prepared[] = [];
  const refused: Finding[] = [];
  for (const plan of plans) {
    const p = await prepareWrite(plan.body, captureState(repo, plan.branch, plan.body, null), policy);
    Object.assign(plan, { body: p.body, state: p.state, trailers: p.trailers });
    prepared.push(p);
    // name the file imported, not the body inside the handoff: the refusal lists every file
    refused.push(...p.refused.map((f) => ({ ...f, file: f.file === 'handoff.md' ? plan.file : `${plan.file} (${f.file})` })));
  }
  if (refused.length) throw secretFoundError(refused, 'the import', scanWaysOn('import'));
  return {
    redacted: prepared.reduce((n, p) => n + p.redacted, 0),
    audit: (results) => results.forEach((r, i) => r.oid && r.status !== 'unchanged' && r.status !== 'refused' && auditAllowed(repo, 'import', r.ref, r.oid, r.session, prepared[i])),
  };
}
