// What only the person runs (SPEC 6, "Refused to sessions"), checked by the command itself where it can tell it runs
// inside an agent session: a client's session variable (src/clients/names.ts) in its environment. The guard refuses the
// same calls before they run (src/guard/rules/anchors.ts); this holds where the guard did not see the call.
import { agentSessionOf } from '../clients/names';
import { HandoffError } from '../errors';

/** Refuses `what` (install, uninstall, recover --from) inside an agent session: exit 2, code `person-only`. */
export function personOnly(what: string, env: NodeJS.ProcessEnv = process.env): void {
  const inside = agentSessionOf(env);
  if (!inside) return;
  throw new HandoffError(
    'usage',
    'person-only',
    `${what} is the person's to run, and this runs inside ${inside.session ? `agent session ${inside.session}` : `an agent session of ${inside.client}`} (${inside.variable} is set): nothing was changed. ` +
      `Run it from a terminal of your own, outside the agent's session.`,
    { variable: inside.variable, session: inside.session },
  );
}

/**
 * Refuses to claim or release for `session` (its whole id, or the unique start of 8 or more characters release takes)
 * inside an agent session that is another: exit 2, code `other-session`.
 */
export function onlyOwnSession(verb: 'claim' | 'release', session: string, env: NodeJS.ProcessEnv = process.env): void {
  const inside = agentSessionOf(env);
  if (!inside?.session || inside.session === session || (verb === 'release' && session.length >= 8 && inside.session.startsWith(session))) return;
  throw new HandoffError(
    'usage',
    'other-session',
    `this runs inside agent session ${inside.session} (${inside.variable}), which may ${verb} only for itself, not for session ${session}: nothing was changed. ` +
      `Drop --session; another session's claim ends with that session, its expiry, or \`git handoff claim … --take-over --reason "<why>"\` (on the record).`,
    { variable: inside.variable, session: inside.session, named: session },
  );
}
