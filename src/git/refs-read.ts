// Refs under one prefix read in this process, only where that is provably what listRefs's for-each-ref would print (a
// plain SHA-1 repository, plain loose ref files, every tip a loose commit); anything else is null, and git answers.
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { readLoose } from './loose-read';
import { ListedRef, readPackedRefs, type RefRecord } from './refs';
import type { Repo } from './repo';
import { commitTrailerBlock } from './trailers';

// where objects or refs are found otherwise than in the common directory's own files
const MOVED = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH', 'GIT_NAMESPACE', 'GIT_REF_PARANOIA'];
/** a ref name component git takes as it is and this reader too: no dot first, no `.lock` at the end */
const PLAIN_COMPONENT = /^(?!\.)[A-Za-z0-9._%+-]+$/;
const OID = /^[0-9a-f]{40}\n$/;

/** The loose refs under `dir` (the ref name `name`), name → oid; null for anything not plain. */
function looseRefs(dir: string, name: string, out: Map<string, string>): boolean {
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
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!looseRefs(p, `${name}${e.name}/`, out)) return false;
    } else if (e.isFile()) {
      let text: string;
      try {
        text = readFileSync(p, 'latin1');
      } catch {
        return false;
      }
      if (!OID.test(text)) return false;
      out.set(`${name}${e.name}`, text.slice(0, 40));
    } else return false;
  }
  return true;
}

/** One tip as for-each-ref reads it: its committer time and trailer block; null where git must read it. */
function tipRecord(repo: Repo, ref: string, oid: string): RefRecord | null {
  const o = readLoose(repo, oid, 64 * 1024);
  if (!o || o.type !== 'commit') return null;
  const text = o.content.toString('latin1');
  const end = text.indexOf('\n\n');
  if (end < 0) return null;
  const committer = /^committer .* (\d+) [+-]\d{4}$/m.exec(text.slice(0, end + 1));
  if (!committer) return null;
  const block = commitTrailerBlock(text.slice(end + 2));
  if (block === null) return null;
  // what for-each-ref prints is bytes, read as UTF-8 by the caller: the same here
  return new ListedRef(ref, oid, Number(committer[1]), Buffer.from(block, 'latin1').toString('utf8'));
}

/** listRefs(repo, [prefix]) read in this process (`prefix` a directory of refs, ending in `/`), or null: ask git. */
export function listRefsInProcess(repo: Repo, prefix: string): RefRecord[] | null {
  if (!repo.plain || repo.objectFormat !== 'sha1' || !prefix.startsWith('refs/') || !prefix.endsWith('/')) return null;
  if (MOVED.some((k) => process.env[k] !== undefined)) return null;
  const tips = readPackedRefs(repo.commonDir, prefix);
  // a loose ref stands over its packed value
  if (!looseRefs(path.join(repo.commonDir, ...prefix.split('/').filter(Boolean)), prefix, tips)) return null;
  const out: RefRecord[] = [];
  for (const ref of [...tips.keys()].sort()) {
    const r = tipRecord(repo, ref, tips.get(ref)!);
    if (!r) return null;
    out.push(r);
  }
  return out;
}
