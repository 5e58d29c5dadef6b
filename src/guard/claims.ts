// The guard's part of claims (SPEC 10): a tool call that writes a path another live session claims on this branch is
// told to the model with who and why (and to the person), or refused with `handoff.claims=enforce`. Read from the
// claims state file only (no git): a call with no claims state file pays one stat, in the front and the fast path.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { claimsMarker } from '../handoff/claims/marker';
import { setting } from '../config-keys';
import { claimedByOthers, describeHits } from '../handoff/claims/tell';
import type { GuardContext } from './context';
import type { Decision } from '../clients/event';
import { writtenPaths } from './lifecycle';
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
    const { readMarker } = await import('../handoff/claims/marker');
    const { claimLive } = await import('../handoff/claims/table');
    const { renewDue } = await import('../handoff/claims/claims');
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
  for (const abs of writtenPaths(ctx)) {
    const l = ctx.locateFile(abs);
    if (!l) continue;
    const e = byRepo.get(l.worktree) ?? { l, paths: [] };
    e.paths.push(path.relative(l.worktree, abs).split(path.sep).join('/'));
    byRepo.set(l.worktree, e);
  }
  await renewOwn(ctx, loc);
  const hits = [...byRepo.values()].flatMap(({ l, paths }) => claimedByOthers(l.commonDir, ctx.branch(l), ctx.session, paths));
  if (hits.length === 0) return d;
  const what = describeHits(hits);
  const enforce = setting(await ctx.config(loc), 'claims') === 'enforce';
  if (enforce) {
    return { ...d, deny: `git-handoff: refused (handoff.claims=enforce): another live session claims what this call writes:\n${what}\nWork on other paths, ask that session to release them (git handoff release <path>), or take the claim over on the record: git handoff claim <path> --take-over --reason "<why>".` };
  }
  const tell = `git-handoff: another live session claims what this call writes:\n${what}\nIt is changing these paths now: coordinate before you change them (its handoff, \`git handoff claims\`).`;
  return { ...d, context: d.context ? `${tell}\n${d.context}` : tell, notice: d.notice ? `${d.notice}\n${tell}` : tell };
}
