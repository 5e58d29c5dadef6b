// The storage format's versions (SPEC 2, "Format version") and the one migration between them. Format 1 (builds up
// to 094717a): an archive entry points at the archived tip itself and names nobody. Format 2 (now): an archive entry
// is a version on top of that tip, by the session that archived it. A format-1 archive this clone made and has not
// pushed is migrated before a push plans: a format-2 entry is added beside it (the format-1 entry stays, since
// archive entries are never deleted), so the deletion of the live ref travels with an entry every check accepts,
// the servers of either format included (format 1 looks for the entry at the tip, format 2 for the version on it).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { packedRefsUnder } from '../../../git/packed-refs';
import { parseCommit, type RefOp, type RefRecord, type Storage } from '../../../git/storage';
import { parseTrailerLines } from '../document';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, archiveRef, parseRef, REMOTES_ROOT, trackingOf } from '../names';
import { ancestryOf } from '../sync-state';
import { commitVersion, moveRefs } from './index';
import { AGAIN, CONTENDED, retrying } from '../../../retry';

import { FORMAT_KEY, MIGRATED_FROM } from '../format';
export { FORMAT_VERSION, MIGRATED_FROM } from '../format';

const handoffKey = (archiveKey: string) => archiveKey.split('/').slice(0, 2).join('/');

/**
 * Adds a format-2 entry beside each format-1 archive entry the remote lacks (`remoteArchive`) whose handoff
 * `remoteLive` (the remote's live handoffs by `<branch>/<topic>`) still has live at the archived tip. Returns the
 * entries made.
 */
