// The storage port (git-bug's repository.Repo): every question asked of a repository and every object and ref written,
// as typed operations; no command line crosses it (./repo.ts implements it). Commits and ref moves are keyed by symbols
// only the store's transaction module imports (test/design/layers.test.ts).
import { trailerBlockLines } from './trailers';

// registered symbols (Symbol.for): two bundles, each with its own copy of this module, run in one process
export const WRITE_COMMIT: unique symbol = Symbol.for('git-handoff: write commit');
export const MOVE_REFS: unique symbol = Symbol.for('git-handoff: move refs');

/** A ref and the object it names, as listed (no object read). */
export interface RefName {
  ref: string;
  oid: string;
}

/** A tip as listed with its committer time (unix seconds) and trailer block as git prints it (`%(trailers)`), split in lines when first asked for. */
export class RefRecord implements RefName {
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

export type RefOp =
  | { op: 'create'; ref: string; newOid: string }
  | { op: 'update'; ref: string; newOid: string; oldOid: string }
  | { op: 'delete'; ref: string; oldOid: string }
  | { op: 'verify'; ref: string; oldOid: string | null };

/** How a transaction ended: applied, or why not (`lost`: a ref was not at its expected value). */
export type CasOutcome = { ok: true } | { ok: false; reason: 'lost' | 'locked' | 'hook'; message: string; lockFile?: string };

export interface MoveRefsOptions {
  /** the reflog message */
  reason: string;
  env?: NodeJS.ProcessEnv;
  noHooks?: boolean;
}

export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

export type Bounded = BatchObject | { oversize: number } | null;

/** A commit as `git log` summarises it: what recover reads of commits no ref reaches, and the trailers of any commit. */
export interface CommitSummary {
  oid: string;
  parents: string[];
  /** `%(trailers)`, one element per line */
  trailers: string[];
  tree: string;
  /** committer time, unix seconds */
  time: number;
  subject: string;
}

/** One version of `history`: git log's fields with what %G?, %GK and %GS say of its signature. */
export interface LogRecord {
  oid: string;
  time: number;
  parents: string[];
  subject: string;
  block: string;
  /** %G?, %GK, %GS */
  signature: [string, string, string];
}

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** the name, or the path from the tree's root in a recursive reading */
  path: string;
}

/** Which commits a walk reads (`git rev-list`): from `from`, none reachable from `not`, nor from the refs under `notRefs`. */
export interface Walk {
  /** revisions as rev-list takes them (`--not` and ref options included) */
  from: string[];
  not?: string[];
  /** ref globs (`refs/handoff-remotes/*`) and every remote-tracking branch (`remotes`) whose history is left out */
  notRefs?: { globs: string[]; remotes?: boolean };
  /** oldest first, each after its parents */
  oldestFirst?: boolean;
  /** at most this many commits, merges left out when `noMerges` */
  max?: number;
  noMerges?: boolean;
  /** none, rather than a throw, when git cannot walk them (an object missing) */
  lenient?: boolean;
}

export interface GitResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A git process bounded in time, never asking anyone anything (run.ts gitBounded); status null: killed or not started. */
export interface NetResult {
  status: number | null;
  stderr: string;
  timedOut: boolean;
}

/** The configuration a command reads (key in lower case → its values in git's order). */
export type Config = Map<string, string[]>;

/** A bare repository beside this one (the record's witness). */
export interface SideRepository {
  readonly dir: string;
  /** creates it (bare, this repository's object format); false when git could not */
  init(): boolean;
  hasCommit(oid: string): boolean;
  gc(o: { pruneNow?: boolean; env?: NodeJS.ProcessEnv }): void;
}

/** Where a repository is and what it is: what openRepo finds before any operation. */
export interface RepoPlace {
  /** where git commands run (the worktree top, or the git dir of a bare repository) */
  readonly cwd: string;
  readonly gitDir: string;
  readonly commonDir: string;
  /** null in a bare repository */
  readonly worktree: string | null;
  readonly bare: boolean;
  readonly objectFormat: 'sha1' | 'sha256';
  /** the checked-out branch (short name), null when HEAD is detached */
  readonly branch: string | null;
  /** `handoff.formatVersion` in the repository's own config file as it says now (SPEC 2 "Format version") */
  readonly storeFormat?: number | null;
  /** found without git: this user's, plain configuration, no GIT_DIR or command-line configuration */
  readonly plain?: boolean;
}

