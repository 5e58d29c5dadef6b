// Ref reads and the only ways refs move: compare-and-swap update-ref, and all-or-nothing --stdin transactions.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from './repo';
import { trailerBlockLines } from './trailers';

/**
 * Told of the refs this process reads (the loss record compares what a command reads anyway: record/record-reads.ts).
 * Answers the record commit the refs were found to agree with, or null (not compared, or they differ); `agreed`: a
 * record commit these very refs (as a set) were found to agree with before.
 */
type ReadsHook = (repo: Repo, refs: Array<{ ref: string; oid: string }>, agreed?: string | null) => string | null;
let readsHook: ReadsHook | null = null;
export const onRefsRead = (f: typeof readsHook): void => {
  readsHook = f;
};

export function readRef(repo: Repo, ref: string): string | null {
  const r = repo.git(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { allowFail: true });
  const oid = r.status === 0 ? r.stdout.trim() : null;
  if (readsHook && oid) readsHook(repo, [{ ref, oid }]);
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

export type CasOutcome = { ok: true } | { ok: false; reason: 'lost' | 'locked' | 'hook'; message: string; lockFile?: string };

// git waits this long for a held ref lock before it gives up (its default is 100 ms).
const LOCK_TIMEOUT_MS = 300;

/** `git update-ref ref new old` (old null = create only). Classifies why a failed update failed. */
export function casUpdateRef(repo: Repo, ref: string, newOid: string, oldOid: string | null, reason = 'git-handoff'): CasOutcome {
  const r = repo.git(['-c', `core.filesRefLockTimeout=${LOCK_TIMEOUT_MS}`, 'update-ref', '-m', reason, ref, newOid, oldOid ?? ''], {
    allowFail: true,
  });
  return r.status === 0 ? { ok: true } : classifyRefFailure(repo, r.stderr);
}

/** The lock file git names as in its way in `stderr` ("Unable to create '….lock': File exists"), as an absolute path, else null. */
export function lockFileNamed(repo: Repo, stderr: string): string | null {
  const m = /Unable to create '([^']+\.lock)': File exists/.exec(stderr);
  return m ? path.resolve(repo.cwd, m[1]) : null;
}

export function classifyRefFailure(repo: Repo, stderr: string): CasOutcome & { ok: false } {
  const message = stderr.trim();
  const lockFile = lockFileNamed(repo, message);
  if (lockFile) return { ok: false, reason: 'locked', message, lockFile };
  if (/aborted by hook/.test(message)) return { ok: false, reason: 'hook', message };
  if (/is at [0-9a-f]+ but expected|reference already exists|unable to resolve reference|but expected|cannot lock ref/.test(message)) {
    return { ok: false, reason: 'lost', message };
  }
  throw new HandoffError('internal', 'update-ref-failed', `git update-ref failed: ${message}`);
}

export type RefOp =
  | { op: 'create'; ref: string; newOid: string }
  | { op: 'update'; ref: string; newOid: string; oldOid: string }
  | { op: 'delete'; ref: string; oldOid: string }
  | { op: 'verify'; ref: string; oldOid: string | null };

/**
 * Applies every op or none (`update-ref --stdin` start/prepare/commit); `env` for git (and so its hooks). `noHooks`:
 * git runs no reference-transaction hook for it (core.hooksPath=/dev/null), for a move whose hook is git-handoff's
 * own stub alone and whose check the store has made itself (src/handoff/store/tx: MoveOptions.own).
 */
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

export interface RefRecord {
  ref: string;
  oid: string;
  /** committer time, unix seconds */
  time: number;
  /** the tip's trailer block as git finds it (`%(trailers)`, not unfolded), one element per line */
  readonly trailers: string[];
  /** that block as git printed it, for a reader that takes it whole (parseTrailerBlock) */
  readonly block: string;
}

