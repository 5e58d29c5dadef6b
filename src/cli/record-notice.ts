// The check at command start (issue 23): every command compares the handoff refs with the loss record and says
// what was lost outside git-handoff, when it was last seen, and the command that restores it.
import { openRepo } from '../git/repo';
import { checkRecord, renderLosses } from '../handoff/record/record-check';
import { compareReads } from '../handoff/record/record-reads';

// boot restores by itself (session start); recover checks in full itself; these never touch a repository's refs
const OWN_CHECK = new Set(['boot', 'recover', 'guard', 'githook', 'completion', '__complete', '']);

/** Runs the check for `command`; never fails it (outside a repository, or on any error, it says nothing). */
export function noticeLosses(command: string): void {
  if (OWN_CHECK.has(command) || process.env.GIT_HANDOFF_RECORD_CHECK === '0') return;
  try {
    const repo = openRepo(process.cwd());
    const check = checkRecord(repo);
    const text = renderLosses(check);
    if (text) process.stderr.write(text);
    // stat-only: a ref file rewritten in place is found when the command reads that ref (record-reads.ts)
    else if (check.cached) compareReads(repo, (t) => process.stderr.write(t));
  } catch {
    // not a repository, or git cannot answer: the command itself says so
  }
}
