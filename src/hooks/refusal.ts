// What a refusing hook prints: what was found (sessions shortened as src/handoff/state/session.ts says, commits cut to 12) and
// numbered steps to fix. The bypass is offered to a person only: an agent is expected to fix.
import path from 'node:path';
import { stripTerminalControls } from '../terminal-text';

export interface Refusal {
  /** the exit code the handler returns (SPEC 4): 'owned' 3, 'integrity' 6; an internal error (1) never blocks */
  kind: 'owned' | 'integrity';
  /** one line: what is refused */
  what: string;
  /** what was found, one line each */
  found: string[];
  /** how to fix, in order */
  steps: string[];
  data?: Record<string, unknown>;
}

export const shortOid = (oid: string) => oid.slice(0, 12);

/** Where a refused reset that already reset the files leaves the commits it would have dropped, for pre-commit. */
export const refusedResetFile = (repo: { gitDir: string }) => path.join(repo.gitDir, 'handoff-refused-reset.json');
export function formatRefusal(hook: string, r: Refusal, personCanBypass: boolean, auditPath: string): string {
  const lines = [`git-handoff (${hook} hook): ${r.what}`, 'Found:'];
  for (const f of r.found) lines.push(`  - ${f}`);
  lines.push('To fix:');
  const steps = [...r.steps];
  if (personCanBypass) steps.push(`if you are a person and mean it: run the same git command with GIT_HANDOFF_BYPASS=1 (recorded in ${auditPath})`);
  steps.forEach((s, i) => lines.push(`  ${i + 1}. ${s}`));
  // refs, names and messages in a refusal came from data: git prints a hook's stderr to the terminal as it is
  return stripTerminalControls(lines.join('\n')) + '\n';
}