export function migrateArchives(repo: Storage, localLive: Map<string, string>, localArchive: Map<string, string>, remoteLive: Map<string, string>, remoteArchive: Map<string, string> = new Map()): string[] {
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
    const [raw] = repo.readObjects([tip]);
    const rec: RefRecord | undefined = repo.listRefs([ARCHIVE_PREFIX + old.key])[0];
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

// ---- format 3: the tracking copies in a namespace of their own --------------------------------------------------

/** The format whose tracking copies live under refs/handoff-remotes/<R>/ (SPEC 2); builds up to format 2 kept them in refs/remotes/<R>/. */
export const TRACKING_FORMAT = 3;

/** A ref under refs/remotes/ that looks like one of a format-2 build's tracking copies (the remote's name is checked later). */
const LEGACY_LOOK = /\/(handoffs|handoff-archive|handoff-records|claims)\/|\/notes\/handoff-reads$/;

/**
 * Whether this clone may hold tracking copies where builds up to format 2 put them (refs/remotes/<R>/handoffs/…),
 * without starting git: a few stats of the loose refs, and packed-refs read only around refs/remotes/.
 */
export function legacyTrackingPresent(commonDir: string): boolean {
  const dir = path.join(commonDir, 'refs', 'remotes');
  let remotes: string[] = [];
  try {
    remotes = readdirSync(dir);
  } catch {
    // no loose remote-tracking refs at all
  }
  for (const r of remotes) for (const f of ['handoffs', 'handoff-archive', 'handoff-records', 'claims', 'notes/handoff-reads']) if (existsSync(path.join(dir, r, f))) return true;
  return packedRefsUnder(commonDir, 'refs/remotes/').some((line) => LEGACY_LOOK.test(line));
}

/** Which family a name under a remote's tracking root is, the way a format-2 build wrote it; null: not one of them. */
function familyOf(rest: string): boolean {
  if (rest === 'notes/handoff-reads') return true;
  if (rest.startsWith('handoffs/') || rest.startsWith('handoff-archive/')) return parseRef(`refs/${rest}`) !== null;
  return /^(claims|handoff-records)\/[^/]+$/.test(rest);
}

/**
 * Moves a format-2 clone's tracking copies to refs/handoff-remotes/<R>/ (one transaction, each by its expected value;
 * a copy the new namespace holds already wins), points the fetch refspecs `install --remote` added there too, and
 * marks the store format 3. Returns the number of refs moved.
 */
export function migrateTracking(repo: Storage): number {
  const remotes = repo.remoteNames().sort((a, b) => b.length - a.length);
  const recs = repo.listRefNames(['refs/remotes/']);
  const have = new Set(repo.listRefNames([REMOTES_ROOT]).map((r) => r.ref));
  const ops: RefOp[] = [];
  for (const r of recs) {
    const remote = remotes.find((n) => r.ref.startsWith(`refs/remotes/${n}/`));
    if (!remote) continue;
    const rest = r.ref.slice(`refs/remotes/${remote}/`.length);
    if (!familyOf(rest)) continue;
    const target = trackingOf(remote, `refs/${rest}`);
    if (!have.has(target)) ops.push({ op: 'create', ref: target, newOid: r.oid });
    ops.push({ op: 'delete', ref: r.ref, oldOid: r.oid });
  }
  // what moved meanwhile (a fetch of an old build) stays where it is: the next command moves it
  if (ops.length && !moveRefs(repo, ops, 'handoff upgrade: tracking copies to refs/handoff-remotes').ok) {
    for (let i = 0; i < ops.length; i++) {
      const pair = ops[i].op === 'create' ? [ops[i], ops[++i]] : [ops[i]];
      moveRefs(repo, pair, 'handoff upgrade: tracking copies to refs/handoff-remotes');
    }
  }
  for (const remote of remotes) {
    const specs = repo.localConfig('^remote\\..*\\.fetch$').get(`remote.${remote}.fetch`) ?? [];
    const legacyRoot = `:refs/remotes/${remote}/`;
    for (const spec of specs) {
      const at = spec.indexOf(legacyRoot);
      const tail = at < 0 ? '' : spec.slice(at + legacyRoot.length);
      if (!/^(handoffs\/|handoff-archive\/|handoff-records\/|claims\/|notes\/handoff-reads)/.test(tail)) continue;
      const moved = `${spec.slice(0, at)}:${trackingOf(remote, 'refs/')}${tail}`;
      configWrite(() => repo.setLocalConfig(`remote.${remote}.fetch`, moved, spec));
    }
  }
  markTrackingFormat(repo);
  return ops.filter((o) => o.op === 'delete').length;
}

/** Sets handoff.formatVersion to 3 in the repository's own config (SPEC 2: builds of format 2 then refuse it, exit 7). */
function markTrackingFormat(repo: Storage): void {
  const marked = () => repo.readStoreFormat() === TRACKING_FORMAT;
  // the marker is never worth failing the command over: the next one marks it
  if (configWrite(() => repo.setLocalConfig(FORMAT_KEY, String(TRACKING_FORMAT)), marked)) repo.storeFormat = TRACKING_FORMAT;
}

/**
 * A config write, waited out while another process holds the config's lock (sessions of one clone starting their
 * first claim at once all upgrade it); true once it is written, or `done()` says another process wrote it.
 */
function configWrite(write: () => { ok: boolean; locked: boolean }, done: () => boolean = () => false): boolean {
  return retrying((wait) => {
    const r = write();
    if (r.ok || done()) return true;
    return r.locked && wait(CONTENDED) ? AGAIN : false;
  });
}

const upgraded = new Set<string>();

/**
 * The upgrade to format 3, at the opening of every command (the CLI's format gate) and before anything is written
 * into refs/handoff-remotes/ (`writing`: a fetch, a claims push): a clone a format-2 build synced has its tracking
 * copies moved over before anything reads them; a clone that starts writing there is marked, so a format-2 build
 * (which would read it as never synced: `drop` of a pushed handoff, `list` saying local) refuses it instead. A store
 * marked already costs nothing; one that is not, a few stats.
 */
export function upgradeTracking(repo: Storage, writing = false): void {
  if ((repo.storeFormat ?? 0) >= TRACKING_FORMAT || upgraded.has(repo.commonDir)) return;
  if (legacyTrackingPresent(repo.commonDir)) migrateTracking(repo);
  else if (writing) markTrackingFormat(repo);
  else return;
  upgraded.add(repo.commonDir);
}
