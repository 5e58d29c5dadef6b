// The page's timeline: the versions of the scope's handoffs that this clone holds and that the remote's
// copies hold (what the last fetch brought), newest first, by session; and one version with its text and the text
// of the version before it, for its diff.
import { parseCommit } from '../git/storage';
import type { Repo } from '../git/repo';
import { BODY_MAX, COMMIT_MAX, parseTrailerBlock, parseTrailerLines } from '../handoff/store/document';
import { HANDOFF_PREFIX } from '../handoff/store/names';
import { readListing } from '../handoff/store/store';
import { parseTrackingRef } from '../handoff/store/sync-state';

/** The newest versions a timeline shows (a page, not an archive: `git handoff log` has the rest). */
const TIMELINE_MAX = 300;

/** One version in the page's timeline; `where` it is held: `here` (this clone's refs) and each remote whose copies (as last fetched) reach it. */
export type TimelineVersion = ReturnType<typeof logVersions>[number] & { where: string[] };
/** `truncated`: more versions exist than are shown. */
export type Timeline = ReturnType<typeof readTimeline>;
/** One version opened; a body is null over the 1 MiB limit. */
export type VersionView = NonNullable<ReturnType<typeof readVersion>>;

/** The versions of the checked-out branch's handoffs (`all`: every branch's), newest first: one `git log` over this clone's refs, one over the remote's copies. */
export function readTimeline(repo: Repo, every: boolean) {
  const all = every || !repo.branch;
  const read = readListing(repo, { all, branch: repo.branch ?? undefined });
  const local = read.filter((r) => r.ref.startsWith(HANDOFF_PREFIX)).map((r) => r.ref);
  const remotes = new Map<string, string[]>();
  for (const r of read) {
    const t = parseTrackingRef(r.ref);
    if (t) remotes.set(t.remote, [...(remotes.get(t.remote) ?? []), r.ref]);
  }
  const byOid = new Map<string, TimelineVersion>();
  const walk = (refs: string[], where: string) => {
    for (const v of logVersions(repo, refs)) {
      const had = byOid.get(v.oid);
      if (had) had.where.push(where);
      else byOid.set(v.oid, { ...v, where: [where] });
    }
  };
  walk(local, 'here');
  for (const [remote, refs] of remotes) walk(refs, remote);
  const versions = [...byOid.values()].sort((a, b) => b.time.localeCompare(a.time) || a.oid.localeCompare(b.oid));
  const shown = versions.slice(0, TIMELINE_MAX);
  // newest first: a session's first version seen is its last, each next one its earliest so far
  const sessions = new Map<string, { session: string; client: string | null; first: string; last: string; versions: number }>();
  for (const v of shown) {
    const id = v.session ?? '?';
    const s = sessions.get(id) ?? { session: id, client: v.client, first: v.time, last: v.time, versions: 0 };
    s.versions++;
    s.first = v.time;
    s.client ??= v.client;
    sessions.set(id, s);
  }
  return { branch: all ? null : repo.branch, sessions: [...sessions.values()].sort((a, b) => b.last.localeCompare(a.last)), versions: shown, truncated: versions.length > shown.length };
}

/** The newest TIMELINE_MAX versions reachable from `refs` (names given on stdin: a store of 10,000 refs fits no command line). */
function logVersions(repo: Repo, refs: string[]) {
  return repo.logFields(refs, ['%H', '%P', '%ct', '%s', '%(trailers)'], { max: TIMELINE_MAX }).flatMap(([oid, parents, time, subject, block]) => {
    const t = parseTrailerBlock(block);
    if (!t.topic) return [];
    const { session, client, branch, topic, takeoverFrom, reason } = t;
    // the `archived` version an archive adds
    const archived = subject === `handoff(${topic}): archived`;
    return [{ oid, parents: parents ? parents.split(' ') : [], time: new Date(Number(time) * 1000).toISOString(), subject, session, client, branch, topic, takeoverFrom, reason, archived }];
  });
}

const HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A handoff version's commit, trailers, time and body (null over 1 MiB); null where `oid` is no handoff version here. */
function readOne(repo: Repo, oid: string) {
  const [commit, body] = repo.readObjectsBounded([oid, `${oid}:handoff.md`], [COMMIT_MAX, BODY_MAX]);
  if (!commit || 'oversize' in commit || commit.type !== 'commit' || !body) return null;
  const t = parseTrailerLines(repo.describeCommits([oid])[0]?.trailers ?? []);
  if (!t.topic) return null;
  const c = parseCommit(commit.content);
  return { parents: c.parents, t, time: new Date(c.committerTime * 1000).toISOString(), body: 'oversize' in body ? null : body.content.toString('utf8') };
}

/** One version with its text, and its first parent's when that is a version of the same handoff (its diff's other side). */
export function readVersion(repo: Repo, oid: string) {
  const v = HEX.test(oid) ? readOne(repo, oid) : null;
  if (!v) return null;
  const { t, parents } = v;
  const parent = parents[0] ? readOne(repo, parents[0]) : null;
  const previous = parent && parent.t.topic === t.topic ? { oid: parents[0], session: parent.t.session, time: parent.time, body: parent.body } : null;
  return { oid, parents, branch: t.branch, topic: t.topic, session: t.session, client: t.client, time: v.time, takeoverFrom: t.takeoverFrom, reason: t.reason, to: t.to, body: v.body, previous };
}
