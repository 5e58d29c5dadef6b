// The guard's part of claims (SPEC 10): a call that writes a path another live session claims on this branch is refused
// (told, with handoff.claims=tell) and the holder hears of it. Read from the claims state file only (no git).
import { existsSync } from 'node:fs';
import { claimsMarker } from '../handoff/state/claims-marker';
import { setting } from '../config-keys';
import { claimedByOthers, claimsOfOthers, claimWaysOn, describeHits, type Hit } from '../handoff/claims/tell';
import { modelReadsBefore, type GuardContext } from './context';
import type { Decision } from '../clients/event';
import { effectByRepo, effectOf } from './effect';
import { headBranch, type Location } from './locate';

/** What a verdict leaves to write once it stands (applied by lifecycle.ts applyEffects). */
export type Effect =
  /** the holder's own activity renews its claims */
  | { kind: 'renew-claims'; loc: Location }
  /** the holder of each claim met hears of it */
  | { kind: 'tell-holders'; hits: Array<Hit & { commonDir: string }>; refused: boolean }
  /** a note for a client whose model reads context only after the tool */
  | { kind: 'keep-note'; loc: Location; text: string };

export interface Verdict {
  decision: Decision;
  effects: Effect[];
}

export async function claimsOnWrite(ctx: GuardContext, loc: Location, d: Decision): Promise<Verdict> {
  if (!existsSync(claimsMarker(loc.commonDir))) return { decision: d, effects: [] };
  const effect = effectOf(ctx);
  const effects: Effect[] = [{ kind: 'renew-claims', loc }];
  const named = effectByRepo(ctx, true).flatMap(({ loc: l, paths }) => claimedByOthers(l.commonDir, headBranch(l), ctx.session, paths).map((h) => ({ ...h, commonDir: l.commonDir })));
  // a call that may write paths the guard cannot tell may write any path claimed on this branch
  const unknown = named.length === 0 && effect.unknown !== null;
  const hits = unknown ? claimsOfOthers(loc.commonDir, headBranch(loc), ctx.session).map((h) => ({ ...h, commonDir: loc.commonDir })) : named;
  if (hits.length === 0) return { decision: d, effects };
  const what = unknown ? `claims paths on this branch, and the guard cannot tell what this call writes (${effect.unknown}):\n${describeHits(hits)}` : `claims what this call writes:\n${describeHits(hits)}`;
  // claims hold by default; handoff.claims=tell makes them advisory
  const refused = setting(await ctx.config(loc), 'claims') !== 'tell';
  effects.push({ kind: 'tell-holders', hits, refused });
  const plainly = unknown ? ' Name the files it writes plainly (literal paths, code that names its files as plain strings), and the guard reads them.' : '';
  if (refused) return { decision: { ...d, deny: `git-handoff: refused: another live session ${what}\nNothing was written.${plainly} ${claimWaysOn(hits)}` }, effects };
  const tell = `git-handoff: another live session ${what}\nIt is changing these paths now (claims are advisory here: handoff.claims=tell): coordinate before you change them (its handoff, \`git handoff claims\`).`;
  // a call whose model reads no context before the tool gets it after the tool, as the worktree warning
  if (!modelReadsBefore(ctx.event) && ctx.session) return { decision: d, effects: [...effects, { kind: 'keep-note', loc, text: tell }] };
  return { decision: { ...d, context: d.context ? `${tell}\n${d.context}` : tell, notice: d.notice ? `${d.notice}\n${tell}` : tell }, effects };
}
