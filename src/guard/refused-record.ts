// A refused tool call, kept in the refusals record (src/handoff/state/refusals.ts) for `status` and `web`.
import type { GuardEvent } from '../clients/event';
import { noteRefusal } from '../handoff/state/refusals';

/** Records that `event` was refused with `reason`; nothing outside a repository, and never a failure. */
export function noteDenied(commonDir: string | undefined, event: GuardEvent, reason: string): void {
  if (!commonDir || event.kind !== 'pre-tool') return;
  const a = event.action;
  const what = a.type === 'shell' ? a.command : 'path' in a ? `${event.tool ?? a.type} ${a.path}` : `${event.tool ?? a.type}`;
  noteRefusal(commonDir, { by: 'guard', session: event.session, client: event.client, what, why: reason });
}
