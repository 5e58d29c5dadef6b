// Object reads and writes: blobs, trees, commits, and one cat-file --batch for many reads. Writes happen in this
// process where src/git/loose.ts can write exactly what git would (most writes), else through git.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { identLines, looseTarget, treeContent, writeLoose } from './loose';
import { looseCommitFiles } from './loose-read';
import { gitBytes, type Repo } from './run';
import type { BatchObject, Bounded } from './storage';

export { parseCommit } from './storage';

/** The system's temporary directory; node:os loaded at the first temporary file, not by every guard run. */
const tmpdir = (): string => (require('node:os') as typeof import('node:os')).tmpdir();

/** One object (a blob, or a commit given whole: a rewrite keeping its author and committer), in this process where it can. */
export function writeObject(repo: Repo, content: string, type: 'blob' | 'commit' = 'blob'): string {
  const target = looseTarget(repo);
  return (target && writeLoose(target, type, Buffer.from(content, 'utf8'))) || repo.out(['hash-object', '-t', type, '-w', '--stdin'], { input: content });
}

/** Several blobs: in this process, else in one git process (`hash-object --stdin-paths` over temporary files, no filters: stored as given). */
export function writeBlobs(repo: Repo, contents: string[]): string[] {
  const target = looseTarget(repo);
  if (target) {
    const oids = contents.map((c) => writeLoose(target, 'blob', Buffer.from(c, 'utf8')));
    if (oids.every((o): o is string => !!o)) return oids;
  }
  const dir = contents.length > 1 ? privateTempDir() : null;
  if (!dir) return contents.map((c) => writeObject(repo, c));
  try {
    const files = contents.map((c, i) => {
      const f = path.join(dir, String(i));
      writeFileSync(f, c);
      return f;
    });
    return repo.out(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.join('\n') + '\n' }).split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh directory only this user can read (mkdtemp's mode 0700), or null where none can be made. */
function privateTempDir(): string | null {
  try {
    return mkdtempSync(path.join(tmpdir(), 'git-handoff-'));
  } catch {
    return null;
  }
}

/** A tree (blobs of mode 100644 unless given; a rewrite's tree keeps its other entries exactly), in this process where it can. */
export function writeTree(repo: Repo, entries: Array<{ name: string; oid: string; mode?: string; type?: string }>): string {
  const blobs = entries.every((e) => (e.mode ?? '100644') === '100644' && (e.type ?? 'blob') === 'blob');
  const target = blobs ? looseTarget(repo) : null;
  const inProcess = target && writeLoose(target, 'tree', treeContent(entries));
  if (inProcess) return inProcess;
  return repo.out(['mktree', '-z'], { input: entries.map((e) => `${e.mode ?? '100644'} ${e.type ?? 'blob'} ${e.oid}\t${e.name}\0`).join('') });
}

/** `base`'s tree (or an empty one) with each blob put at its path (subtrees made as needed), built in a private index. */
export function writeTreeWithPaths(repo: Repo, base: string | null, entries: Array<{ path: string; oid: string }>): string {
  const dir = privateTempDir();
  if (!dir) throw new HandoffError('environment', 'no-temp-dir', `no private temporary directory could be made under ${tmpdir()}; nothing was written`);
  const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
  try {
    if (base) repo.git(['read-tree', base], { env });
    repo.git(['update-index', '--add', '--index-info'], { input: entries.map((e) => `100644 ${e.oid}\t${e.path}\n`).join(''), env });
    return repo.out(['write-tree'], { env });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `git commit-tree` (signed with `sign`); unsigned, in this process when loose.ts can tell what git would write. */
export function writeCommit(repo: Repo, tree: string, parents: string[], message: string, env: NodeJS.ProcessEnv = {}, sign = false): string {
  const target = sign ? null : looseTarget(repo);
  const ident = target && identLines(target.config, env);
  if (target && ident) {
    const head = [`tree ${tree}`, ...[...new Set(parents)].map((p) => `parent ${p}`), `author ${ident.author}`, `committer ${ident.committer}`];
    const oid = writeLoose(target, 'commit', Buffer.from(`${head.join('\n')}\n\n${message}`, 'utf8'));
    if (oid) return oid;
  }
  const args = ['commit-tree', tree];
  for (const p of parents) args.push('-p', p);
  if (sign) args.push('-S');
  args.push('-F', '-');
  return repo.out(args, { input: message, env });
}


/** Reads many objects (any rev syntax, e.g. `<oid>:handoff.md`) in one process; null where missing. */
export function readObjects(repo: Repo, specs: string[], maxBuffer?: number): Array<BatchObject | null> {
  if (specs.length === 0) return [];
  const r = gitBytes(['cat-file', '--batch'], { cwd: repo.cwd, input: specs.join('\n') + '\n', maxBuffer });
  const buf = r.stdout;
  const out: Array<BatchObject | null> = [];
  let pos = 0;
  for (let i = 0; i < specs.length; i++) {
    const nl = buf.indexOf(10, pos);
    const header = buf.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    const m = /^(\S+) (\S+) (\d+)$/.exec(header);
    if (!m) {
      out.push(null);
      continue;
    }
    const size = Number(m[3]);
    out.push({ oid: m[1], type: m[2], content: buf.subarray(pos, pos + size) });
    pos += size + 1;
  }
  return out;
}


/** `git cat-file --batch-check=<format>` of many objects (any rev syntax): its line for each, in order (a missing one's says so). */
export function batchCheck(repo: Repo, specs: string[], format: string): string[] {
  if (specs.length === 0) return [];
  return repo.git(['cat-file', `--batch-check=${format}`], { input: specs.join('\n') + '\n', allowFail: true }).stdout.split('\n');
}

/** Type and size of many objects; null where missing. */
export function objectSizes(repo: Repo, specs: string[]): Array<{ type: string; size: number } | null> {
  const lines = batchCheck(repo, specs, '%(objecttype) %(objectsize)');
  return specs.map((_, i) => {
    const m = /^(\S+) (\d+)$/.exec(lines[i] ?? '');
    return m ? { type: m[1], size: Number(m[2]) } : null;
  });
}

/** readObjects that never reads an object over its limit: those come back as { oversize } (one batch-check first). */
export function readObjectsBounded(repo: Repo, specs: string[], max: number[]): Bounded[] {
  // the usual case in one process: everything fits in what the limits allow together; only past that are sizes asked first
  const limit = max.reduce((a, b) => a + b, 0) + specs.length * 128;
  try {
    const all = readObjects(repo, specs, limit);
    if (all.every((o, i) => !o || o.content.length <= max[i])) return all;
  } catch (e) {
    if (!(e instanceof HandoffError) || e.code !== 'output-too-large') throw e;
  }
  const sizes = objectSizes(repo, specs);
  const fit = specs.filter((_, i) => sizes[i] && sizes[i]!.size <= max[i]);
  const read = readObjects(repo, fit);
  let j = 0;
  return specs.map((_, i) => (!sizes[i] ? null : sizes[i]!.size > max[i] ? { oversize: sizes[i]!.size } : read[j++]));
}

/** Each commit and files of its tree within their bounds, as readObjectsBounded answers: loose ones in this process. */
export function readCommitFiles(repo: Repo, oids: string[], names: string[], max: number[]): Bounded[][] {
  const out: Bounded[][] = [];
  const rest: number[] = [];
  oids.forEach((oid, i) => {
    const loose = looseCommitFiles(repo, oid, names, max);
    if (loose) out[i] = [loose.commit, ...loose.files];
    else rest.push(i);
  });
  if (!rest.length) return out;
  const read = readObjectsBounded(repo, rest.flatMap((i) => [oids[i], ...names.map((n) => `${oids[i]}:${n}`)]), rest.flatMap(() => max));
  rest.forEach((i, j) => (out[i] = read.slice(j * (names.length + 1), (j + 1) * (names.length + 1))));
  return out;
}
