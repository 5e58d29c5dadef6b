// `sync`'s part for claims (SPEC 10): fetch every branch's claims table, publish what this clone changed offline,
// and say which offline claims lost to published ones (they are also kept in the table for their holders to see).
import type { Config, Storage } from '../../git/storage';
import { decodeBranch } from '../store/names';
import { behindRemote, publicClaim, syncClaims } from './claims';
import { CLAIMS_PREFIX, trackingClaimsPrefix } from './table';

/**
 * A sync that could not reach `remote` (`why`): the branches whose claims table here holds what the remote's copy, as
 * last fetched, does not (claimed, renewed or released offline; not a table the remote's has moved past), each said
 * NOT published (SPEC 10).
 */
export function unreachedClaims(repo: Storage, remote: string, why: string): { lines: string[]; json: Array<{ branch: string; published: false; error: string }> } {
  const theirs = new Map(repo.listRefNames([trackingClaimsPrefix(remote)]).map((r) => [r.ref.slice(trackingClaimsPrefix(remote).length), r.oid]));
  const branches = repo
    .listRefNames([CLAIMS_PREFIX])
    .filter((r) => {
      const t = theirs.get(r.ref.slice(CLAIMS_PREFIX.length));
      return t !== r.oid && !behindRemote(repo, r.oid, t);
    })
    .map((r) => decodeBranch(r.ref.slice(CLAIMS_PREFIX.length)) ?? r.ref.slice(CLAIMS_PREFIX.length));
  return {
    lines: branches.map((b) => `claims of ${b}: NOT published to ${remote} (${why}); they stay local and the next sync tries again`),
    json: branches.map((branch) => ({ branch, published: false as const, error: why })),
  };
}

/** The claims refs came with sync's handoff fetch (claimsRefspec): no second fetch is started. */
export async function syncClaimsReport(repo: Storage, remote: string, config?: Config): Promise<{ json: unknown; lines: string[]; unpublished: string[]; warnings: string[] }> {
  const r = await syncClaims(repo, remote, config);
  const lines: string[] = [];
  const warnings = r.flatMap((b) => b.outside ?? []);
  for (const b of r) {
    if (b.outside) continue;
    if (b.error) lines.push(`claims of ${b.branch}: NOT published to ${remote} (${b.error})`);
    else if (b.published) lines.push(`claims of ${b.branch}: published to ${remote}`);
    else lines.push(`claims of ${b.branch}: NOT published to ${remote} (${b.reason ?? 'not reached'}); they stay local and the next sync tries again`);
    for (const { claim, holder } of b.lost) {
      lines.push(`claim conflict on ${b.branch}: session ${claim.session}'s offline claim on ${claim.paths.join(', ')} lost to session ${holder.session}'s on ${holder.paths.join(', ')}${holder.note ? ` (${JSON.stringify(holder.note)})` : ''}, published first; it was dropped`);
    }
  }
  const unpublished = r.filter((b) => b.error || !b.published).map((b) => b.branch);
  return { json: r.map((b) => ({ ...b, lost: b.lost.map((l) => ({ claim: publicClaim(l.claim), holder: publicClaim(l.holder) })) })), lines, unpublished, warnings };
}
