// Object reads and writes: blobs, trees, commits, and one cat-file --batch for many reads.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gitBytes } from './run';
import type { Repo } from './repo';

export function writeBlob(repo: Repo, content: string): string {
  return repo.out(['hash-object', '-w', '--stdin'], { input: content });
}

/** Several blobs in one process (`hash-object --stdin-paths` over temporary files, no filters: stored as given). */
export function writeBlobs(repo: Repo, contents: string[]): string[] {
  const dir = contents.length > 1 ? privateTempDir() : null;
  if (!dir) return contents.map((c) => writeBlob(repo, c));
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

export function writeTree(repo: Repo, entries: Array<{ name: string; oid: string }>): string {
  const input = entries.map((e) => `100644 blob ${e.oid}\t${e.name}\n`).join('');
  return repo.out(['mktree'], { input });
}

export interface Identity {
  name: string;
  email: string;
}

export function writeCommit(repo: Repo, tree: string, parents: string[], message: string, env: NodeJS.ProcessEnv = {}, sign = false): string {
  const args = ['commit-tree', tree];
  for (const p of parents) args.push('-p', p);
  if (sign) args.push('-S');
  args.push('-F', '-');
  return repo.out(args, { input: message, env });
}

export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

/** Reads many objects (any rev syntax, e.g. `<oid>:handoff.md`) in one process; null where missing. */
export function readObjects(repo: Repo, specs: string[]): Array<BatchObject | null> {
  if (specs.length === 0) return [];
  const r = gitBytes(['cat-file', '--batch'], { cwd: repo.cwd, input: specs.join('\n') + '\n' });
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

/** Splits a raw commit object into header fields and message. */
export function parseCommit(content: Buffer | string): { tree: string; parents: string[]; committerTime: number; message: string; signed: boolean } {
  const text = content.toString();
  const end = text.indexOf('\n\n');
  const header = end === -1 ? text : text.slice(0, end);
  const message = end === -1 ? '' : text.slice(end + 2);
  let tree = '';
  const parents: string[] = [];
  let committerTime = 0;
  let signed = false;
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('committer ')) committerTime = Number(/ (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
    else if (line.startsWith('gpgsig')) signed = true;
  }
  return { tree, parents, committerTime, message, signed };
}