export interface Storage extends RepoPlace {
  // ---- refs
  /** The commit a ref names (peeled), or null; the loss record is told of it. */
  readRef(ref: string): string | null;
  /** Tips with committer time and trailer block, from one for-each-ref; the loss record is told of them. */
  listRefs(patterns: string[]): RefRecord[];
  /** listRefs (by `list` when given), kept: the reads `patterns` cover are answered from it from then on (src/git/refs-once.ts). */
  keepRefs(patterns: string[], list?: () => RefRecord[]): RefRecord[];
  /** listRefs without telling the loss record: the caller tells it (tellRefsRead) of what it answers. */
  listRefsUntold(patterns: string[]): RefRecord[];
  /** Tells the loss record of refs a command read; answers the record commit they agree with, or null. */
  tellRefsRead(refs: RefName[], agreed: string | null): string | null;
  /** Names and oids under `patterns` (no object read, the loss record not told). */
  listRefNames(patterns: string[]): RefName[];
  /** The first ref under `patterns` (`short`: its short name), of those whose history holds `contains` when given. */
  firstRef(patterns: string[], o?: { contains?: string; short?: boolean }): string | null;
  /** The full name a revision names as a ref (`@{-1}` → refs/heads/x), or null; `named` false when git could not read it. */
  fullRefName(spec: string): { named: boolean; full: string };
  /** The subjects of a ref's reflog, newest first (empty when it has none). */
  reflogSubjects(ref: string): string[];
  /** Applies every op or none, each by its expected old value. Only src/handoff/store/tx holds the key. */
  [MOVE_REFS](ops: RefOp[], o: MoveRefsOptions): CasOutcome;

  // ---- objects
  /** The object a revision names (`<oid>^{tree}`, `<ref>^{commit}`), or null. */
  resolve(spec: string): string | null;
  /** Many objects (any revision syntax, `<oid>:handoff.md`) in one read; null where missing. */
  readObjects(specs: string[], maxBuffer?: number): Array<BatchObject | null>;
  /** readObjects that never reads an object over its limit: those come back as { oversize }. */
  readObjectsBounded(specs: string[], max: number[]): Bounded[];
  /** Each commit and files of its tree, each within its bound (the commit's, then each file's): one read for them all, kept for the process (an object never changes under its id). */
  readCommitFiles(oids: string[], names: string[], max: number[]): Bounded[][];
  /** Id, type and size of many objects (any revision syntax: `<commit>:<path>`); null where missing, not named uniquely, or git could not tell. */
  objectInfo(specs: string[]): Array<{ oid: string; type: string; size: number } | null>;
  /** Parents, tree, time, subject and trailers of many commits, in the order given (missing ones left out). */
  describeCommits(oids: string[]): CommitSummary[];
  /** The entries of a tree; throws when it cannot be read. */
  readTree(treeish: string): TreeEntry[];
  /** Every blob of a tree by its path from the root (a commit's, whatever directory git runs in); null when it cannot be read. */
  readTreeDeep(treeish: string): TreeEntry[] | null;
  /** The object id a blob of `content` would have, written nowhere. */
  blobId(content: string): string;
  writeBlobs(contents: string[]): string[];
  /** A tree of entries, blobs of mode 100644 unless their mode and type are given (kept as given). */
  writeTree(entries: Array<{ name: string; oid: string; mode?: string; type?: string }>): string;
  /** `base`'s tree (or an empty one) with each blob put at its path, subtrees made as needed. */
  writeTreeWithPaths(base: string | null, entries: Array<{ path: string; oid: string }>): string;
  /** A commit: `raw` as given, or from tree, parents and message with `env`'s identity (`sign`: signed). Only store/tx holds the key. */
  [WRITE_COMMIT](c: { raw: string } | { tree: string; parents: string[]; message: string; env?: NodeJS.ProcessEnv; sign?: boolean }): string;

  // ---- history
  isAncestor(a: string, b: string): boolean;
  mergeBase(a: string, b: string): string | null;
  /** Those of `oids` no other of them reaches (`merge-base --independent`). */
  independent(oids: string[]): string[];
  /** The commits of a walk, newest first (oldestFirst: oldest first); throws when an object is missing, unless lenient. */
  commits(w: Walk): string[];
  /** How many commits `tip` reaches (`firstParent`: along first parents), in this process while they are loose; null when it cannot be read. */
  revCount(tip: string, o?: { firstParent?: boolean }): number | null;
  /** Commits only `a` reaches and only `b` reaches; null when either cannot be read. Once a process for each pair. */
  leftRight(a: string, b: string): [number, number] | null;
  /** leftRight of each of `heads` (object names in hex) against `tip`, made ahead in one walk of them all. */
  leftRights(heads: string[], tip: string): void;
  /** What each commit changed against its first parent (a root: against nothing), file by file with the blob before and after (zeros: none). */
  commitChanges(oids: string[]): Array<{ commit: string; path: string; before: string; after: string }>;
  /** Every commit the tips reach with its parents; null when an object is missing. */
  parentsOf(tips: string[]): Map<string, string[]> | null;
  /** Commits no ref reaches (reflogs not counted); throws when git cannot tell. */
  unreachableCommits(): string[];
  /** Every version `rev` reaches, newest first, with what git says of each signature; `unsure`: git said a signature could not be checked. */
  history(rev: string): { entries: LogRecord[]; unsure: boolean };
  /** The commits `refs` reach (newest first, at most `max`, made since `since` in unix seconds), each as its `fields` (git log's format atoms); empty when git cannot walk them. */
  logFields(refs: string[], fields: string[], o: { max?: number; since?: number }): string[][];
  /** Each commit `from` reaches and `not` does not, `ref` the ref it came through; `grep`: messages holding one of these texts. Empty when git cannot walk them (`strict`: throws). */
  commitsVia(from: string[], o?: { not?: string[]; grep?: string[]; strict?: boolean }): RefRecord[];

