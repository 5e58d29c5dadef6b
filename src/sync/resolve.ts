// `git handoff sync --resolve <topic> --keep local|remote|both`: a merge commit over both tips of a diverged handoff.
import { quote } from 'shell-quote';
import { HandoffError } from '../errors';
import { readConfig } from '../git/config';
import { parseCommit } from '../git/storage';
import type { Repo } from '../git/repo';
import { assertTopic, parseRef, trackingOf } from '../handoff/store/names';
import { readTrailersOf } from '../handoff/store/ownership';
import { short, type SessionRef } from '../handoff/state/session';
import { notFound, viewOf, type HandoffView } from '../handoff/store/store';
import { namesOf } from './fetch';
import { commitVersion } from '../handoff/store/tx';
import { bothTips, moveOverBoth, restoreCommand } from './refused';

export type Keep = 'local' | 'remote' | 'both';
export const KEEPS: Keep[] = ['local', 'remote', 'both'];

/**
 * `sync --resolve` ready to paste where no session id is set, as the local version's owner: keeping both versions
 * (`local|remote|both` would be a shell pipe), or with no --keep for a refused one. `checkedOut` null: --branch always.
 */
export function resolveStep(repo: Repo, ref: string, local: string | null | undefined, checkedOut: string | null, remote?: string, keep: 'both' | null = 'both'): string {
  const t = local ? readTrailersOf(repo, [local]).get(local) : undefined;
  const who = t?.person || t?.session?.startsWith('person:') ? ' --person' : t?.session ? ` --session ${quote([t.session])}` : '';
  return `${restoreCommand(parseRef(ref)?.topic ?? '<topic>', branchFlag(ref, checkedOut), remote)}${keep ? ` --keep ${keep}` : ''}${who}`;
}

/** ` --branch <b>` when the handoff is not on the checked-out branch (`checkedOut` null: always). */
export function branchFlag(ref: string, checkedOut: string | null): string {
  const { branch } = namesOf(ref);
  return branch && branch !== checkedOut ? ` --branch ${quote([branch])}` : '';
}

export interface ResolveOptions {
  topic: string;
  branch: string;
  keep: Keep;
  remote: string;
  session: SessionRef;
  reason?: string;
  /** trailer lines for the merge (the secret scan's record, src/sync/secrets-gate.ts) */
  trailers?: string[];
}

interface ResolveResult {
  ref: string;
  oid: string;
  parents: [string, string];
  keep: Keep;
  session: string;
  /** the owners whose side the resolver took over, on the record */
  takeoverFrom: string[];
}

/** The body kept with --keep both: each version whole, under a heading that says whose it is. */
export function bothBodies(topic: string, local: HandoffView, remote: HandoffView, remoteName: string): string {
  const side = (v: HandoffView, where: string) =>
    `## Version by session ${short(v.session, [local.session, remote.session])} (${v.oid.slice(0, 12)}, ${v.updatedAt}, ${where})\n\n${v.body.replace(/\s+$/, '')}\n`;
  return (
    `# ${topic}: two versions kept (diverged, resolved with --keep both)\n\n` +
    `${side(local, 'the resolving clone\'s side')}\n${side(remote, `${remoteName}'s side`)}`
  );
}

/**
 * Writes the merge of the local and remote tips (a fast-forward from both). Each side's owner is the resolver or is
 * named as taken over; two other owners: the local side is first taken over in a commit of its own.
 */
export function resolveDivergence(repo: Repo, o: ResolveOptions): ResolveResult {
  const topic = assertTopic(o.topic);
  const { ref, localTip, remoteTip, state } = bothTips(repo, o.branch, topic, o.remote);
  if (!localTip) throw notFound(ref, o.branch, topic);
  if (!remoteTip) {
    throw new HandoffError('usage', 'not-diverged', `${ref} has no copy from ${o.remote}; run \`git handoff fetch ${o.remote}\` first`, { ref });
  }
  if (state !== 'diverged') {
    throw new HandoffError('usage', 'not-diverged', `${ref} is ${state} against ${o.remote}, not diverged: \`git handoff sync ${o.remote}\` carries it without a merge`, { ref, state });
  }
  const local = viewOf(repo, ref, localTip, o.branch, topic);
  const remote = viewOf(repo, trackingOf(o.remote, ref), remoteTip, o.branch, topic);
  const config = readConfig(repo);
  const reason = o.reason?.trim() || `resolved a divergence with ${o.remote}, keeping ${o.keep}`;
  const me = o.session.id;
  const message = (body: string, takeoverFrom: string | null) =>
    ({ topic, body, session: me, branch: local.branch, head: o.keep === 'remote' ? remote.head : local.head, client: o.session.client, takeoverFrom, reason: takeoverFrom ? reason : null, extra: o.trailers });

  const [localCommit, remoteCommit] = repo.readObjects([localTip, remoteTip]).map((c) => parseCommit(c!.content));
  let tree: string;
  let body: string;
  if (o.keep === 'both') {
    body = bothBodies(topic, local, remote, o.remote);
    const [state] = repo.readObjects([`${localTip}:state.json`]);
    tree = repo.writeTree([
      { name: 'handoff.md', oid: repo.writeBlobs([body])[0] },
      { name: 'state.json', oid: repo.writeBlobs([state ? state.content.toString('utf8') : '{}\n'])[0] },
    ]);
  } else {
    const kept = o.keep === 'local' ? local : remote;
    body = kept.body;
    tree = (o.keep === 'local' ? localCommit : remoteCommit).tree;
  }

  const takeoverFrom: string[] = [];
  let first = localTip;
  const foreign = [local.session, remote.session].filter((s): s is string => !!s && s !== me);
  if (new Set(foreign).size === 2) {
    first = commitVersion(repo, localCommit.tree, [localTip], message(local.body, local.session), config);
    takeoverFrom.push(local.session!);
  }
  const named = first === localTip ? foreign[0] ?? null : remote.session !== me ? remote.session : null;
  if (named) takeoverFrom.push(named);
  const merge = commitVersion(repo, tree, [first, remoteTip], message(body, named), config);
  moveOverBoth(repo, ref, merge, [localTip, remoteTip], { step: 'resolve', noun: 'merge', reason: `handoff resolve ${topic}` });
  return { ref, oid: merge, parents: [first, remoteTip], keep: o.keep, session: me, takeoverFrom };
}
