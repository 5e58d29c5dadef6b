// Repository discovery: where the git directories are, which branch is checked out, the object format.
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { keyName, parseSetting, TRUE_WORDS } from '../config-keys';
import { HandoffError } from '../errors';
import { readTextOr, statOr } from '../read-file';
import { trace } from '../trace';
import { countLooseCommits, identLines, looseTarget, treeContent, writeLoose } from './loose';
import { looseCommitFiles } from './loose-read';
import { addValue, keyValue, knownConfig, readConfig, remoteNames } from './config';
import { configFile, parseConfigFile } from './config-read';
import { lockFileNamed } from './messages';
import { listRefsInProcess, readHeadBranch, readsHook, RefsOnce } from './refs-read';
import { trailerBlockLines } from './trailers';
import { git, gitBounded, gitBytes, NO_PUSH_OPTIONS, READER_ENV, subcommand, type GitOptions, type Repo } from './run';
import { MOVE_REFS, reachableIn, WRITE_COMMIT, type BatchObject, type Bounded, type CasOutcome, type CommitSummary, type GitResult, type LogRecord, type MoveRefsOptions, type NetResult, type RefName, RefRecord, type RepoPlace, type RefOp, type SideRepository, type TreeEntry, type Walk } from './storage';

export type { Repo } from './run';

/** The repository containing `start`: a plain one found without starting git, else as `git rev-parse` finds it. */
export function openRepo(start: string = process.cwd()): Repo {
  const found = discoverPlain(start);
  let lines: string[];
  if (found) lines = [found.gitDir, found.commonDir, 'false', 'sha1', found.top];
  else {
    const r = git(
      ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format', '--show-toplevel'],
      { cwd: start, allowFail: true },
    );
    lines = r.stdout.split('\n');
    if (lines.length < 5 || !lines[0]) {
      throw new HandoffError('environment', 'not-a-repository', `not a git repository: ${start}`, { path: start, stderr: r.stderr.trim() });
    }
  }
  const [gitDir, commonDir, bareFlag, fmt, top] = lines;
  const bare = bareFlag === 'true';
  const worktree = bare || !top ? null : top;
  const cwd = worktree ?? gitDir;
  const repo = new GitRepo({
    cwd,
    gitDir,
    commonDir,
    worktree,
    bare,
    objectFormat: fmt === 'sha256' ? 'sha256' : 'sha1',
    branch: readHeadBranch(gitDir),
    plain: !!found,
  });
  formatGate?.(repo);
  return repo;
}

// The CLI sets this (src/cli/start.ts): every command it runs checks the store's format at the repository's opening.
let formatGate: ((repo: Repo) => void) | null = null;
export const setFormatGate = (gate: ((repo: Repo) => void) | null): void => {
  formatGate = gate;
};

const FORMAT_KEY = keyName('formatVersion').toLowerCase();

/**
 * `handoff.formatVersion` in a config file's text, as git reads it (the last value wins); null when unset. A value that
 * is not a whole number reads as newer than any build: refused, never guessed.
 */
export function storeFormatOf(text: string): number | null {
  const values = (parseConfigFile(Buffer.from(text, 'latin1'), { includes: true }) ?? []).filter(([k]) => k === FORMAT_KEY);
  return values.length ? (parseSetting('formatVersion', [values[values.length - 1][1]]) ?? Number.MAX_SAFE_INTEGER) : null;
}


// Anything here changes where git looks for the repository or how it reads it: git itself answers then.
const DISCOVERY_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT'];
// Repository configuration that moves the worktree, makes it bare, includes other files, or names extensions
// (the object format among them): git itself answers then.
const UNPLAIN_CONFIG = new RegExp(
  String.raw`^\s*\[\s*(extensions|include|includeif)\b|^\s*worktree\s*=|^\s*bare\s*=\s*(${TRUE_WORDS.join('|')})\s*$|^\s*repositoryformatversion\s*=\s*([2-9]|1\d)`,
  'im',
);

/**
 * The plain case, found without starting git: a worktree (or linked worktree) found by walking up for `.git`,
 * owned by this user, whose repository configuration is plain (sha1, no core.worktree, not bare, no includes,
 * no extensions), with no GIT_* variable that changes discovery. Null for everything else (a bare repository,
 * the inside of a git dir, a filesystem boundary, SHA-256, another owner, GIT_DIR…): `git rev-parse` answers.
 */
