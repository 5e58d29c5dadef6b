// The secret scan at the machine's edges: before `push`/`sync` send versions, and in the server's receive check.
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, assertTopic, handoffRef, HANDOFF_PREFIX, parseRef, trackingOf } from '../handoff/store/names';
import { parseCommit } from '../git/storage';
import { RECORD_REF } from '../handoff/store/tx/record';
import { describeVersions, publicFinding, scanRecord, scanTexts, scanVersions, secretFoundError, type VersionFindings } from '../handoff/secrets/secrets';
import { SECRET_TRAILER, secretTrailersOf } from '../handoff/store/document';
import { viewOf } from '../handoff/store/store';
import { bothBodies, type ResolveOptions } from './resolve';
import { trackingRoot } from './remote';
import type { RefUpdate } from '../handoff/store/tx/batch';

const isHandoff = (ref: string) => ref.startsWith(HANDOFF_PREFIX) || ref.startsWith(ARCHIVE_PREFIX);

/** Refuses a push (exit 6, nothing sent) while a version it would send, with no scan record, has an unallowed finding. */
export async function assertPushClean(repo: Repo, remote: string, o: { record?: boolean; differing?: string[]; seen?: string[] } = {}): Promise<VersionFindings[]> {
  // every local handoff and archive version the remote has not seen (a diverged one too: it is sent once resolved),
  // and with the loss record going along (sync), every version it reaches, in the same one walk; from the refs that
  // differ from their tracking copies when the caller knows them (the walk starts from them alone), and short of what
  // the remote holds of them when the caller knows that (`seen`: git then parses those tips, not every tracking ref)
  const handoffs = o.differing ?? ['--glob=refs/handoffs/*', '--glob=refs/handoff-archive/*'];
  const seen = o.seen ?? [`--glob=${trackingRoot(remote)}*`];
  // a walk git cannot make is no clean walk: the push stops (strict)
  const versions = repo.commitsVia([...handoffs, ...(o.record ? [RECORD_REF] : [])], { not: seen, strict: true });
  let found = await scanVersions(repo, versions, { skipScanned: true });
  if (!found.length) return [];
  if (o.record) {
    // which findings a handoff ref reaches (a second walk, only when something was found): the rest only the record
    // reaches (a version dropped, or moved aside), so the record stays here and the handoffs go
    const viaHandoffs = new Set(repo.commitsVia(handoffs, { not: seen, strict: true }).map((v) => v.oid));
    const recordOnly = found.filter((f) => !viaHandoffs.has(f.oid));
    found = found.filter((f) => viaHandoffs.has(f.oid));
    if (!found.length) return recordOnly;
  }
  const topics = [...new Set(found.map((f) => parseRef(f.ref)).filter((p) => p?.kind === 'handoff').map((p) => p!.topic))];
  throw new HandoffError(
    'integrity',
    'secret-found',
    `${found.length === 1 ? 'a version' : `${found.length} versions`} about to be pushed to ${remote} contain${found.length === 1 ? 's' : ''} secrets; nothing was pushed:\n` +
      describeVersions(found).map((l) => `  ${l}`).join('\n') +
      '\nWays on:\n' +
      (topics.length ? `  1. rewrite them here with the secrets replaced: ${topics.map((t) => `git handoff redact ${t}`).join('; ')}\n` : '') +
      `  ${topics.length ? 2 : 1}. if a secret was real, rotate it: it was in a session and may be in other logs`,
    { remote, versions: found.map(publicVersion) },
  );
}

const publicVersion = (v: VersionFindings) => ({ ref: v.ref, oid: v.oid, findings: v.findings.map(publicFinding) });

/** The pre-push hook's scan of a plain `git push` of handoff refs: what the remote has not seen and no scan record covers. */
export async function pushLineFindings(repo: Repo, remote: string, lines: Array<{ ref: string; oid: string | null; remoteOid: string | null }>): Promise<VersionFindings[]> {
  const tips = lines.filter((l) => l.oid && isHandoff(l.ref)).map((l) => ({ ref: l.ref, oid: l.oid! }));
  if (!tips.length) return [];
  const remoteOids = lines.map((l) => l.remoteOid).filter((o): o is string => !!o);
  const known = repo.readObjects(remoteOids).flatMap((o, i) => (o ? [remoteOids[i]] : []));
  return scanFromTips(repo, tips, [...known, `--remotes=${remote}`], true);
}

/** The versions the tips reach and `exclude` does not, each named by its tip's ref, scanned. */
function scanFromTips(repo: Repo, tips: Array<{ ref: string; oid: string }>, exclude: string[], skipScanned: boolean): Promise<VersionFindings[]> {
  const refOf = new Map(tips.map((t) => [t.oid, t.ref]));
  return scanVersions(repo, repo.commitsVia([...refOf.keys()], { not: exclude, strict: true }).map((v) => ({ oid: v.oid, ref: refOf.get(v.ref) ?? v.ref })), { skipScanned });
}

/** The server's scan of a push: every incoming version of a handoff ref, scan records not trusted. */
export async function receiveFindings(repo: Repo, updates: RefUpdate[]): Promise<VersionFindings[]> {
  const tips = updates.filter((u) => u.newOid && isHandoff(u.ref)).map((u) => ({ ref: u.ref, oid: u.newOid! }));
  return tips.length ? scanFromTips(repo, tips, ['--all'], false) : [];
}

/** `sync --resolve`: scans the body the merge would keep (rules the kept versions allowed stay allowed) and
 *  returns the trailers that record it; a finding refuses (exit 2) before anything is written. */
export async function scanResolve(repo: Repo, o: ResolveOptions): Promise<string[]> {
  const ref = handoffRef(o.branch, assertTopic(o.topic));
  const tips = [repo.readRef(ref), repo.readRef(trackingOf(o.remote, ref))];
  if (!tips[0] || !tips[1]) return []; // resolveDivergence names what is missing
  const [local, remote] = [viewOf(repo, ref, tips[0], o.branch, o.topic), viewOf(repo, trackingOf(o.remote, ref), tips[1], o.branch, o.topic)];
  const kept = o.keep === 'both' ? [local, remote] : o.keep === 'local' ? [local] : [remote];
  const body = o.keep === 'both' ? bothBodies(o.topic, local, remote, o.remote) : kept[0].body;
  const allowed = new Set(repo.readObjects(kept.map((v) => v.oid)).flatMap((c) => (c ? secretTrailersOf(parseCommit(c.content).message).allowed : [])));
  const all = await scanTexts([{ file: 'handoff.md', text: body }]);
  const found = all.filter((f) => !allowed.has(f.rule));
  if (found.length) {
    throw secretFoundError(found, `the merge of ${ref}`, [
      `take the secret out of the side that has it, then resolve again: git handoff redact ${o.topic} (for a version never pushed)`,
      'if it was real, rotate it: the other side already has it',
    ]);
  }
  const rules = [...new Set(all.map((f) => f.rule))];
  return [`${SECRET_TRAILER.scanned}: ${scanRecord()}`, ...rules.map((r) => `${SECRET_TRAILER.allowed}: ${r}`)];
}

export { describeVersions };
