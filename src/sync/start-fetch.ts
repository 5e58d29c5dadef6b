// Session start's bounded, never interactive fetch of this branch's handoffs, then fetch's five-case merge for them
// (docs/design.md "Session start and the network").
import type { Config } from '../git/config';
import { setting } from '../config-keys';
import { gitReason } from '../git/messages';
import { noteContact } from '../handoff/state/contact';
import type { Repo } from '../git/repo';
import { ARCHIVE_PREFIX, encodeBranch, HANDOFF_PREFIX } from '../handoff/store/names';
import { mergeHandoffs, readSides, type Sides } from './fetch';
import { upgradeTracking } from '../handoff/store/tx/migrate';
import { handoffRefspecs, resolveRemote, trackingArchivePrefix, trackingPrefix } from './remote';
import { CLAIMS_PREFIX, trackingClaimsPrefix } from '../handoff/claims/table';

/** The limit on the network step of session start: past it git is killed and the session starts without it. */
export const START_FETCH_MS = 2000;

type StartFetch =
  | { status: 'off' | 'no-remote' }
  | { status: 'fetched'; remote: string; created: string[]; moved: string[] }
  | { status: 'not-reached'; remote: string; why: string };

/** The refspecs of one branch's handoffs and archive entries (every branch's when detached). */
function branchRefspecs(remote: string, branch: string | null): string[] {
  if (!branch) return handoffRefspecs(remote).slice(0, 2);
  const b = encodeBranch(branch);
  // and the branch's claims table (SPEC 10; a glob, so a remote without one is no error)
  return [`+${HANDOFF_PREFIX}${b}/*:${trackingPrefix(remote)}${b}/*`, `+${ARCHIVE_PREFIX}${b}/*:${trackingArchivePrefix(remote)}${b}/*`, `+${CLAIMS_PREFIX}${b}*:${trackingClaimsPrefix(remote)}${b}*`];
}

/** Sides narrowed to one branch's keys, so the merge looks at nothing else. */
function narrow(s: Sides, branch: string | null): Sides {
  if (!branch) return s;
  const p = `${encodeBranch(branch)}/`;
  const only = (m: Map<string, string>) => new Map([...m].filter(([k]) => k.startsWith(p)));
  return { ...s, local: only(s.local), localArchive: only(s.localArchive), remote: only(s.remote), remoteArchive: only(s.remoteArchive) };
}

/** Why git gave up, in a few words the startup view can carry. */
function whyNot(stderr: string, timedOut: boolean, ms: number): string {
  if (timedOut) return `no answer within ${ms / 1000} s`;
  if (/terminal prompts disabled|could not read (Username|Password)|Authentication failed|Permission denied|publickey|password/i.test(stderr)) return 'it asks for credentials';
  return gitReason(stderr).slice(0, 200);
}

/**
 * Fetches and merges the remote's handoffs of `branch` (the default remote: handoff.remote, origin, or the only
 * one), within `timeoutMs`. `handoff.fetchOnStart false` turns it off. Never throws.
 */
export async function fetchOnStart(repo: Repo, branch: string | null, o: { config: Config; timeoutMs?: number }): Promise<StartFetch> {
  if (!setting(o.config, 'fetchOnStart')) return { status: 'off' };
  let remote: string;
  try {
    // a named handoff.remote that is gone is said by fetch and doctor; session start stays quiet about it
    remote = resolveRemote(repo);
  } catch {
    return { status: 'no-remote' };
  }
  const ms = o.timeoutMs ?? START_FETCH_MS;
  try {
    // a format-2 clone's copies move over first; session start alone does not mark the store
    upgradeTracking(repo);
    const before = narrow(readSides(repo, remote), branch);
    const r = await repo.fetchBounded(remote, branchRefspecs(remote, branch), ms, { prune: true });
    // kept for the person who looks later (status, web)
    noteContact(repo.commonDir, remote, r.status === 0, r.status === 0 ? null : whyNot(r.stderr, r.timedOut, ms));
    if (r.status !== 0) return { status: 'not-reached', remote, why: whyNot(r.stderr, r.timedOut, ms) };
    const merged = mergeHandoffs(repo, remote, before, narrow(readSides(repo, remote), branch));
    return {
      status: 'fetched',
      remote,
      created: merged.handoffs.filter((h) => h.action === 'created').map((h) => h.topic),
      moved: merged.handoffs.filter((h) => h.action === 'fast-forwarded').map((h) => h.topic),
    };
  } catch (e) {
    return { status: 'not-reached', remote, why: (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200) };
  }
}

/** The startup view's line about the network, or null when there is nothing to say. */
export function describeStartFetch(f: StartFetch): string | null {
  if (f.status === 'not-reached') {
    return `git-handoff: the remote ${f.remote} was not reached at session start (${f.why}): what follows is as of the last fetch. \`git handoff fetch ${f.remote}\` brings its handoffs.`;
  }
  if (f.status === 'fetched' && (f.created.length || f.moved.length)) {
    const parts = [f.created.length ? `new: ${f.created.join(', ')}` : null, f.moved.length ? `newer versions: ${f.moved.join(', ')}` : null].filter(Boolean);
    return `git-handoff: fetched from ${f.remote} at session start (${parts.join('; ')}).`;
  }
  return null;
}
