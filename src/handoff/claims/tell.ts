// What a session is told of claims (SPEC 10): a write to a path another live session claims (the guard: told with who
// and why, refused with handoff.claims=enforce), the session start view, and pre-commit's naming of claimants.
import { existsSync } from 'node:fs';
import { claimLive } from './table';
import { claimsMarker, readMarker } from './marker';
import { pathClaimed } from './overlap';
import type { ClaimView } from './claims';

export interface Hit {
  path: string;
  claim: ClaimView;
}

/** Paths (repository-relative) another live session claims on `branch`, from the marker alone (no git). */
export function claimedByOthers(commonDir: string, branch: string | null, session: string | null, paths: string[], nowMs = Date.now()): Hit[] {
  if (paths.length === 0 || !existsSync(claimsMarker(commonDir))) return [];
  const claims = readMarker(commonDir).filter((c) => (branch === null || c.branch === branch) && c.session !== session && claimLive(c, nowMs));
  const hits: Hit[] = [];
  for (const p of paths) {
    for (const c of claims) {
      if (pathClaimed(p, c.paths)) {
        hits.push({ path: p, claim: c });
        break;
      }
    }
  }
  return hits;
}

const when = (s: number) => new Date(s * 1000).toISOString().replace(/\.000Z$/, 'Z');

/** One line per hit: the path, who claims it, since, why, the handoff. */
export function describeHits(hits: Hit[]): string {
  return hits
    .map(({ path, claim: c }) => `${path} is claimed by session ${c.session} (since ${when(c.since)}, until ${when(c.expires)}${c.note ? `; why: ${JSON.stringify(c.note)}` : ''}${c.topic ? `; handoff: ${c.topic}` : ''})`)
    .join('\n');
}

/** The claims block of the session start view: the live claims on the branch, this clone's and the remote's. */
export function claimsView(claims: ClaimView[], session: string | null, remote: string | null): string | null {
  if (claims.length === 0) return null;
  const lines = claims.map((c) => `- ${c.paths.join(' ')}: session ${c.session}${c.session === session ? ' (you)' : ''}, until ${when(c.expires)}${c.note ? `; why: ${JSON.stringify(c.note)}` : ''}${c.topic ? `; handoff: ${c.topic}` : ''}${c.where === 'remote' ? ` (on ${remote})` : c.where === 'local' && remote ? ' (not published yet)' : ''}`);
  return `git-handoff claims on this branch (paths a live session is changing; leave them to it, or ask):\n${lines.join('\n')}`;
}

/** The session start's claims block (after its fetch brought the remote's table): the marker refreshed, then the view. */
export function startClaims(repo: import('../../git/repo').Repo, branch: string | null, session: string | null): string | null {
  if (!branch) return null;
  const { claimsRemote, listClaims, refreshMarker } = require('./claims') as typeof import('./claims');
  const { readConfig } = require('../../git/config') as typeof import('../../git/config');
  refreshMarker(repo);
  const { remote } = claimsRemote(repo, readConfig(repo));
  return claimsView(listClaims(repo, { branch, remote }).claims, session, remote);
}
