// The one ref reader in this process: packed-refs and loose ref files, read only where that is provably what
// for-each-ref would print (a plain SHA-1 repository, plain loose ref files, every tip a loose commit; anything else is
// null, and git answers), the listings a command keeps (RefsOnce: one read per fact per process), and who is told of
// the refs read (onRefsRead); a packing's prunes; and the worktrees' directories, read from the git directory.
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { readTextOr } from '../read-file';
import { readConfigInProcess } from './config-read';
import { readLoose } from './loose-read';
import { parseCommit, RefRecord, type Storage } from './storage';
import { commitTrailerBlock } from './trailers';

/**
 * The packed refs whose name starts with one of `prefixes` (all without one): ref → oid; empty when there is no
 * packed-refs file. One open of the file; read without reading it whole when git wrote it sorted (its header says so):
 * for each prefix a binary search for where such lines would start, then forward while they last. A file of 100,000
 * handoff refs costs a few 4 KiB reads when none has the prefix.
 */
export function packedRefs(commonDir: string, ...prefixes: string[]): Map<string, string> {
  const out = new Map<string, string>();
  let fd: number;
  try {
    fd = openSync(path.join(commonDir, 'packed-refs'), 'r');
  } catch {
    return out;
  }
  // read as bytes; a ref name is UTF-8, as git prints it
  const add = (line: string) => {
    const text = Buffer.from(line, 'latin1').toString('utf8');
    out.set(text.slice(text.indexOf(' ') + 1), text.slice(0, text.indexOf(' ')));
  };
  try {
    const size = fstatSync(fd).size;
    const read = (at: number, len: number) => {
      const b = Buffer.alloc(Math.max(0, Math.min(len, size - at)));
      return b.subarray(0, b.length ? readSync(fd, b, 0, b.length, at) : 0).toString('latin1');
    };
    const head = read(0, 512);
    const sorted = / sorted( |$)/.test(head.startsWith('# pack-refs with:') ? head.slice(0, head.indexOf('\n')) : '');
    const refOf = (line: string) => (!line || line[0] === '#' || line[0] === '^' ? null : line.slice(line.indexOf(' ') + 1));
    const scan = (prefix: string) => {
      let from = 0;
      if (sorted) {
        // lo: an offset at or before the first line with a name >= prefix (every line before it sorts lower)
        let [lo, hi] = [0, size];
        while (hi - lo > 8192) {
          const mid = Math.floor((lo + hi) / 2);
          // the first whole ref line in the chunk: after a newline, not a peeled line
          const lines = read(mid, 8192).split('\n').slice(1, -1).map(refOf).filter((r): r is string => r !== null);
          if (lines.length === 0 || lines[0] >= prefix) hi = mid;
          else lo = mid;
        }
        from = lo;
      }
      let rest = '';
      for (let at = from, first = from > 0; at < size; at += 65536) {
        const lines = (rest + read(at, 65536)).split('\n');
        rest = at + 65536 < size ? lines.pop()! : '';
        // a partial line: the search landed inside it
        if (first) lines.shift();
        first = false;
        for (const line of lines) {
          const ref = refOf(line);
          if (ref === null) continue;
          if (ref.startsWith(prefix)) add(line);
          else if (sorted && ref > prefix) return;
        }
      }
      if (refOf(rest)?.startsWith(prefix)) add(rest);
    };
    for (const prefix of prefixes.length ? prefixes : ['']) scan(prefix);
    return out;
  } finally {
    closeSync(fd);
  }
}

// where objects or refs are found otherwise than in the common directory's own files
const MOVED = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH', 'GIT_NAMESPACE', 'GIT_REF_PARANOIA'];
/** a ref name component git takes as it is and this reader too: no dot first, no `.lock` at the end */
const PLAIN_COMPONENT = /^(?!\.)[A-Za-z0-9._%+-]+$/;
const OID = /^[0-9a-f]{40}\n$/;
// the refs of one worktree (git's files backend keeps them in its own git directory)
const PER_WORKTREE = /^refs\/(bisect|worktree|rewritten)(\/|$)/;

