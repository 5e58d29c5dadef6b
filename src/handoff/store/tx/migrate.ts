// The storage format's versions (SPEC 2, "Format version") and the one migration between them. Format 1 (builds up
// to 094717a): an archive entry points at the archived tip itself and names nobody. Format 2 (now): an archive entry
// is a version on top of that tip, by the session that archived it. A format-1 archive this clone made and has not
// pushed is migrated before a push plans: a format-2 entry is added beside it (the format-1 entry stays, since
// archive entries are never deleted), so the deletion of the live ref travels with an entry every check accepts,
// the servers of either format included (format 1 looks for the entry at the tip, format 2 for the version on it).
import { parseCommit, readObjects } from '../../../git/objects';
import { listRefs, type RefRecord } from '../../../git/refs';
import type { Repo } from '../../../git/repo';
import { parseTrailerLines } from '../document';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, archiveRef, parseRef } from '../names';
import { ancestryOf } from '../sync-state';
import { commitVersion, moveRefs } from './index';

import { MIGRATED_FROM } from '../format';
export { FORMAT_VERSION, MIGRATED_FROM } from '../format';

const handoffKey = (archiveKey: string) => archiveKey.split('/').slice(0, 2).join('/');

/**
 * Adds a format-2 entry beside each format-1 archive entry the remote lacks (`remoteArchive`) whose handoff
 * `remoteLive` (the remote's live handoffs by `<branch>/<topic>`) still has live at the archived tip. Returns the
 * entries made.
 */
export function migrateArchives(repo: Repo, localLive: Map<string, string>, localArchive: Map<string, string>, remoteLive: Map<string, string>, remoteArchive: Map<string, string> = new Map()): string[] {
  const byHandoff = new Map<string, Array<{ key: string; oid: string }>>();
  // an entry the remote has already is not this clone's unsent archive: the handoff was restored over there
  for (const [key, oid] of localArchive) if (!remoteArchive.has(key)) byHandoff.set(handoffKey(key), [...(byHandoff.get(handoffKey(key)) ?? []), { key, oid }]);
  const candidates = [...remoteLive].filter(([k, tip]) => !localLive.has(k) && byHandoff.get(k)?.some((e) => e.oid === tip));
  if (candidates.length === 0) return [];
  const isAnc = ancestryOf(repo, candidates.flatMap(([k, tip]) => [tip, ...byHandoff.get(k)!.map((e) => e.oid)]));
  const made: string[] = [];
  for (const [k, tip] of candidates) {
    const entries = byHandoff.get(k)!;
    if (entries.some((e) => e.oid !== tip && isAnc(tip, e.oid))) continue; // a format-2 entry is there already
    const old = entries.find((e) => e.oid === tip)!;
    const p = parseRef(ARCHIVE_PREFIX + old.key);
    const [raw] = readObjects(repo, [tip]);
    const rec: RefRecord | undefined = listRefs(repo, [ARCHIVE_PREFIX + old.key])[0];
    if (!p || !raw || !rec) continue;
    const t = parseTrailerLines(rec.trailers);
    // nobody can be named for an ambiguous tip: left as it is (the push reports it)
    if (t.problem || !t.session) continue;
    const person = t.person ? /^(.*?)\s*<([^<>]+)>\s*$/.exec(t.person) : null;
    const branch = p.branch ?? t.branch ?? p.encodedBranch;
    // format 1 let only the owner archive (a takeover wrote its own version first): the tip's owner archived it
    const oid = commitVersion(repo, parseCommit(raw.content).tree, [tip], {
      topic: p.topic,
      body: 'archived',
      session: t.session,
      person: person ? { name: person[1], email: person[2] } : null,
      branch,
      head: t.head,
      client: (t.client ?? 'cli') as never,
      to: t.to,
      tags: t.tags,
      extra: [`${MIGRATED_FROM}: ${ARCHIVE_PREFIX}${old.key}`],
    });
    const stamp = Number((p.stamp ?? '').split('-')[0]) || Math.floor(Date.now() / 1000);
    const ref = archiveRef(branch, p.topic, stamp, oid);
    if (moveRefs(repo, [{ op: 'create', ref, newOid: oid }, { op: 'verify', ref: HANDOFF_PREFIX + k, oldOid: null }], 'handoff migrate archive').ok) made.push(ref);
  }
  return made;
}
