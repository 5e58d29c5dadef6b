// The decider (SPEC 6): one tool call, with a read-only look at the world (GuardContext), in; one verdict and the
// state it leaves to write out. It writes nothing itself: the adapter (entry.ts) applies the effects once the
// verdict stands (lifecycle.ts applyEffects).
import type { GuardContext } from './context';
import type { Verdict } from './claims';
import type { Location } from './locate';
import { surelyHarmless } from './allow';

/** The verdict on a before-tool call of the session located at `loc` (null: no session, or no repository). */
export async function judge(ctx: GuardContext, loc: Location | null): Promise<Verdict> {
  // a shell whose input stays open for what no hook sees: src/guard/interactive.ts
  const a = ctx.event.action;
  const open = a.type === 'shell' && a.stdinUnseen ? [a.command] : a.type === 'paths' ? (a.commands ?? []) : [];
  const interactive = open.length ? (await import('./interactive')).interactiveProblem(ctx, open, a.type === 'shell' ? a.cwd : null) : null;
  if (interactive) return { decision: { deny: interactive }, effects: [] };
  const decision = surelyHarmless(a, ctx.shellLine) ? {} : await (await import('./rules/pre-tool')).preTool(ctx);
  // a write to a path another live session claims: told with who and why, refused with handoff.claims=enforce (a stranger's too: it owns no claim)
  const claimsAt = decision.deny === undefined ? (loc ?? (ctx.session ? null : ctx.locate())) : null;
  return claimsAt ? (await import('./claims')).claimsOnWrite(ctx, claimsAt, decision) : { decision, effects: [] };
}
