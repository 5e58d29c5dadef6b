// The guard's part of claims (SPEC 10): a tool call that writes a path another live session claims on this branch is
// refused with who, why, until when and the ways on (with `handoff.claims=tell`, told to the model and the person
// instead), and the holder hears of it. Read from the claims state file only (no git): a call with no claims state
// file pays one stat, in the front and the fast path.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { claimLive, claimsMarker, readMarker, renewDue } from '../handoff/state/claims-marker';
import { setting } from '../config-keys';
import { claimedByOthers, claimsOfOthers, claimWaysOn, describeHits, holderNote, type Hit } from '../handoff/claims/tell';
import { isKnownSession } from '../handoff/state/lineage-record';
import { leaveNote } from '../handoff/state/notes';
import type { GuardContext } from './context';
import type { Decision } from '../clients/event';
import { keepForAfterTool, modelReadsBefore } from './lifecycle';
import { effectOf } from './effect';
import type { Location } from './locate';

/**
 * The holder's own activity renews its claims: only once less than a quarter of a claim's lifetime is left (the state
 * file says so without git), then one change of the table (a push with a handoff remote). Never fails the call.
 */
async function renewOwn(ctx: GuardContext, loc: Location): Promise<void> {
  const session = ctx.session;
  const branch = ctx.branch(loc);
  if (!session || !branch) return;
  try {
    const now = Date.now();
    if (!readMarker(loc.commonDir).some((c) => c.session === session && c.branch === branch && claimLive(c, now) && renewDue(c, now))) return;
    const { changeClaims, renewMutation } = await import('../handoff/claims/claims');
    await changeClaims(await ctx.repo(loc), branch, session, renewMutation(branch, session));
  } catch {
    // the claim lasts to its expiry; the next write tries again
  }
}

export async function claimsOnWrite(ctx: GuardContext, loc: Location, d: Decision): Promise<Decision> {
  if (!existsSync(claimsMarker(loc.commonDir))) return d;
  const byRepo = new Map<string, { l: Location; paths: string[] }>();
  const effect = effectOf(ctx);
  for (const abs of effect.paths) {
    const l = ctx.locateFile(abs);
    if (!l) continue;
    const e = byRepo.get(l.worktree) ?? { l, paths: [] };
    e.paths.push(path.relative(l.worktree, abs).split(path.sep).join('/'));
    byRepo.set(l.worktree, e);
  }
  await renewOwn(ctx, loc);
  const named = [...byRepo.values()].flatMap(({ l, paths }) => claimedByOthers(l.commonDir, ctx.branch(l), ctx.session, paths).map((h) => ({ ...h, commonDir: l.commonDir })));
  // a call that may write paths the guard cannot tell may write any path claimed on this branch
  const unknown = named.length === 0 && effect.unknown !== null;
  const hits = unknown ? claimsOfOthers(loc.commonDir, ctx.branch(loc), ctx.session).map((h) => ({ ...h, commonDir: loc.commonDir })) : named;
  if (hits.length === 0) return d;
  const what = unknown ? `claims paths on this branch, and the guard cannot tell what this call writes (${effect.unknown}):\n${describeHits(hits)}` : `claims what this call writes:\n${describeHits(hits)}`;
  // claims hold by default; handoff.claims=tell makes them advisory
  const refused = setting(await ctx.config(loc), 'claims') !== 'tell';
  tellHolders(ctx, hits, refused);
  const plainly = unknown ? ' Name the files it writes plainly (literal paths, code that names its files as plain strings), and the guard reads them.' : '';
  if (refused) return { ...d, deny: `git-handoff: refused: another live session ${what}\nNothing was written.${plainly} ${claimWaysOn(hits)}` };
  const tell = `git-handoff: another live session ${what}\nIt is changing these paths now (claims are advisory here: handoff.claims=tell): coordinate before you change them (its handoff, \`git handoff claims\`).`;
  // a call whose context its model would not read before the tool (Gemini CLI's file tools: BeforeTool's only channel,
  // systemMessage, is the person's) gets it after the tool, model and person, as the worktree warning
  if (!modelReadsBefore(ctx.event) && ctx.session) {
    keepForAfterTool(loc, ctx.session, tell);
    return d;
  }
  return { ...d, context: d.context ? `${tell}\n${d.context}` : tell, notice: d.notice ? `${d.notice}\n${tell}` : tell };
}

/** The holder of each claim met hears of it at its next tool call and session start (a session this clone has seen). */
function tellHolders(ctx: GuardContext, hits: Array<Hit & { commonDir: string }>, refused: boolean): void {
  if (!ctx.session) return;
  try {
    for (const commonDir of new Set(hits.map((h) => h.commonDir))) {
      for (const n of holderNote(hits.filter((h) => h.commonDir === commonDir), ctx.session, ctx.event.client, refused)) {
        if (isKnownSession(commonDir, n.holder)) leaveNote(commonDir, n.holder, { kind: 'claim-refused', key: n.key, text: n.text });
      }
    }
  } catch {
    // telling the holder is best effort: the call's own answer stands
  }
}