/** A record of listRefs: its trailer lines split from the block when first asked for (a listing of 10,000 reads the block whole). */
export class ListedRef implements RefRecord {
  #lines: string[] | undefined;
  constructor(
    readonly ref: string,
    readonly oid: string,
    readonly time: number,
    readonly block: string,
  ) {}
  get trailers(): string[] {
    return (this.#lines ??= trailerBlockLines(this.block));
  }
}

/** The fields a listing reads: name, oid, committer time, raw trailer block (one atom, see GIT-NOTES). */
const LISTING_FORMAT = '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00';

/** One `git for-each-ref` for any number of refs: name, oid, committer time, raw trailer block; the loss record told. */
export function listRefs(repo: Repo, patterns: string[]): RefRecord[] {
  const refs = listingOf(repo, patterns);
  compareRefsRead(repo, refs, null);
  return refs;
}

/** listRefs's one `git for-each-ref`, the loss record not told: the caller tells it (compareRefsRead) of what it answers. */
export const listingOf = (repo: Repo, patterns: string[]): RefRecord[] => cutListing(repo.git(['for-each-ref', LISTING_FORMAT, ...patterns]).stdout);

/** Tells the loss record of refs a command read, answering the record commit they agree with (null: not compared, or not in agreement). */
export const compareRefsRead = (repo: Repo, refs: Array<{ ref: string; oid: string }>, agreed: string | null): string | null => (readsHook ? readsHook(repo, refs, agreed) : null);

/** for-each-ref's LISTING_FORMAT output as records; throws where a record does not parse. */
function cutListing(s: string, out: RefRecord[] = []): RefRecord[] {
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

/** The refs matching `patterns`, name and oid only (git reads no object for them); the caller tells compareRefsRead. */
export function listRefNames(repo: Repo, patterns: string[]): Array<{ ref: string; oid: string }> {
  const s = repo.git(['for-each-ref', '--format=%(refname)%00%(objectname)', ...patterns]).stdout;
  const out: Array<{ ref: string; oid: string }> = [];
  for (let at = 0; at < s.length; ) {
    const nl = s.indexOf('\n', at);
    const end = nl < 0 ? s.length : nl;
    const z = s.indexOf('\0', at);
    const ref = z < 0 || z > end ? '' : s.slice(at, z);
    const oid = z < 0 || z > end ? '' : s.slice(z + 1, end);
    if (!ref.startsWith('refs/') || (oid.length !== 40 && oid.length !== 64)) throw new HandoffError('integrity', 'unreadable-refs', `git for-each-ref printed a record that does not parse (${JSON.stringify(s.slice(at, Math.min(end, at + 80)))})`);
    out.push({ ref, oid });
    at = end + 1;
  }
  return out;
}

/** The packed-refs file: ref → oid (peeled lines skipped); empty when there is none. */
export function readPackedRefs(commonDir: string): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(path.join(commonDir, 'packed-refs'), 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line || line[0] === '#' || line[0] === '^') continue;
    const sp = line.indexOf(' ');
    if (sp > 0) out.set(line.slice(sp + 1), line.slice(0, sp));
  }
  return out;
}

/**
 * The deletions in a `prepared` reference-transaction that are git packing refs (`pack-refs`, `gc`), not removing
 * them: the loose file goes while packed-refs already holds the same value. Git takes packed-refs.lock for every
 * real deletion before the hook runs, and not for the prune that follows packing (git 2.39 runs the hook for both).
 */
export function packingPrunes(commonDir: string, updates: Array<{ ref: string; oldOid: string | null; newOid: string | null }>): Set<string> {
  const deletions = updates.filter((u) => u.newOid === null && u.oldOid);
  if (deletions.length === 0 || existsSync(path.join(commonDir, 'packed-refs.lock'))) return new Set();
  const packed = readPackedRefs(commonDir);
  return new Set(deletions.filter((u) => packed.get(u.ref) === u.oldOid).map((u) => u.ref));
}

/**
 * The lines of packed-refs whose ref name starts with `prefix` (`<oid> <ref>`, peeled lines skipped), read without
 * reading the whole file when git wrote it sorted (its header says so): a binary search for where such lines would
 * start, then forward while they last. A file of 100,000 handoff refs costs a few 4 KiB reads when none has the prefix.
 */
export function packedRefsUnder(commonDir: string, prefix: string): string[] {
  let fd: number;
  try {
    fd = openSync(path.join(commonDir, 'packed-refs'), 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const read = (at: number, len: number) => {
      const b = Buffer.alloc(Math.max(0, Math.min(len, size - at)));
      return b.subarray(0, b.length ? readSync(fd, b, 0, b.length, at) : 0).toString('latin1');
    };
    const head = read(0, 512);
    const sorted = / sorted( |$)/.test(head.startsWith('# pack-refs with:') ? head.slice(0, head.indexOf('\n')) : '');
    const refOf = (line: string) => (!line || line[0] === '#' || line[0] === '^' ? null : line.slice(line.indexOf(' ') + 1));
    let from = 0;
    if (sorted) {
      // lo: an offset at or before the first line with a name >= prefix (every line before it sorts lower)
      let [lo, hi] = [0, size];
      while (hi - lo > 8192) {
        const mid = Math.floor((lo + hi) / 2);
        const chunk = read(mid, 8192);
        // the first whole ref line in the chunk: after a newline, not a peeled line
        const lines = chunk.split('\n').slice(1, -1).map(refOf).filter((r): r is string => r !== null);
        if (lines.length === 0 || lines[0] >= prefix) hi = mid;
        else lo = mid;
      }
      from = lo;
    }
    const out: string[] = [];
    let rest = '';
    for (let at = from, first = from > 0; at < size; at += 65536) {
      const lines = (rest + read(at, 65536)).split('\n');
      rest = at + 65536 < size ? lines.pop()! : '';
      if (first) {
        lines.shift(); // a partial line: the search landed inside it
        first = false;
      }
      for (const line of lines) {
        const ref = refOf(line);
        if (ref === null) continue;
        if (ref.startsWith(prefix)) out.push(line);
        else if (sorted && ref > prefix) return out;
      }
    }
    const last = refOf(rest);
    if (last?.startsWith(prefix)) out.push(rest);
    return out;
  } finally {
    closeSync(fd);
  }
}
