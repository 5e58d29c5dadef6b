// What only the person runs (SPEC 6, "Refused to sessions"), checked by the command itself where it can tell it runs
// inside an agent session: a client's session variable (src/clients/names.ts) in its environment. The rule is the
// guard's (src/guard/rules/anchors.ts); this holds where the guard did not see the call.
import { agentSessionOf } from '../clients/names';
import { HandoffError } from '../errors';
import { otherSessionProblem, personOnlyCommand } from '../guard/rules/anchors';

/** Refuses `git handoff <sub> <rest>` inside an agent session where only the person runs it: exit 2, code `person-only`. */
export function personOnly(sub: string, rest: string[]): void {
  const inside = agentSessionOf(process.env);
  const why = inside && personOnlyCommand(sub, rest);
  if (!inside || !why) return;
  throw new HandoffError(
    'usage',
    'person-only',
    `${why} This runs inside ${inside.session ? `agent session ${inside.session}` : `an agent session of ${inside.client}`} (${inside.variable} is set): nothing was changed.`,
    { variable: inside.variable, session: inside.session },
  );
}

/** Refuses to claim or release for `session` inside an agent session that is another: exit 2, code `other-session`. */
export function onlyOwnSession(verb: 'claim' | 'release', session: string): void {
  const inside = agentSessionOf(process.env);
  const why = inside?.session ? otherSessionProblem(verb, session, inside.session) : null;
  if (!inside || !why) return;
  throw new HandoffError('usage', 'other-session', `this command ${why} (${inside.variable} is set): nothing was changed.`, { variable: inside.variable, session: inside.session, named: session });
}