function discoverPlain(start: string): { gitDir: string; commonDir: string; top: string } | null {
  if (DISCOVERY_ENV.some((k) => process.env[k] !== undefined)) return null;
  const me = process.geteuid?.();
  if (me === undefined || (me === 0 && process.env.SUDO_UID !== undefined)) return null;
  let dir: string;
  try {
    dir = realpathSync.native(start);
  } catch {
    return null;
  }
  let here = statOr(dir);
  for (;;) {
    if (!here) return null;
    const dotGit = path.join(dir, '.git');
    const st = statOr(dotGit);
    if (st) return st.isDirectory() || st.isFile() ? plainRepo(dir, dotGit, st, here, me) : null;
    // a directory that is itself a git dir (bare, or inside .git): git's own rules
    if (statOr(path.join(dir, 'HEAD')) && statOr(path.join(dir, 'objects'))) return null;
    const up = path.dirname(dir);
    if (up === dir) return null;
    const above = statOr(up);
    if (!above || above.dev !== here.dev) return null;
    dir = up;
    here = above;
  }
}

function plainRepo(top: string, dotGit: string, st: Stats, topStat: Stats, me: number): { gitDir: string; commonDir: string; top: string } | null {
  try {
    let gitDir = dotGit;
    let commonDir = dotGit;
    if (st.isFile()) {
      const m = /^gitdir: (.+)$/.exec(readFileSync(dotGit, 'utf8').split('\n', 1)[0]);
      if (!m) return null;
      gitDir = realpathSync.native(path.resolve(top, m[1].trim()));
      const common = readTextOr(path.join(gitDir, 'commondir'))?.trim();
      commonDir = common ? realpathSync.native(path.resolve(gitDir, common)) : gitDir;
    }
    if (topStat.uid !== me || statSync(gitDir).uid !== me) return null;
    if (!statOr(path.join(gitDir, 'HEAD'))?.isFile() || !statOr(path.join(commonDir, 'objects'))?.isDirectory()) return null;
    const config = configFile(path.join(commonDir, 'config')).text;
    if (config === null || UNPLAIN_CONFIG.test(config)) return null;
    return { gitDir, commonDir, top };
  } catch {
    return null;
  }
}


/** The arguments of `git rev-list` for a walk. */
const walkArgs = (w: Walk): string[] => [
  ...(w.oldestFirst ? ['--topo-order', '--reverse'] : []),
  ...(w.max === undefined ? [] : [`--max-count=${w.max}`]),
  ...(w.noMerges ? ['--no-merges'] : []),
  ...w.from,
  ...(w.not ?? []).map((o) => `^${o}`),
  ...(w.notRefs ? ['--not', ...w.notRefs.globs.map((g) => `--glob=${g}`), ...(w.notRefs.remotes ? ['--remotes'] : [])] : []),
  '--',
];

const lines = (s: string): string[] => s.split('\n').filter(Boolean);

/** `git log` output whose format ends each of its `n` fields in a NUL (git prints none from a message), as rows. */
function rowsOf(stdout: string, n: number): string[][] {
  const f = stdout.split('\0');
  // each commit's first field follows the newline git ends the one before with
  return Array.from({ length: Math.floor(f.length / n) }, (_, i) => f.slice(i * n, (i + 1) * n)).map(([first, ...rest]) => [first.replace(/^\n/, ''), ...rest]);
}

/** The system's temporary directory; node:os loaded at the first temporary file, not by every guard run. */
const tmpdir = (): string => (require('node:os') as typeof import('node:os')).tmpdir();

/** A fresh directory only this user can read (mkdtemp's mode 0700), or null where none can be made. */
function privateTempDir(): string | null {
  try {
    return mkdtempSync(path.join(tmpdir(), 'git-handoff-'));
  } catch {
    return null;
  }
}

/** What git's walk says of an object it lacks ("bad object X", "Could not read X", "Failed to traverse parents of commit X"). */
const MISSING_OBJECT = /bad object|could not read|failed to traverse|missing/i;

/** `git ls-tree -z` output: `<mode> <type> <oid>\t<path>` entries. */
const treeEntries = (s: string): TreeEntry[] =>
  s.split('\0').flatMap((e) => {
    const m = /^(\d+) (\S+) ([0-9a-f]+)\t(.+)$/s.exec(e);
    return m ? [{ mode: m[1], type: m[2], oid: m[3], path: m[4] }] : [];
  });

// no hook runs: a write of the product's own that no user hook is to see
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null'];

