// What a session is told of claims (SPEC 10): a write to a path another live session claims, and the session start view.
import { existsSync } from 'node:fs';
import { claimLive, claimNotes, claimsMarker, readMarker, when, type ClaimView } from '../state/claims-marker';
import { shellWord } from '../../terminal-text';
import { pathClaimed } from './overlap';

/** A path another live session claims, and that claim. */
export type Hit = ReturnType<typeof claimsOfOthers>[number];

/** From the marker alone (no git). */
const othersClaims = (commonDir: string, branch: string | null, session: string | null): ClaimView[] =>
  existsSync(claimsMarker(commonDir)) ? readMarker(commonDir).filter((c) => (branch === null || c.branch === branch) && c.session !== session && claimLive(c)) : [];

/** Every path another live session claims: what a call whose writes the guard cannot tell may reach. */
export const claimsOfOthers = (commonDir: string, branch: string | null, session: string | null) =>
  othersClaims(commonDir, branch, session).flatMap((claim) => claim.paths.map((p) => ({ path: p, claim })));

/** Which of `paths` (repository-relative) another live session claims on `branch`. */
export function claimedByOthers(commonDir: string, branch: string | null, session: string | null, paths: string[]): Hit[] {
  if (paths.length === 0) return [];
  const claims = othersClaims(commonDir, branch, session);
  return paths.flatMap((path) => {
    for (const claim of claims) {
      const spec = pathClaimed(path, claim.paths);
      // a directory removed whole (`dir/`) meets the claim inside it: that is what it names
      if (spec !== null) return [{ path: path.endsWith('/') && spec.startsWith(path) ? spec : path, claim }];
    }
    return [];
  });
}

export function describeHits(hits: Hit[]): string {
  return hits
    .map(({ path, claim: c }) => {
      const who = [c.client, c.host ? `on ${c.host}` : null].filter(Boolean).join(' ');
      return `${path} is claimed by session ${c.session}${who ? ` (${who})` : ''} (since ${when(c.since)}, until ${when(c.expires)}${claimNotes(c)})`;
    })
    .join('\n');
}

/** The ways on from a write a claim refused: wait, ask, or take the claim over on the record. */
export function claimWaysOn(hits: Hit[]): string {
  const until = Math.min(...hits.map((h) => h.claim.expires));
  const holders = [...new Set(hits.map((h) => h.claim.session))];
  const paths = [...new Set(hits.map((h) => h.path))];
  return (
    `Ways on:\n` +
    `  1. work on other paths, or wait: the claim ends when its session releases it or ends, at the latest ${when(until)} (\`git handoff claims\` shows it)\n` +
    `  2. ask session ${holders.join(', ')} to release ${paths.length === 1 ? 'it' : 'them'} (git handoff release <path>)\n` +
    `  3. take the claim over, on the record (its whole claim; its session is told): git handoff claim ${paths.map(shellWord).join(' ')} --take-over --reason "<why>"`
  );
}

/** What the holder of a claim is told when its claim refused a write (or, with handoff.claims=tell, was told to one). */
export function holderNote(hits: Hit[], writer: string, writerClient: string, refused: boolean): Array<{ holder: string; key: string; text: string }> {
  const byClaim = new Map<string, Hit[]>();
  for (const h of hits) byClaim.set(h.claim.id, [...(byClaim.get(h.claim.id) ?? []), h]);
  return [...byClaim.values()].map((hs) => {
    const c = hs[0].claim;
    const paths = hs.map((h) => h.path).join(', ');
    return {
      holder: c.session,
      key: `claim ${c.id} ${writer} ${refused ? 'refused' : 'told'}`,
      text:
        `git-handoff: your claim on ${c.paths.join(' ')}${c.note ? ` (${JSON.stringify(c.note)})` : ''} ${refused ? 'refused' : 'was told to'} session ${writer} (${writerClient}) ` +
        `${refused ? 'a write of' : 'writing'} ${paths} at ${when(Math.floor(Date.now() / 1000))}${refused ? '' : ' (handoff.claims=tell: the write went on)'}. ` +
        `It holds until ${when(c.expires)}; \`git handoff release ${c.paths.map(shellWord).join(' ')}\` gives it back when you are done.`,
    };
  });
}

/** The session start's claims block (after its fetch): the marker refreshed, then the live claims on the branch. */
export function startClaims(repo: import('../../git/storage').Storage, branch: string | null, session: string | null): string | null {
  if (!branch) return null;
  const { claimsRemote, listClaims, refreshMarker } = require('./claims') as typeof import('./claims');
  refreshMarker(repo);
  const { remote } = claimsRemote(repo, repo.config());
  const claims = listClaims(repo, { branch, remote }).claims;
  if (claims.length === 0) return null;
  const lines = claims.map((c) => `- ${c.paths.join(' ')}: session ${c.session}${c.session === session ? ' (you)' : ''}, until ${when(c.expires)}${claimNotes(c)}${c.where === 'remote' ? ` (on ${remote})` : c.where === 'local' && remote ? ' (not published yet)' : ''}`);
  return `git-handoff claims on this branch (paths a live session is changing; leave them to it, or ask):\n${lines.join('\n')}`;
}
