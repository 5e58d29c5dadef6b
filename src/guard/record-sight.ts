// The guard's first sight of a session (issue 23): the handoff refs against the loss record, as at every command's
// start. Stat calls only when the ref storage is as the last check left it; else the full check (record-check.ts),
// and what was lost goes to the model and the person: what, when last seen, the command that restores it.
import type { GuardContext } from './context';
import { guardLog, type Location } from './locate';

export async function lossesAtFirstSight(ctx: GuardContext, loc: Location): Promise<string | null> {
  if (ctx.env.GIT_HANDOFF_RECORD_CHECK === '0') return null;
  const { checkRecord, renderLosses, unchangedSinceCheck } = await import('../handoff/record/record-check');
  if (unchangedSinceCheck(loc.commonDir) || (await ctx.guardOff(loc))) return null;
  try {
    const text = renderLosses(checkRecord(await ctx.repo(loc))).trimEnd();
    return text ? `${text}\n(found at this session's first tool call: these were changed outside git-handoff, with no guard or git hook to refuse it)` : null;
  } catch (e) {
    // the record is a second line of defence: it never fails a tool call
    guardLog(loc, `the loss record's check failed: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}
