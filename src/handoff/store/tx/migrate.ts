// The migrations between the storage formats (SPEC 2, "Format version"): a format-2 archive entry beside each unsent
// format-1 one (which stays), and the tracking copies of format 2 moved to their own namespace (format 3).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packedRefs } from '../../../git/refs-read';
import { parseCommit, type RefOp, type RefRecord, type Storage } from '../../../git/storage';
import { parseTrailerLines } from '../document';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, archiveRef, parseRef, REMOTES_ROOT, stampOf, trackingOf } from '../names';
import { ancestryOf } from '../sync-state';
import { commitVersion, moveRefs } from './index';
import { AGAIN, CONTENDED, retrying } from '../../../retry';
import { FORMAT_KEY, MIGRATED_FROM } from '../format';
import { namesIn } from '../../state/paths';

const handoffKey = (archiveKey: string) => archiveKey.split('/').slice(0, 2).join('/');

/** Adds a format-2 entry beside each format-1 archive entry the remote lacks whose handoff it still has live at that tip. */
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
    const ref = archiveRef(branch, p.topic, stampOf(old.key) ?? Math.floor(Date.now() / 1000), oid);
    if (moveRefs(repo, [{ op: 'create', ref, newOid: oid }, { op: 'verify', ref: HANDOFF_PREFIX + k, oldOid: null }], 'handoff migrate archive').ok) made.push(ref);
  }
  return made;
}

/** The format whose tracking copies live under refs/handoff-remotes/<R>/; format 2 kept them in refs/remotes/<R>/. */
const TRACKING_FORMAT = 3;

/** The families of a format-2 build's tracking copies under refs/remotes/<R>/. */
const LEGACY_FAMILIES = ['handoffs/', 'handoff-archive/', 'handoff-records/', 'claims/', 'notes/handoff-reads'];
const inLegacyFamily = (rest: string) => LEGACY_FAMILIES.some((f) => rest.startsWith(f));

/** Whether this clone may hold format-2 tracking copies, without starting git (a few stats, packed-refs around refs/remotes/). */
function legacyTrackingPresent(commonDir: string): boolean {
  const dir = path.join(commonDir, 'refs', 'remotes');
  if (namesIn(dir).some((r) => LEGACY_FAMILIES.some((f) => existsSync(path.join(dir, r, f))))) return true;
  // a remote's name may hold a slash: a family anywhere in the name will do for this first look
  return [...packedRefs(commonDir, 'refs/remotes/').keys()].some((ref) => LEGACY_FAMILIES.some((f) => ref.includes(`/${f}`)));
}

/** Which family a name under a remote's tracking root is, the way a format-2 build wrote it; null: not one of them. */
function familyOf(rest: string): boolean {
  if (rest === 'notes/handoff-reads') return true;
  if (rest.startsWith('handoffs/') || rest.startsWith('handoff-archive/')) return parseRef(`refs/${rest}`) !== null;
  return /^(claims|handoff-records)\/[^/]+$/.test(rest);
}

/** Moves format-2 tracking copies to refs/handoff-remotes/<R>/ (a copy there already wins), with their fetch refspecs, and marks format 3. */
function migrateTracking(repo: Storage): void {
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
      if (!inLegacyFamily(tail)) continue;
      const moved = `${spec.slice(0, at)}:${trackingOf(remote, 'refs/')}${tail}`;
      configWrite(() => repo.setLocalConfig(`remote.${remote}.fetch`, moved, spec));
    }
  }
  markTrackingFormat(repo);
}

/** Sets handoff.formatVersion to 3 in the repository's own config (SPEC 2: builds of format 2 then refuse it, exit 7). */
function markTrackingFormat(repo: Storage): void {
  // the marker is never worth failing the command over: the next one marks it
  configWrite(() => repo.setLocalConfig(FORMAT_KEY, String(TRACKING_FORMAT)), () => repo.storeFormat === TRACKING_FORMAT);
}

/** A config write, waited out while another process holds the config's lock; true once written (or `done()` says so). */
function configWrite(write: () => { ok: boolean; locked: boolean }, done: () => boolean = () => false): boolean {
  return retrying((wait) => {
    const r = write();
    if (r.ok || done()) return true;
    return r.locked && wait(CONTENDED) ? AGAIN : false;
  });
}

const upgraded = new Set<string>();

/**
 * The upgrade to format 3, at every command's start and before anything is written into refs/handoff-remotes/
 * (`writing`): format-2 copies are moved over; a clone that starts writing there is marked, so a format-2 build refuses it.
 */
export function upgradeTracking(repo: Storage, writing = false): void {
  if ((repo.storeFormat ?? 0) >= TRACKING_FORMAT || upgraded.has(repo.commonDir)) return;
  if (legacyTrackingPresent(repo.commonDir)) migrateTracking(repo);
  else if (writing) markTrackingFormat(repo);
  else return;
  upgraded.add(repo.commonDir);
}