/** The loose refs under `dir` (the ref name `name`, ending in `/`) that `wanted` takes, name → oid; false for anything not plain. */
function looseRefs(dir: string, name: string, out: Map<string, string>, wanted: (ref: string) => boolean): boolean {
  let entries: Dirent[];
  // most often there is none: a look costs less than the exception of a failed read
  if (!existsSync(dir)) return true;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
  for (const e of entries) {
    if (!PLAIN_COMPONENT.test(e.name) || e.name.endsWith('.lock')) return false;
    const ref = `${name}${e.name}`;
    if (!wanted(e.isDirectory() ? `${ref}/` : ref)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!looseRefs(p, `${ref}/`, out, wanted)) return false;
      continue;
    }
    // not a file, unreadable or not an oid: git's to say
    const text = (e.isFile() && readTextOr(p)) || '';
    if (!OID.test(text)) return false;
    out.set(ref, text.slice(0, 40));
  }
  return true;
}

/** One tip as for-each-ref reads it: its committer time and trailer block; null where git must read it. */
function tipRecord(repo: Pick<Storage, 'commonDir'>, ref: string, oid: string): RefRecord | null {
  const o = readLoose(repo, oid, 64 * 1024);
  if (!o || o.type !== 'commit') return null;
  const c = parseCommit(o.content.toString('latin1'));
  const block = c.committerTime ? commitTrailerBlock(c.message) : null;
  // what for-each-ref prints is bytes, read as UTF-8 by the caller: the same here
  return block === null ? null : new RefRecord(ref, oid, c.committerTime, Buffer.from(block, 'latin1').toString('utf8'));
}

/** listRefs(patterns) read in this process, or null: ask git. */
export function listRefsInProcess(repo: Pick<Storage, 'commonDir' | 'gitDir' | 'objectFormat' | 'plain'>, patterns: string[]): RefRecord[] | null {
  if (!repo.plain || repo.objectFormat !== 'sha1' || MOVED.some((k) => process.env[k] !== undefined)) return null;
  // commitTrailerBlock finds git's block under its default trailer rules and comment character only
  if (readConfigInProcess(repo, /^(trailer\.|core\.comment)/)?.size !== 0) return null;
  const scans: Array<{ test: (ref: string) => boolean; prefix: string; wanted: (ref: string) => boolean }> = [];
  for (const pattern of patterns) {
    const test = matcher(pattern);
    const glob = pattern.search(/[*?]/);
    // the directory the pattern's last literal component (or its first wildcard) lies in
    const prefix = pattern.slice(0, pattern.lastIndexOf('/', glob < 0 ? pattern.length - 1 : glob) + 1);
    if (!test || !prefix.startsWith('refs/') || PER_WORKTREE.test(pattern) || (glob >= 0 && prefix === 'refs/')) return null;
    // a directory is read where refs the pattern names may lie
    scans.push({ test, prefix, wanted: (ref: string) => (ref.endsWith('/') ? glob >= 0 || pattern.startsWith(ref) || test(ref) : test(ref)) });
  }
  // packed-refs read once for every pattern; a loose ref stands over its packed value
  const found = packedRefs(repo.commonDir, ...scans.map((s) => s.prefix));
  for (const s of scans) if (!looseRefs(path.join(repo.commonDir, ...s.prefix.split('/').filter(Boolean)), s.prefix, found, s.wanted)) return null;
  const tips = new Map([...found].filter(([ref]) => scans.some((s) => s.test(ref))));
  const out: RefRecord[] = [];
  for (const ref of [...tips.keys()].sort()) {
    const r = tipRecord(repo, ref, tips.get(ref)!);
    if (!r) return null;
    out.push(r);
  }
  return out;
}