// git waits this long for a held ref lock before it gives up (its default is 100 ms).
const LOCK_TIMEOUT_MS = 300;

/** The fields a listing reads: name, oid, committer time, raw trailer block (one atom, see GIT-NOTES). */
const LISTING_FORMAT = '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(trailers)%00';

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
    out.push(new RefRecord(ref, oid, Number(s.slice(b + 1, c)) || 0, s.slice(c + 1, d)));
    at = d + 1;
  }
  return out;
}

/** The commands that move no ref: they leave a kept listing (keepRefs) standing. */
const READS = new Set(['for-each-ref', 'rev-parse', 'cat-file', 'log', 'rev-list', 'status', 'ls-tree', 'merge-base', 'config', 'hash-object', 'mktree', 'commit-tree', 'reflog', 'check-ref-format']);

/** `git log` fields of one version as `history` reads them: NUL between fields (git never prints one from a message). */
const HISTORY_FORMAT = '--format=%H%x00%ct%x00%P%x00%s%x00%(trailers)%x00%G?%x00%GK%x00%GS%x00';

// the fields of the place, declared once (RepoPlace) and set by the constructor
interface GitRepo extends RepoPlace {}

/** The storage port implemented by git (its command line bound to the repository): what openRepo returns. */
class GitRepo implements Repo {
  /** the refs listed once for this run (keepRefs), while nothing but reads ran since */
  private kept: RefsOnce | null = null;
  /** commits' files read (readCommitFiles), by commit, names and bounds */
  private readonly filesRead = new Map<string, Bounded[]>();
  /** leftRight's answers, by pair */
  private readonly countsRead = new Map<string, [number, number] | null>();

  constructor(place: RepoPlace) {
    Object.assign(this, place);
  }

  // the file discovery read already (config-read.ts reads a file once while it is unchanged): never a git process
  get storeFormat() {
    return storeFormatOf(configFile(path.join(this.commonDir, 'config')).text ?? '');
  }

  git(args: string[], opts: GitOptions = {}): GitResult {
    // a command that may move refs ends the kept listing
    if (this.kept && !READS.has(subcommand(args))) this.kept = null;
    return git(args, { cwd: this.cwd, ...opts });
  }

  out(args: string[], opts: GitOptions = {}): string {
    return this.git(args, opts).stdout.replace(/\n$/, '');
  }

  /** git's output when it succeeds, null when it fails. */
  private outOrNull(args: string[], opts: GitOptions = {}): string | null {
    const r = this.git(args, { ...opts, allowFail: true });
    return r.status === 0 ? r.stdout : null;
  }

  // ---- refs
  readRef(ref: string) {
    let oid = this.kept?.readRef(ref);
    if (oid === undefined) oid = this.resolve(`${ref}^{commit}`);
    if (oid) this.tellRefsRead([{ ref, oid }], null);
    return oid;
  }
  listRefs(patterns: string[]) {
    const recs = this.kept?.list(patterns) ?? this.listRefsUntold(patterns);
    this.tellRefsRead(recs, null);
    return recs;
  }
  keepRefs(patterns: string[], list = () => this.listRefs(patterns)): RefRecord[] {
    // a kept listing that covers them answers; else this one is kept beside the others
    if (this.kept?.list(patterns)) return this.listRefs(patterns);
    const recs = list();
    (this.kept ??= new RefsOnce()).add(patterns, recs);
    return recs;
  }
  listRefsUntold(patterns: string[]) {
    const own = listRefsInProcess(this, patterns);
    if (own) trace('refs listed in process');
    return own ?? cutListing(this.git(['for-each-ref', LISTING_FORMAT, ...patterns]).stdout);
  }
  tellRefsRead(refs: RefName[], agreed: string | null) {
    return readsHook()?.(this, refs, agreed) ?? null;
  }
  listRefNames(patterns: string[]) {
    // git reads no object for them: no time, no block
    return cutListing(this.git(['for-each-ref', '--format=%(refname)%00%(objectname)%00%00%00', ...patterns]).stdout);
  }
  firstRef(patterns: string[], o: { contains?: string; short?: boolean } = {}) {
    const args = ['for-each-ref', '--count=1', ...(o.contains ? ['--contains', o.contains] : []), `--format=%(refname${o.short ? ':short' : ''})`, ...patterns];
    return this.git(args, { allowFail: true }).stdout.trim() || null;
  }
  fullRefName(spec: string) {
    const full = this.outOrNull(['rev-parse', '--symbolic-full-name', spec])?.trim();
    return { named: full !== undefined, full: full ?? '' };
  }
  reflogSubjects(ref: string) {
    return lines(this.git(['reflog', 'show', '--format=%gs', ref, '--'], { allowFail: true }).stdout);
  }
  [MOVE_REFS](ops: RefOp[], o: MoveRefsOptions): CasOutcome {
    const kept = this.kept;
    // update-ref's `<verb> <ref> [<new>] [<old>]`, each op's fields in that order
    const line = (o: RefOp) => [o.op, o.ref, 'newOid' in o ? o.newOid : null, 'oldOid' in o ? o.oldOid : null].filter(Boolean).join(' ');
    const input = ['start', ...ops.map(line), 'prepare', 'commit', ''].join('\n');
    const r = this.git([...(o.noHooks ? NO_HOOKS : []), '-c', `core.filesRefLockTimeout=${LOCK_TIMEOUT_MS}`, 'update-ref', '-m', o.reason, '--stdin'], { input, allowFail: true, env: o.env });
    // the refs it moved (or lost a race for) are read from git again; the rest of the listing stands
    kept?.movedRefs(ops.map((op) => op.ref));
    this.kept = kept;
    if (r.status === 0) return { ok: true };
    const message = r.stderr.trim();
    const lockFile = lockFileNamed(this.cwd, message);
    if (lockFile) return { ok: false, reason: 'locked', message, lockFile };
    if (/aborted by hook/.test(message)) return { ok: false, reason: 'hook', message };
    if (/but expected|reference already exists|unable to resolve reference|cannot lock ref/.test(message)) return { ok: false, reason: 'lost', message };
    throw new HandoffError('internal', 'update-ref-failed', `git update-ref failed: ${message}`);
  }

