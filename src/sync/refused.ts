// A remote version this clone refuses (SPEC 7): the handoff stands `refused` until its owner's `sync --resolve <topic>`
// writes a version on top of the remote's naming it (Handoff-Refused): a fast-forward everywhere.
import { quote } from 'shell-quote';
import { HandoffError } from '../errors';
import { parseCommit } from '../git/storage';
import type { Repo } from '../git/repo';
import { assertTopic, handoffRef, trackingOf } from '../handoff/store/names';
import { checkAdvances, remoteViolations, type Violation } from '../handoff/store/ownership';
import type { SessionRef } from '../handoff/state/session';
import { viewOf } from '../handoff/store/store';
import { ancestryOf, compareTips } from '../handoff/store/sync-state';
import { commitVersion, moveRef } from '../handoff/store/tx';
import type { HandoffMerge } from './fetch';

/** The way on, as the commands print it. */
export const restoreCommand = (topic: string, branchFlag = '', remote?: string) => `git handoff sync${remote ? ` ${quote([remote])}` : ''} --resolve ${topic}${branchFlag}`;

/** The fetched handoffs this clone has and refused the remote's version of: the ones with a way on. */
export const refusedOf = (handoffs: HandoffMerge[]) => handoffs.filter((h) => h.action === 'refused' && h.local && h.remote && (h.case === 'remote-ahead' || h.case === 'diverged'));

interface RefusedState {
  ref: string;
  localTip: string;
  remoteTip: string;
  violation: Violation;
}

/** A handoff's local tip, the remote's tracking copy of it, and how the two stand (null: either is missing). */
export function bothTips(repo: Repo, branch: string, topic: string, remote: string) {
  const ref = handoffRef(branch, assertTopic(topic));
  const localTip = repo.readRef(ref);
  const remoteTip = localTip ? repo.readRef(trackingOf(remote, ref)) : null;
  const state = localTip && remoteTip ? compareTips(ancestryOf(repo, [localTip, remoteTip]), localTip, remoteTip) : null;
  return { ref, localTip, remoteTip, state };
}

/** The handoff's remote version, when this clone refuses it; null when it may be taken or merged. */
export function refusedState(repo: Repo, branch: string, topic: string, remote: string): RefusedState | null {
  const { ref, localTip, remoteTip, state } = bothTips(repo, branch, topic, remote);
  if (state !== 'behind' && state !== 'diverged') return null;
  const [v] = remoteViolations(repo, [{ local: localTip, remote: remoteTip!, state }]);
  return v ? { ref, localTip: localTip!, remoteTip: remoteTip!, violation: v } : null;
}

interface RestoreOptions {
  topic: string;
  branch: string;
  remote: string;
  session: SessionRef;
  reason?: string;
}

interface RestoreResult {
  ref: string;
  oid: string;
  parents: [string, string];
  /** the remote version it refuses, on the record (Handoff-Refused) */
  refused: string;
  violation: Violation;
  session: string;
  /** the owner the restorer took the handoff over from, when it was not the owner */
  takeoverFrom: string | null;
}

/** Writes, on top of both tips, a version with this clone's content naming the remote's as refused (not the owner: a takeover). */
export function restoreRefused(repo: Repo, o: RestoreOptions, s: RefusedState): RestoreResult {
  const local = viewOf(repo, s.ref, s.localTip, o.branch, o.topic);
  const me = o.session.id;
  const takeoverFrom = local.session && local.session !== me ? local.session : null;
  const why = o.reason?.trim() || `restored over ${s.remoteTip.slice(0, 12)}, refused: ${s.violation.message}`;
  const message = {
    topic: o.topic,
    body: local.body,
    session: me,
    branch: local.branch,
    head: local.head,
    client: o.session.client,
    takeoverFrom,
    reason: takeoverFrom ? why : null,
    refused: s.remoteTip,
    extra: takeoverFrom ? [] : [`Handoff-Reason: ${why}`],
  };
  const [localCommit] = repo.readObjects([s.localTip]).map((c) => parseCommit(c!.content));
  const oid = commitVersion(repo, localCommit.tree, [s.localTip, s.remoteTip], message);
  moveOverBoth(repo, s.ref, oid, [s.localTip, s.remoteTip], { step: 'restore', noun: 'restoring version', reason: `handoff restore ${o.topic} over ${s.remoteTip.slice(0, 12)}` });
  return { ref: s.ref, oid, parents: [s.localTip, s.remoteTip], refused: s.remoteTip, violation: s.violation, session: me, takeoverFrom };
}

/** Moves `ref` from the local tip to `oid`, a version on top of both tips, once the ownership rule allows it from each. */
export function moveOverBoth(repo: Repo, ref: string, oid: string, [localTip, remoteTip]: [string, string], o: { step: 'restore' | 'resolve'; noun: string; reason: string }): void {
  const v = checkAdvances(repo, [localTip, remoteTip].map((tip) => ({ oldOid: tip, newOid: oid }))).find(Boolean);
  if (v) throw new HandoffError('integrity', `${o.step}-breaks-invariant`, `the ${o.noun} would break the ownership invariant: ${v.message}`, { ref, violation: v });
  const r = moveRef(repo, ref, oid, localTip, o.reason, { what: `the ${o.noun} of ${ref}` });
  if (!r.ok) throw new HandoffError('concurrent', 'concurrent-update', `${ref} changed while it was being ${o.step}d; nothing was written. Run the resolve again.`, { ref });
}

/** --keep remote|both on a refused handoff: the stolen side is never kept. */
export function keepRefusedError(s: RefusedState, topic: string): HandoffError {
  return new HandoffError(
    'usage',
    'keep-refused-side',
    `${s.ref}: the remote's version breaks the ownership invariant (${s.violation.message}); it is never kept. \`${restoreCommand(topic)}\` restores this clone's version on top of it.`,
    { ref: s.ref, violation: s.violation },
  );
}
