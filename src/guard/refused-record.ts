// A refused tool call, kept in the refusals record (src/handoff/state/refusals.ts) for `status` and `web`.
import type { GuardEvent } from '../clients/event';
import { PROBE_COMMAND, PROBE_SESSION } from '../clients/record';
import { noteRefusal } from '../handoff/state/refusals';

/** Records that `event` was refused with `reason`; nothing outside a repository, and never a failure. */
export function noteDenied(commonDir: string | undefined, event: GuardEvent, reason: string): void {
  if (!commonDir || event.kind !== 'pre-tool') return;
  const a = event.action;
  // doctor's probes (each client's shape, some with no session field) are the product's own, for no person to act on
  if (event.session === PROBE_SESSION || (a.type === 'shell' && a.command === PROBE_COMMAND)) return;
  const what = a.type === 'shell' ? a.command : 'path' in a ? `${event.tool ?? a.type} ${a.path}` : `${event.tool ?? a.type}`;
  noteRefusal(commonDir, { by: 'guard', session: event.session, client: event.client, what, why: reason });
}
