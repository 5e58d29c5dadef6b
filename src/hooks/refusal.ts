// What a refusing hook prints: what was found and numbered steps to fix; the bypass is offered to a person only.
import path from 'node:path';
import { stripTerminalControls } from '../terminal-text';
import { short as shortSession } from '../handoff/state/session';

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

/** At most `max` of `lines`, then how many more. */
export const capped = (lines: string[], max = 10): string[] => (lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines);
/** At most `max` of `items` on one line, then how many more. */
export const cappedList = (items: string[], max = 10): string => items.slice(0, max).join(', ') + (items.length > max ? `, … (${items.length - max} more)` : '');

/** Other sessions' commits a move of the acting `session` would drop, as a refusal says them. */
export function droppedWork(dropped: ReadonlyArray<{ oid: string; session: string }>, session: string) {
  const owners = [...new Set(dropped.map((d) => d.session))];
  const short = (s: string) => shortSession(s, [...owners, session]);
  return {
    what: `${dropped.length} commit${dropped.length === 1 ? '' : 's'} of ${owners.length === 1 ? 'another session' : 'other sessions'}`,
    found: capped(dropped.map((d) => `commit ${shortOid(d.oid)} by session ${short(d.session)}`)),
    acting: `acting session: ${shortSession(session, owners)}`,
    owners: owners.map(short).join(', '),
  };
}

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