/** for-each-ref's test of one pattern: the name itself or a prefix of it up to a slash, or a `*`/`?` glob that crosses no slash; null for a glob this file does not read (git answers). */
function matcher(pattern: string): ((ref: string) => boolean) | null {
  const literal = (ref: string) => ref.startsWith(pattern) && (ref.length === pattern.length || ref[pattern.length] === '/' || pattern.endsWith('/'));
  if (!/[*?[\\]/.test(pattern)) return literal;
  if (/\[|\\|\*\*/.test(pattern)) return null;
  const glob = new RegExp(`^${pattern.replace(/[.+^${}()|/-]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  return (ref) => literal(ref) || glob.test(ref);
}

/** Whether every ref `pattern` can name was listed under `listed`: a literal it lies under, or a glob whose every `/` part is the same or `*`. */
function covers(listed: string[], pattern: string): boolean {
  const glob = /[*?[\\]/.test(pattern);
  const parts = pattern.split('/');
  const wider = (p: string) => {
    const own = p.split('/');
    return own.length === parts.length && own.every((s, i) => s === parts[i] || s === '*');
  };
  return listed.some((p) => (/[*?[\\]/.test(p) ? glob && wider(p) : !glob && matcher(p)!(pattern)));
}

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

/**
 * Told of the refs this process reads (the loss record compares what a command reads anyway: record/record-reads.ts).
 * Answers the record commit the refs were found to agree with, or null (not compared, or they differ); `agreed`: a
 * record commit these very refs (as a set) were found to agree with before.
 */
type ReadsHook = (repo: Storage, refs: Array<{ ref: string; oid: string }>, agreed: string | null) => string | null;
let hook: ReadsHook | null = null;
export const onRefsRead = (f: ReadsHook | null): void => {
  hook = f;
};
export const readsHook = (): ReadsHook | null => hook;

export class RefsOnce {
  /** each listing kept, with the refs this process moved since it was made (read from git again) */
  private readonly listings: Array<{ patterns: string[]; records: RefRecord[]; moved: Set<string> }> = [];

  /** Keeps a listing, newest first; a process that writes many handoffs (import) keeps one per write, so only the newest few stay. */
  add(patterns: string[], records: RefRecord[]): void {
    this.listings.unshift({ patterns, records, moved: new Set() });
    this.listings.length = Math.min(this.listings.length, 8);
  }

  /** listRefs's answer from a listing that covers `patterns`, or null where git has to answer. */
  list(patterns: string[]): RefRecord[] | null {
    const tests = patterns.map(matcher);
    if (tests.some((t) => t === null)) return null;
    const hit = (ref: string) => tests.some((t) => t!(ref));
    const from = this.listings.find((l) => patterns.every((p) => covers(l.patterns, p)) && ![...l.moved].some(hit));
    return from ? from.records.filter((r) => hit(r.ref)) : null;
  }

  /** readRef's answer (a commit's id, or null: no such ref), or undefined where git has to answer (not listed, moved, not a commit). */
  readRef(ref: string): string | null | undefined {
    const found = this.list([ref]);
    if (!found) return undefined;
    const rec = found.find((r) => r.ref === ref);
    // a committer time says the ref names a commit (readRef peels to one: anything else is git's to read)
    return !rec ? null : rec.time > 0 ? rec.oid : undefined;
  }

  /** The listings less the refs this process has just moved (or tried to). */
  movedRefs(refs: string[]): void {
    for (const l of this.listings) for (const r of refs) l.moved.add(r);
  }
}

/** The branch a git directory's HEAD names, read directly: one file read instead of a process, and it works on an unborn branch. */
export function readHeadBranch(gitDir: string): string | null {
  // only the final newline goes: a branch name may hold (or end in) U+2028 and similar, which trim() and '.' drop
  const head = readTextOr(path.join(gitDir, 'HEAD'))?.replace(/\r?\n$/, '') ?? '';
  return /^ref: refs\/heads\/(.+)$/s.exec(head)?.[1] ?? null;
}

/** Every worktree of the repository at `commonDir` (`worktree`, when given, among them), read from the git directory: no git started. */
export function worktreesOf(commonDir: string, worktree: string | null = null): string[] {
  const out = new Set(worktree ? [path.resolve(worktree)] : []);
  if (path.basename(commonDir) === '.git') out.add(path.dirname(path.resolve(commonDir)));
  let ids: string[] = [];
  try {
    ids = readdirSync(path.join(commonDir, 'worktrees'));
  } catch {
    /* no linked worktree */
  }
  for (const id of ids) {
    try {
      const dotGit = readFileSync(path.join(commonDir, 'worktrees', id, 'gitdir'), 'utf8').trim();
      if (path.isAbsolute(dotGit)) out.add(path.dirname(dotGit));
    } catch {
      /* a worktree being added or pruned */
    }
  }
  return [...out];
}
