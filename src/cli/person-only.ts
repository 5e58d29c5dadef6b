// What only the person runs (SPEC 6, "Refused to sessions"), checked by the command itself where it can tell it runs
// inside an agent session: a client's session variable (src/clients/names.ts) in its environment. The rules are the
// guard's (src/guard/rules/anchors.ts); this holds where the guard did not see the call.
import { agentSessionOf } from '../clients/names';
import { HandoffError } from '../errors';
import { otherSessionProblem, personOnlyCommand } from '../guard/rules/anchors';

/** Inside an agent session, refuses what `problem` finds wrong for it: exit 2, nothing changed. */
function refuseInsideSession(code: string, problem: (session: string | null) => string | null, data: Record<string, unknown> = {}): void {
  const inside = agentSessionOf(process.env);
  const why = inside && problem(inside.session);
  if (!inside || !why) return;
  const session = inside.session ? `agent session ${inside.session}` : `an agent session of ${inside.client}`;
  const who = code === 'person-only' ? `${why} This runs inside ${session}` : `this command ${why}`;
  throw new HandoffError('usage', code, `${who} (${inside.variable} is set): nothing was changed.`, { variable: inside.variable, session: inside.session, ...data });
}

/** Refuses `git handoff <sub> <rest>` inside an agent session where only the person runs it: code `person-only`. */
export const personOnly = (sub: string, rest: string[]) => refuseInsideSession('person-only', () => personOnlyCommand(sub, rest));

/** Refuses to claim or release for `session` inside an agent session that is another: code `other-session`. */
export const onlyOwnSession = (verb: 'claim' | 'release', session: string) =>
  refuseInsideSession('other-session', (own) => own && otherSessionProblem(verb, session, own), { named: session });