  // ---- configuration
  /** handoff.* settings and the identity keys, in one read. */
  config(): Config;
  /** The configuration read last for this repository, if any. */
  knownConfig(): Config | undefined;
  /** The keys of the repository's own config file that match a regexp (`git config --get-regexp`), as git prints them, with their values. */
  localConfig(pattern: string): Map<string, string[]>;
  /** Adds a value to a key of the repository's own config file, or (`remove`) takes every value equal to it off; throws when git cannot. */
  changeLocalConfig(key: string, o: { add: string } | { remove: string }): void;
  /** Sets a key in the repository's own config file (`replacing`: only the value equal to it); `locked` when another process held the file. */
  setLocalConfig(key: string, value: string, replacing?: string): { ok: boolean; locked: boolean };
  remoteNames(): string[];
  /** A remote's address (`push`: the one it pushes to), empty when git has none. */
  remoteUrl(remote: string, o?: { push?: boolean }): string;
  /** The hooks directory git uses here (core.hooksPath, the common directory of a linked worktree). */
  hooksDir(): string;

  // ---- the worktree
  /** The paths that differ as `git diff` compares (`revs`, `cached`), each with its status letter; null when git could not tell. */
  diffPaths(o: { revs?: string[]; cached?: boolean; paths?: string[] }): Array<{ status: string; path: string }> | null;
  /** Paths with uncommitted changes (staged, unstaged, untracked) in a worktree, read without an optional lock; null when git could not tell. */
  changedPaths(worktree: string): string[] | null;
  /** The tracked files `pathspecs` name, from the worktree's top; throws when git cannot tell. */
  trackedPaths(pathspecs: string[]): string[];
  /** Every worktree and the branch it has checked out; null when git could not tell. */
  worktrees(): Array<{ path: string; branch: string | null }> | null;

  // ---- remotes
  /** `git fetch` of refspecs from a remote, bounded in time (`prune`: tracking refs the remote no longer has go). */
  fetchBounded(remote: string, refspecs: string[], timeoutMs: number, o?: { prune?: boolean }): Promise<NetResult>;
  /** `git push` of one ref by compare-and-swap on the remote (`--force-with-lease`), bounded in time. */
  pushBounded(remote: string, push: { oid: string; ref: string; expected: string | null; atomic: boolean }, timeoutMs: number): Promise<NetResult>;
  /** `git fetch` of refspecs, no tags; `full`: every ref it changed said on stderr (else quiet); `noHooks`: no hook runs. */
  fetchRefs(remote: string, refspecs: string[], o?: { atomic?: boolean; prune?: boolean; full?: boolean; noHooks?: boolean }): GitResult;
  /** `git push --porcelain` of refspecs, no pre-push hook; `leases`: each ref's expected value there (null: absent). */
  pushRefs(remote: string, refspecs: string[], o?: { atomic?: boolean; force?: boolean; leases?: Array<[string, string | null]>; noHooks?: boolean }): GitResult;
  /** A bare repository at `dir`, of this repository's object format. */
  side(dir: string): SideRepository;
}

/** The commits `from` reaches within a graph of commits and their parents (parentsOf), itself included. */
export function reachableIn(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  for (const todo = [from]; todo.length; ) {
    const c = todo.pop()!;
    if (seen.has(c) || !graph.has(c)) continue;
    seen.add(c);
    todo.push(...graph.get(c)!);
  }
  return seen;
}

/** Splits a raw commit object into header fields and message. */
export function parseCommit(content: Buffer | string): { tree: string; parents: string[]; committerTime: number; message: string; signed: boolean; headers: string[] } {
  const text = content.toString();
  const end = text.indexOf('\n\n');
  const header = end === -1 ? text : text.slice(0, end);
  const message = end === -1 ? '' : text.slice(end + 2);
  let tree = '';
  const parents: string[] = [];
  let committerTime = 0;
  let signed = false;
  // the other header lines: what a rewrite keeps (a signature cannot survive one)
  const headers: string[] = [];
  let inSig = false;
  for (const line of header.split('\n')) {
    if (inSig && line.startsWith(' ')) continue;
    inSig = line.startsWith('gpgsig');
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (inSig) signed = true;
    else headers.push(line);
    if (line.startsWith('committer ')) committerTime = Number(/ (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
  }
  return { tree, parents, committerTime, message, signed, headers };
}
