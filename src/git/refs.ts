// Ref reads and the only ways refs move: compare-and-swap update-ref, and all-or-nothing --stdin transactions.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { trace } from '../trace';
import { lockFileNamed } from './messages';
import { listRefsInProcess, packedRefs } from './refs-read';
import { readsHook } from './reads-hook';
import type { Repo } from './run';
import { ListedRef, type CasOutcome, type RefName, type RefOp, type RefRecord } from './storage';

export { onRefsRead } from './reads-hook';
export { ListedRef, type RefOp, type RefRecord } from './storage';

export function readRef(repo: Repo, ref: string): string | null {
  const r = repo.git(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { allowFail: true });
  const oid = r.status === 0 ? r.stdout.trim() : null;
  const told = readsHook();
  if (told && oid) told(repo, [{ ref, oid }]);
  return oid;
}

/** Whether git allows `name` as a branch name (`git check-ref-format --branch`: git's own rules, not a copy of them). */
export function isBranchName(repo: Repo, name: string): boolean {
  return !name.startsWith('-') && repo.git(['check-ref-format', '--branch', name], { allowFail: true }).status === 0;
}

/** The branch names this clone knows: local ones and each remote's (without the remote's name), one for-each-ref. */
export function knownBranchNames(repo: Repo): Set<string> {
  const out = new Set<string>();
  for (const ref of repo.out(['for-each-ref', '--format=%(refname)', 'refs/heads/', 'refs/remotes/']).split('\n')) {
    if (ref.startsWith('refs/heads/')) out.add(ref.slice('refs/heads/'.length));
    else if (ref.startsWith('refs/remotes/')) {
      const name = ref.split('/').slice(3).join('/');
      if (name && name !== 'HEAD') out.add(name);
    }
  }
  return out;
}

/** The ref a symbolic ref (HEAD) points to, or null when it is detached or not symbolic: a read, it moves nothing. */
export function symbolicTarget(repo: Repo, name: string): string | null {
  const r = repo.git(['symbolic-ref', '-q', name], { allowFail: true });
  return r.status === 0 ? r.stdout.trim() : null;
}

// git waits this long for a held ref lock before it gives up (its default is 100 ms).
const LOCK_TIMEOUT_MS = 300;

function classifyRefFailure(repo: Repo, stderr: string): CasOutcome & { ok: false } {
  const message = stderr.trim();
  const lockFile = lockFileNamed(repo.cwd, message);
  if (lockFile) return { ok: false, reason: 'locked', message, lockFile };
  if (/aborted by hook/.test(message)) return { ok: false, reason: 'hook', message };
  if (/is at [0-9a-f]+ but expected|reference already exists|unable to resolve reference|but expected|cannot lock ref/.test(message)) {
    return { ok: false, reason: 'lost', message };
  }
  throw new HandoffError('internal', 'update-ref-failed', `git update-ref failed: ${message}`);
}

/** Applies every op or none (`update-ref --stdin`); `noHooks`: no reference-transaction hook (the store checked it itself). */
export function transaction(repo: Repo, ops: RefOp[], reason = 'git-handoff', env?: NodeJS.ProcessEnv, noHooks = false): CasOutcome {
  const lines = ['start'];
  for (const o of ops) {
    if (o.op === 'create') lines.push(`create ${o.ref} ${o.newOid}`);
    else if (o.op === 'update') lines.push(`update ${o.ref} ${o.newOid} ${o.oldOid}`);
    else if (o.op === 'delete') lines.push(`delete ${o.ref} ${o.oldOid}`);
    else lines.push(`verify ${o.ref} ${o.oldOid ?? ''}`.trimEnd());
  }
  lines.push('prepare', 'commit');
  const r = repo.git([...(noHooks ? ['-c', 'core.hooksPath=/dev/null'] : []), '-c', `core.filesRefLockTimeout=${LOCK_TIMEOUT_MS}`, 'update-ref', '-m', reason, '--stdin'], {
    input: lines.join('\n') + '\n',
    allowFail: true,
    env,
  });
  return r.status === 0 ? { ok: true } : classifyRefFailure(repo, r.stderr);
}

/** The fields a listing reads: name, oid, committer time, raw trailer block (one atom, see GIT-NOTES). */
const LISTING_FORMAT = '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00';

/** One `git for-each-ref` for any number of refs: name, oid, committer time, raw trailer block; the loss record told. */
export function listRefs(repo: Repo, patterns: string[]): RefRecord[] {
  const refs = listingOf(repo, patterns);
  compareRefsRead(repo, refs, null);
  return refs;
}

/** listRefs's reading (in this process where it can, else one `git for-each-ref`), the loss record not told: the caller tells it (compareRefsRead). */
export function listingOf(repo: Repo, patterns: string[]): RefRecord[] {
  const own = listRefsInProcess(repo, patterns);
  if (own) trace('refs listed in process');
  return own ?? cutListing(repo.git(['for-each-ref', LISTING_FORMAT, ...patterns]).stdout);
}

/** Tells the loss record of refs a command read, answering the record commit they agree with (null: not compared, or not in agreement). */
export const compareRefsRead = (repo: Repo, refs: Array<{ ref: string; oid: string }>, agreed: string | null): string | null => readsHook()?.(repo, refs, agreed) ?? null;

/** for-each-ref's LISTING_FORMAT output as records; throws where a record does not parse. */
function cutListing(s: string): RefRecord[] {
  const out: RefRecord[] = [];
  // `<ref>\0<oid>\0<time>\0<block>\0\n` each, cut where the NULs are (no array of 40,000 fields for a listing)
  for (let at = 0; ; ) {
    const a = s.indexOf('\0', at);
    const b = a < 0 ? -1 : s.indexOf('\0', a + 1);
    const c = b < 0 ? -1 : s.indexOf('\0', b + 1);
    const d = c < 0 ? -1 : s.indexOf('\0', c + 1);
    if (d < 0) break;
    const ref = s.slice(s.charCodeAt(at) === 10 ? at + 1 : at, a);
    // NUL separates fields and git never prints one from a message: a record out of step is a broken read, not data
    const oid = s.slice(a + 1, b);
    if (!ref.startsWith('refs/') || (oid.length !== 40 && oid.length !== 64)) throw new HandoffError('integrity', 'unreadable-refs', `git for-each-ref printed a record that does not parse (${JSON.stringify(ref.slice(0, 80))})`);
    out.push(new ListedRef(ref, oid, Number(s.slice(b + 1, c)) || 0, s.slice(c + 1, d)));
    at = d + 1;
  }
  return out;
}

/** The refs matching `patterns`, name and oid only (git reads no object for them: no time, no block); the caller tells compareRefsRead. */
export const listRefNames = (repo: Repo, patterns: string[]): RefName[] => cutListing(repo.git(['for-each-ref', '--format=%(refname)%00%(objectname)%00%00%00', ...patterns]).stdout);

/**
 * The deletions in a `prepared` reference-transaction that are git packing refs, not removing them: packed-refs holds
 * the same value and is not locked (git takes packed-refs.lock for every real deletion before the hook runs).
 */
export function packingPrunes(commonDir: string, updates: Array<{ ref: string; oldOid: string | null; newOid: string | null }>): Set<string> {
  const deletions = updates.filter((u) => u.newOid === null && u.oldOid);
  if (deletions.length === 0 || existsSync(path.join(commonDir, 'packed-refs.lock'))) return new Set();
  const packed = packedRefs(commonDir);
  return new Set(deletions.filter((u) => packed.get(u.ref) === u.oldOid).map((u) => u.ref));
}