  // ---- objects
  resolve(spec: string) {
    return this.outOrNull(['rev-parse', '-q', '--verify', spec])?.trim() || null;
  }
  readObjects(specs: string[], maxBuffer?: number): Array<BatchObject | null> {
    if (specs.length === 0) return [];
    const buf = gitBytes(['cat-file', '--batch'], { cwd: this.cwd, input: specs.join('\n') + '\n', maxBuffer }).stdout;
    let pos = 0;
    return specs.map(() => {
      const nl = buf.indexOf(10, pos);
      const m = /^(\S+) (\S+) (\d+)$/.exec(buf.subarray(pos, nl).toString('utf8'));
      pos = nl + 1;
      if (!m) return null;
      const content = buf.subarray(pos, pos + Number(m[3]));
      pos += Number(m[3]) + 1;
      return { oid: m[1], type: m[2], content };
    });
  }
  readObjectsBounded(specs: string[], max: number[]): Bounded[] {
    // the usual case in one process: everything fits in what the limits allow together; only past that are sizes asked first
    const limit = max.reduce((a, b) => a + b, 0) + specs.length * 128;
    try {
      const all = this.readObjects(specs, limit);
      if (all.every((o, i) => !o || o.content.length <= max[i])) return all;
    } catch (e) {
      if (!(e instanceof HandoffError) || e.code !== 'output-too-large') throw e;
    }
    const sizes = this.objectInfo(specs);
    const read = this.readObjects(specs.filter((_, i) => sizes[i] && sizes[i]!.size <= max[i]));
    let j = 0;
    return specs.map((_, i) => (!sizes[i] ? null : sizes[i]!.size > max[i] ? { oversize: sizes[i]!.size } : read[j++]));
  }
  readCommitFiles(oids: string[], names: string[], max: number[]) {
    const key = (oid: string) => [oid, ...names, ...max].join('\0');
    const rest: string[] = [];
    for (const oid of oids.filter((oid) => !this.filesRead.has(key(oid)))) {
      // loose ones in this process, the rest in one read
      const loose = looseCommitFiles(this, oid, names, max);
      if (loose) this.filesRead.set(key(oid), [loose.commit, ...loose.files]);
      else rest.push(oid);
    }
    const read = this.readObjectsBounded(rest.flatMap((oid) => [oid, ...names.map((n) => `${oid}:${n}`)]), rest.flatMap(() => max));
    rest.forEach((oid, j) => this.filesRead.set(key(oid), read.slice(j * (names.length + 1), (j + 1) * (names.length + 1))));
    return oids.map((oid) => this.filesRead.get(key(oid))!);
  }
  objectInfo(specs: string[]) {
    if (specs.length === 0) return [];
    // a line for each, in order; a missing or ambiguous one's says so
    const lines = this.git(['cat-file', '--batch-check'], { input: specs.join('\n') + '\n', allowFail: true }).stdout.split('\n');
    return specs.map((_, i) => {
      const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(lines[i] ?? '');
      return m ? { oid: m[1], type: m[2], size: Number(m[3]) } : null;
    });
  }
  describeCommits(oids: string[]): CommitSummary[] {
    if (oids.length === 0) return [];
    const r = this.git(['log', '--no-walk=unsorted', '--ignore-missing', '--stdin', '--format=%H%x00%P%x00%T%x00%ct%x00%s%x00%(trailers)%x00'], { input: oids.join('\n') + '\n' });
    return rowsOf(r.stdout, 6).map(([oid, parents, tree, ct, subject, block]) => {
      // NUL separates fields and git never prints one from a message: a record out of step is a broken read, not data
      if (!/^[0-9a-f]+$/.test(oid)) throw new HandoffError('integrity', 'unreadable-commits', `git log printed a record that does not parse (${JSON.stringify(oid.slice(0, 80))})`);
      return { oid, parents: parents ? parents.split(' ') : [], tree, time: Number(ct) || 0, subject, trailers: trailerBlockLines(block) };
    });
  }
  readTree(treeish: string): TreeEntry[] {
    return treeEntries(this.out(['ls-tree', '-z', treeish]));
  }
  readTreeDeep(treeish: string): TreeEntry[] | null {
    const out = this.outOrNull(['ls-tree', '-r', '-z', '--full-tree', treeish]);
    return out === null ? null : treeEntries(out);
  }
  blobId(content: string) {
    return this.out(['hash-object', '--stdin'], { input: content });
  }
  /** One object (a blob, or a commit given whole: a rewrite keeping its author and committer), in this process where loose.ts can. */
  private writeObject(content: string, type: 'blob' | 'commit'): string {
    const target = looseTarget(this);
    return (target && writeLoose(target, type, Buffer.from(content, 'utf8'))) || this.out(['hash-object', '-t', type, '-w', '--stdin'], { input: content });
  }
  writeBlobs(contents: string[]): string[] {
    const target = looseTarget(this);
    if (target) {
      const oids = contents.map((c) => writeLoose(target, 'blob', Buffer.from(c, 'utf8')));
      if (oids.every((o): o is string => !!o)) return oids;
    }
    // else in one git process: `hash-object --stdin-paths` over temporary files, no filters (stored as given)
    const dir = contents.length > 1 ? privateTempDir() : null;
    if (!dir) return contents.map((c) => this.writeObject(c, 'blob'));
    try {
      const files = contents.map((c, i) => {
        const f = path.join(dir, String(i));
        writeFileSync(f, c);
        return f;
      });
      return this.out(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.join('\n') + '\n' }).split('\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  writeTree(entries: Array<{ name: string; oid: string; mode?: string; type?: string }>): string {
    const blobs = entries.every((e) => (e.mode ?? '100644') === '100644' && (e.type ?? 'blob') === 'blob');
    const target = blobs ? looseTarget(this) : null;
    const inProcess = target && writeLoose(target, 'tree', treeContent(entries));
    return inProcess || this.out(['mktree', '-z'], { input: entries.map((e) => `${e.mode ?? '100644'} ${e.type ?? 'blob'} ${e.oid}\t${e.name}\0`).join('') });
  }
  writeTreeWithPaths(base: string | null, entries: Array<{ path: string; oid: string }>): string {
    // built in a private index
    const dir = privateTempDir();
    if (!dir) throw new HandoffError('environment', 'no-temp-dir', `no private temporary directory could be made under ${tmpdir()}; nothing was written`);
    const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
    try {
      if (base) this.git(['read-tree', base], { env });
      this.git(['update-index', '--add', '--index-info'], { input: entries.map((e) => `100644 ${e.oid}\t${e.path}\n`).join(''), env });
      return this.out(['write-tree'], { env });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  [WRITE_COMMIT](c: { raw: string } | { tree: string; parents: string[]; message: string; env?: NodeJS.ProcessEnv; sign?: boolean }) {
    if ('raw' in c) return this.writeObject(c.raw, 'commit');
    const { tree, parents, message, env = {}, sign } = c;
    // unsigned, in this process when loose.ts can tell what git would write
    const target = sign ? null : looseTarget(this);
    const ident = target && identLines(target.config, env);
    if (target && ident) {
      const head = [`tree ${tree}`, ...[...new Set(parents)].map((p) => `parent ${p}`), `author ${ident.author}`, `committer ${ident.committer}`];
      const oid = writeLoose(target, 'commit', Buffer.from(`${head.join('\n')}\n\n${message}`, 'utf8'));
      if (oid) return oid;
    }
    return this.out(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), ...(sign ? ['-S'] : []), '-F', '-'], { input: message, env });
  }

  // ---- history
  isAncestor(a: string, b: string) {
    return this.outOrNull(['merge-base', '--is-ancestor', a, b]) !== null;
  }
  mergeBase(a: string, b: string) {
    return this.outOrNull(['merge-base', a, b])?.trim() || null;
  }
  independent(oids: string[]) {
    return lines(this.out(['merge-base', '--independent', ...oids]));
  }
  commits(w: Walk) {
    return lines(this.git(['rev-list', ...walkArgs(w)], { allowFail: w.lenient }).stdout);
  }
  revCount(tip: string, o: { firstParent?: boolean } = {}) {
    const loose = o.firstParent ? null : countLooseCommits(this.commonDir, tip);
    if (loose !== null) return loose;
    const out = this.outOrNull(['rev-list', '--count', ...(o.firstParent ? ['--first-parent'] : []), tip]);
    return out === null ? null : Number(out.trim()) || 0;
  }
  leftRight(a: string, b: string): [number, number] | null {
    // once a process for each pair: many handoffs of a branch name the same commit
    const pair = `${a}...${b}`;
    if (this.countsRead.has(pair)) return this.countsRead.get(pair)!;
    const out = this.outOrNull(['rev-list', '--left-right', '--count', '--end-of-options', pair]);
    const counts = out === null ? null : (out.trim().split(/\s+/).map(Number) as [number, number]);
    this.countsRead.set(pair, counts);
    return counts;
  }
  leftRights(heads: string[], tip: string) {
    const todo = [...new Set(heads)].filter((h) => /^[0-9a-f]{4,64}$/.test(h) && h !== tip && !this.countsRead.has(`${h}...${tip}`));
    // one is leftRight's own process
    if (todo.length < 2) return;
    const ids = this.objectInfo(todo.map((h) => `${h}^{commit}`)).map((o) => o?.oid ?? null);
    todo.forEach((h, i) => ids[i] === null && this.countsRead.set(`${h}...${tip}`, null));
    const known = todo.flatMap((h, i) => (ids[i] ? [{ h, id: ids[i]! }] : []));
    // the commits every one of them reaches count on neither side: the walk stops at their best common ancestors
    const bases = this.git(['merge-base', '--octopus', '--all', tip, ...known.map((k) => k.id)], { allowFail: true }).stdout.split('\n').filter(Boolean);
    const graph = this.parentsOf([tip, ...known.map((k) => k.id), ...bases.map((b) => `^${b}`)]);
    if (!graph) return;
    const now = reachableIn(graph, tip);
    for (const { h, id } of known) {
      const then = reachableIn(graph, id);
      this.countsRead.set(`${h}...${tip}`, [[...then].filter((c) => !now.has(c)).length, [...now].filter((c) => !then.has(c)).length]);
    }
  }
  commitChanges(oids: string[]) {
    // one diff-tree for them all: `<commit>` lines, then `:mode mode old new status\0path\0` records
    const raw = this.git(['diff-tree', '--stdin', '-r', '--no-renames', '-z', '--root'], { input: oids.join('\n') + '\n', allowFail: true }).stdout.split('\0');
    const changes: Array<{ commit: string; path: string; before: string; after: string }> = [];
    let commit = '';
    for (let i = 0; i < raw.length; i++) {
      const f = raw[i].replace(/^\n/, '');
      if (/^[0-9a-f]{40,64}$/.test(f)) commit = f;
      else if (f.startsWith(':')) {
        const [, , before, after] = f.slice(1).split(' ');
        changes.push({ commit, path: raw[++i] ?? '', before, after });
      }
    }
    return changes;
  }
  parentsOf(tips: string[]) {
    const r = this.git(['rev-list', '--parents', '--stdin'], { allowFail: true, input: tips.join('\n') + '\n' });
    if (r.status !== 0 && MISSING_OBJECT.test(r.stderr)) return null;
    // any other failure (git itself broken or overloaded) is not an answer about the history
    if (r.status !== 0) throw new HandoffError('integrity', 'history-unread', `git rev-list failed: ${r.stderr.trim() || `exit ${r.status}`}`);
    const graph = new Map<string, string[]>();
    for (const line of lines(r.stdout)) {
      const [c, ...ps] = line.split(' ');
      graph.set(c, ps);
    }
    return graph;
  }
  unreachableCommits() {
    const r = this.git(['fsck', '--unreachable', '--no-reflogs', '--no-progress'], { allowFail: true });
    if (r.status !== 0 && !r.stdout) throw new HandoffError('integrity', 'fsck-failed', `git fsck could not list the unreachable objects: ${r.stderr.trim()}`);
    return r.stdout.split('\n').flatMap((l) => {
      const m = /^unreachable commit ([0-9a-f]+)$/.exec(l.trim());
      return m ? [m[1]] : [];
    });
  }
  history(rev: string): { entries: LogRecord[]; unsure: boolean } {
    const r = this.git(['log', HISTORY_FORMAT, rev]);
    const entries = rowsOf(r.stdout, 8).map(([oid, ct, parents, subject, block, g, k, s]) => ({ oid, time: Number(ct), parents: parents ? parents.split(' ') : [], subject, block, signature: [g, k, s] as [string, string, string] }));
    // %G? says N both for an unsigned commit and for one it could not check; git complains on stderr only for the latter
    return { entries, unsure: !!r.stderr.trim() };
  }
  logFields(refs: string[], fields: string[], o: { max?: number; since?: number }) {
    if (refs.length === 0) return [];
    // the refs on stdin: a store of 10,000 refs fits no command line
    const limit = [...(o.max === undefined ? [] : [`--max-count=${o.max}`]), ...(o.since === undefined ? [] : [`--since=@${o.since}`])];
    return rowsOf(this.outOrNull(['log', '--stdin', ...limit, `--format=${fields.join('%x00')}%x00`], { input: refs.join('\n') + '\n' }) ?? '', fields.length);
  }
  commitsVia(from: string[], o: { not?: string[]; grep?: string[]; strict?: boolean } = {}) {
    if (from.length === 0) return [];
    // revisions on stdin (a sync of thousands of refs names more than a command line holds), options where stdin takes none
    const option = (a: string) => a.startsWith('--');
    const not = o.not ?? [];
    const input = [...from.filter((a) => !option(a)), ...not.filter((a) => !option(a)).map((a) => `^${a}`), ''].join('\n');
    const grep = o.grep?.length ? ['--fixed-strings', ...o.grep.map((t) => `--grep=${t}`)] : [];
    const args = ['log', '--source', ...grep, '--format=%H%x00%S%x00%ct%x00%(trailers)%x00', ...from.filter(option), '--stdin', '--not', ...not.filter(option), '--'];
    // strict: a walk git cannot make throws (a check that cannot read its commits says so), else it reads as none
    const out = o.strict ? this.out(args, { input }) : (this.outOrNull(args, { input }) ?? '');
    return rowsOf(out, 4).map(([oid, source, ct, block]) => new RefRecord(source, oid, Number(ct), block));
  }

  // ---- configuration
  config = () => readConfig(this);
  knownConfig = () => knownConfig(this);
  localConfig(pattern: string) {
    const config = new Map<string, string[]>();
    const r = this.git(['config', '--local', '-z', '--get-regexp', pattern], { allowFail: true });
    for (const entry of r.stdout.split('\0')) if (entry) addValue(config, ...keyValue(entry));
    return config;
  }
  changeLocalConfig(key: string, o: { add: string } | { remove: string }) {
    this.git(['config', '--local', ...('add' in o ? ['--add', key, o.add] : ['--fixed-value', '--unset-all', key, o.remove])]);
  }
  setLocalConfig(key: string, value: string, replacing?: string) {
    const r = this.git(['config', ...(replacing === undefined ? ['--local', key, value] : ['--local', '--fixed-value', '--replace-all', key, value, replacing])], { allowFail: true });
    return { ok: r.status === 0, locked: /could not lock config file/i.test(r.stderr) };
  }
  remoteNames = () => remoteNames(this);
  remoteUrl(remote: string, o: { push?: boolean } = {}) {
    return this.git(['remote', 'get-url', ...(o.push ? ['--push'] : []), remote], { allowFail: true }).stdout.trim();
  }
  hooksDir() {
    return this.out(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']);
  }

  // ---- the worktree
  diffPaths(o: { revs?: string[]; cached?: boolean; paths?: string[] }) {
    const r = this.git(['diff', '--name-status', '--no-renames', '-z', ...(o.cached ? ['--cached'] : []), ...(o.revs ?? []), '--', ...(o.paths ?? [])], { allowFail: true });
    if (r.status !== 0) return null;
    const f = r.stdout.split('\0');
    return Array.from({ length: Math.floor(f.length / 2) }, (_, n) => ({ status: f[2 * n], path: f[2 * n + 1] }));
  }
  changedPaths(worktree: string) {
    const out = this.outOrNull(['status', '--porcelain=v1', '-z', '--no-renames'], { cwd: worktree, env: READER_ENV });
    return out === null ? null : out.split('\0').filter(Boolean).map((e) => e.slice(3));
  }
  trackedPaths(pathspecs: string[]) {
    return this.out(['ls-files', '-z', '--', ...pathspecs]).split('\0').filter(Boolean);
  }
  worktrees() {
    const r = this.git(['worktree', 'list', '--porcelain', '-z'], { allowFail: true });
    if (r.status !== 0) return null;
    const out: Array<{ path: string; branch: string | null }> = [];
    for (const field of r.stdout.split('\0')) {
      if (field.startsWith('worktree ')) out.push({ path: field.slice('worktree '.length), branch: null });
      else if (field.startsWith('branch refs/heads/') && out.length) out[out.length - 1].branch = field.slice('branch refs/heads/'.length);
    }
    return out;
  }

  // ---- remotes
  fetchBounded(remote: string, refspecs: string[], timeoutMs: number, o: { prune?: boolean } = {}): Promise<NetResult> {
    return this.bounded(['fetch', ...(o.prune ? ['--prune'] : []), '--no-tags', '--no-write-fetch-head', '--quiet', remote, ...refspecs], timeoutMs);
  }
  pushBounded(remote: string, p: { oid: string; ref: string; expected: string | null; atomic: boolean }, timeoutMs: number): Promise<NetResult> {
    const lease = `--force-with-lease=${p.ref}:${p.expected ?? ''}`;
    return this.bounded([...NO_PUSH_OPTIONS, 'push', '--no-verify', '--quiet', ...(p.atomic ? ['--atomic'] : []), lease, remote, `${p.oid}:${p.ref}`], timeoutMs);
  }
  private bounded(args: string[], timeoutMs: number): Promise<NetResult> {
    this.kept = null;
    return gitBounded(args, { cwd: this.cwd, timeoutMs, config: readConfig(this) });
  }
  fetchRefs(remote: string, refspecs: string[], o: { atomic?: boolean; prune?: boolean; full?: boolean; noHooks?: boolean } = {}) {
    const config = [...(o.noHooks ? NO_HOOKS : []), ...(o.full ? ['-c', 'fetch.output=full'] : [])];
    const flags = [...(o.atomic ? ['--atomic'] : []), ...(o.prune ? ['--prune'] : []), ...(o.full ? [] : ['--quiet'])];
    return this.git([...config, 'fetch', ...flags, '--no-tags', '--no-write-fetch-head', remote, ...refspecs], { allowFail: true });
  }
  pushRefs(remote: string, refspecs: string[], o: { atomic?: boolean; force?: boolean; leases?: Array<[string, string | null]>; noHooks?: boolean } = {}) {
    const flags = [...(o.atomic ? ['--atomic'] : []), ...(o.force ? ['--force'] : []), ...(o.leases ?? []).map(([ref, was]) => `--force-with-lease=${ref}:${was ?? ''}`)];
    const args = [...(o.noHooks ? NO_HOOKS : []), ...NO_PUSH_OPTIONS, 'push', '--no-verify', '--porcelain', '--no-follow-tags'];
    return this.git([...args, ...flags, remote, ...refspecs], { allowFail: true });
  }
  side(dir: string): SideRepository {
    const format = this.objectFormat;
    return {
      dir,
      init: () => git(['init', '--bare', '-q', `--object-format=${format}`, dir], { allowFail: true }).status === 0,
      hasCommit: (oid) => git(['--git-dir', dir, 'cat-file', '-e', `${oid}^{commit}`], { allowFail: true }).status === 0,
      gc: (o) => void git(['--git-dir', dir, 'gc', ...(o.pruneNow ? ['--quiet', '--prune=now'] : ['--auto', '--quiet'])], { allowFail: true, env: o.env }),
    };
  }
}
