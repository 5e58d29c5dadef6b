// `sync`'s part for claims (SPEC 10): the tables came with sync's one fetch (claimsRefspec); what this clone changed
// offline is published, and an offline claim that lost to a published one is said (and kept in the table for both).
import type { Config, Storage } from '../../git/storage';
import { moveRef } from '../store/tx';
import { upgradeTracking } from '../store/tx/migrate';
import { behindRemote, branchOfTable, changeClaims, publicClaim, refreshMarker, sameSet, tellClaimTaken } from './claims';
import { claimsMovedOutside, noteClaimsMove } from './outside';
import { overlapping } from './overlap';
import { setting } from '../../config-keys';
import { judgeExpiry } from '../state/claims-marker';
import { CLAIMS_PREFIX, readClaimChange, readTable, trackingClaimsPrefix, trackingClaimsRef } from './table';

const notPublished = (branch: string, remote: string, why: string) => `claims of ${branch}: NOT published to ${remote} (${why}); they stay local and the next sync tries again`;

/** A sync that could not reach `remote`: each branch whose table here holds what the remote's copy does not, said NOT published. */
export function unreachedClaims(repo: Storage, remote: string, why: string): { lines: string[]; json: Array<{ branch: string; published: false; error: string }> } {
  const theirs = new Map(repo.listRefNames([trackingClaimsPrefix(remote)]).map((r) => [r.ref.slice(trackingClaimsPrefix(remote).length), r.oid]));
  const branches = repo
    .listRefNames([CLAIMS_PREFIX])
    .filter((r) => {
      const t = theirs.get(r.ref.slice(CLAIMS_PREFIX.length));
      return t !== r.oid && !behindRemote(repo, r.oid, t);
    })
    .map((r) => branchOfTable(r.ref, CLAIMS_PREFIX));
  return { lines: branches.map((b) => notPublished(b, remote, why)), json: branches.map((branch) => ({ branch, published: false as const, error: why })) };
}

/**
 * The takeovers in the history this clone's table of `branch` just moved through (`from` to `to`): each holder this
 * clone's guard has seen is told, so a claim taken over in another clone is told once both have synced.
 */
function tellTakeovers(repo: Storage, branch: string, from: string, to: string): void {
  try {
    for (const c of repo.describeCommits(repo.commits({ from: [to], not: [from] }))) {
      const t = readClaimChange(c.trailers);
      if (t.problem || t.action !== 'take-over' || !t.session || !c.parents[0]) continue;
      const after = readTable(repo, c.oid).claims;
      const taker = after.find((x) => x.session === t.session && sameSet(x.paths, t.paths));
      for (const held of readTable(repo, c.parents[0]).claims) {
        if (!t.from.includes(held.session) || after.some((x) => x.id === held.id) || overlapping(held.paths, t.paths).length === 0) continue;
        tellClaimTaken(repo, held, { id: t.session, client: taker?.client ?? null }, branch, t.reason, t.paths, c.time);
      }
    }
  } catch {
    // optional: a note not left costs only the telling
  }
}

/** Publishes what this clone changed offline: a push only for a branch whose table changed here (no claims: one read). */
export async function syncClaimsReport(repo: Storage, remote: string, config: Config): Promise<{ json: unknown; lines: string[]; unpublished: string[]; warnings: string[] }> {
  upgradeTracking(repo, true);
  judgeExpiry(repo.commonDir, setting(config, 'claimMaxTTL'));
  // the tables here and as fetched, read once: what changed outside, what to publish, and the state file
  const patterns = [CLAIMS_PREFIX, trackingClaimsPrefix(remote)];
  let read = repo.keepRefs(patterns);
  const warnings = claimsMovedOutside(repo, read.filter((r) => r.ref.startsWith(CLAIMS_PREFIX)));
  if (warnings.length) read = repo.keepRefs(patterns);
  const tips = new Map(read.map((r) => [r.ref, r.oid]));
  const json: unknown[] = [];
  const lines: string[] = [];
  const unpublished: string[] = [];
  for (const ref of read.filter((r) => r.ref.startsWith(CLAIMS_PREFIX))) {
    const branch = branchOfTable(ref.ref, CLAIMS_PREFIX);
    const T = tips.get(trackingClaimsRef(remote, branch)) ?? null;
    if (T === ref.oid) continue;
    if (behindRemote(repo, ref.oid, T)) {
      // the remote is ahead: this clone takes it
      if (moveRef(repo, ref.ref, T, ref.oid, 'handoff claims: fetched').ok) {
        noteClaimsMove(repo, ref.ref, T);
        tellTakeovers(repo, branch, ref.oid, T!);
      }
      continue;
    }
    try {
      const c = await changeClaims(repo, branch, 'sync', (t) => ({ unchanged: t }), { config, remote });
      if (c.oid && c.oid !== ref.oid) tellTakeovers(repo, branch, ref.oid, c.oid);
      const published = c.published.where === 'remote';
      const reason = c.published.where !== 'remote' ? c.published.reason : undefined;
      json.push({ branch, published, ...(reason ? { reason } : {}), lost: c.lost.map((l) => ({ claim: publicClaim(l.claim), holder: publicClaim(l.holder) })) });
      lines.push(published ? `claims of ${branch}: published to ${remote}` : notPublished(branch, remote, reason ?? 'not reached'));
      for (const { claim, holder } of c.lost) {
        lines.push(`claim conflict on ${branch}: session ${claim.session}'s offline claim on ${claim.paths.join(', ')} lost to session ${holder.session}'s on ${holder.paths.join(', ')}${holder.note ? ` (${JSON.stringify(holder.note)})` : ''}, published first; it was dropped`);
      }
      if (!published) unpublished.push(branch);
    } catch (e) {
      json.push({ branch, published: false, lost: [], error: (e as Error).message });
      lines.push(`claims of ${branch}: NOT published to ${remote} (${(e as Error).message})`);
      unpublished.push(branch);
    }
  }
  refreshMarker(repo, { remote });
  return { json, lines, unpublished, warnings };
}
