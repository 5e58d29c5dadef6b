// Which remote a sync command talks to, the refspecs that carry handoffs, and git's transport errors in plain words.
import { HandoffError } from '../errors';
import { handoffRemoteOf, readConfig, remoteNames } from '../git/config';
import { setting } from '../config-keys';
import type { Repo } from '../git/repo';
import { gitReason, hostLimit, pushRefusal, transientTransport } from '../git/messages';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, NOTES_REF, REMOTES_ROOT, trackingOf } from '../handoff/store/names';
import { noteContact } from '../handoff/state/contact';
import { trackingNotesRef } from '../handoff/store/receipts';
import { localLockIn, refOfLock, waitOutLock } from '../handoff/store/tx/locks';
import { upgradeTracking } from '../handoff/store/tx/migrate';
import { fetchingPacks } from '../handoff/store/tx/witness';
import { AGAIN, hostLimited, LOCK_IN_THE_WAY, retrying, TRANSIENT } from '../retry';

/** refs/handoff-remotes/<R>/handoffs/ and …/handoff-archive/: where a fetch puts the remote's handoffs (SPEC 7). */
export const trackingPrefix = (remote: string) => trackingOf(remote, HANDOFF_PREFIX);
export const trackingArchivePrefix = (remote: string) => trackingOf(remote, ARCHIVE_PREFIX);
/** Where each clone's loss record lives on its handoff remote, one ref per clone (src/sync/record-remote.ts). */
export const RECORDS_PREFIX = 'refs/handoff-records/';
/** Where sync keeps what the remote holds of this clone's record (the lease of the next push). */
export const trackingRecordsPrefix = (remote: string) => trackingOf(remote, RECORDS_PREFIX);
/** Everything this clone keeps of one remote (handoffs, archive, receipts, claims, records). */
export const trackingRoot = (remote: string) => `${REMOTES_ROOT}${remote}/`;

/** The fetch refspecs `install --remote` adds and `fetch` passes: forced into the tracking namespace only (receipts: a glob). */
export function handoffRefspecs(remote: string): string[] {
  return [`+${HANDOFF_PREFIX}*:${trackingPrefix(remote)}*`, `+${ARCHIVE_PREFIX}*:${trackingArchivePrefix(remote)}*`, `+${NOTES_REF}*:${trackingNotesRef(remote)}*`];
}

/** The remote to use: the one named, else `handoff.remote`, else `origin`, else the only remote. */
export function resolveRemote(repo: Repo, named?: string): string {
  const names = remoteNames(repo);
  const pick = named || handoffRemoteOf(readConfig(repo), names);
  if (!pick) {
    throw new HandoffError(
      'usage',
      'no-remote',
      names.length ? `several remotes (${names.join(', ')}) and none chosen: name one, or set one with \`git config handoff.remote <name>\`` : 'this repository has no remote: add one with `git remote add origin <url>`',
      { remotes: names },
    );
  }
  if (!names.includes(pick)) {
    throw new HandoffError('usage', 'unknown-remote', `no remote named "${pick}" (remotes: ${names.join(', ') || 'none'}); \`git remote -v\` lists them`, { remote: pick, remotes: names });
  }
  return pick;
}

const UNREACHABLE = [
  /Could not read from remote repository/i,
  /unable to access/i,
  /Connection refused/i,
  /Could not resolve host/i,
  /does not appear to be a git repository/i,
  /unable to connect/i,
  /Connection (timed out|reset)/i,
  /Repository not found/i,
  /not found: did you run git update-server-info/i,
  /remote end hung up/i,
  /No such file or directory/i,
];

/** A failed fetch or push turned into what to do (exit 7); nothing local has been changed when this is thrown. */
export function transportError(repo: Repo, remote: string, verb: 'fetch' | 'push', stderr: string): HandoffError {
  const url = repo.remoteUrl(remote);
  const reason = pushRefusal(stderr);
  const unreachable = UNREACHABLE.some((re) => re.test(stderr));
  const limit = hostLimit(stderr);
  const hint =
    limit === 'rate' ? `${remote} limits how often it is asked, and it still did after handoff.hostWait: run \`git handoff ${verb} ${remote}\` again in a few minutes (it goes on where it stopped)`
    : unreachable ? `check the address (\`git remote get-url ${remote}\`), the network and your credentials, then run \`git handoff ${verb} ${remote}\` again`
    : `fix what git reports, then run \`git handoff ${verb} ${remote}\` again`;
  return new HandoffError(
    'environment',
    unreachable ? 'remote-unreachable' : limit === 'rate' ? 'host-rate-limit' : `${verb}-failed`,
    `cannot ${verb} handoffs ${verb === 'fetch' ? 'from' : 'to'} ${remote}${url ? ` (${url})` : ''}: ${reason}\n${hint}. No local handoff was changed.`,
    { remote, url, stderr: stderr.trim() },
  );
}

/** handoff.hostWait: how long a host's rate limit is waited out before it is said (read only when one bites). */
export const hostWaitMs = (repo: Repo) => setting(readConfig(repo), 'hostWait');

/**
 * `git fetch` of refspecs from a remote; a lock in its way is waited out (one left behind: exit 4), a transport cut or
 * a rate limit tried again by the one retry policy (src/retry.ts); any other failure is transportError (exit 7).
 */
export function fetchFrom(repo: Repo, remote: string, refspecs: string[], o: { atomic?: boolean; prune?: boolean; full?: boolean } = {}): string {
  upgradeTracking(repo, true);
  return retrying((wait) => {
    const r = fetchingPacks(repo, () => repo.fetchRefs(remote, refspecs, o));
    if (r.status === 0) {
      noteContact(repo.commonDir, remote, true);
      return r.stderr;
    }
    const lock = localLockIn(repo, r.stderr);
    if (lock && wait(LOCK_IN_THE_WAY)) {
      waitOutLock(repo, refOfLock(repo, lock), lock);
      return AGAIN;
    }
    if (!lock && hostLimit(r.stderr) === 'rate' && wait(hostLimited(hostWaitMs(repo)))) return AGAIN;
    if (!lock && transientTransport(r.stderr) && wait(TRANSIENT)) return AGAIN;
    noteContact(repo.commonDir, remote, false, gitReason(r.stderr));
    throw transportError(repo, remote, 'fetch', r.stderr);
  });
}
