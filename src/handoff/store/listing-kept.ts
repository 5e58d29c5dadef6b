// `list --all`'s reads kept between runs in <common>/handoff/listing: a commit's time and trailers never change under
// its id, so the next listing asks git for names and oids only and reads the fields of refs whose oid is not kept.
// Nothing is kept where git's trailer rules or git itself changed since.
import { readFileSync, statSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import path from 'node:path';
import { readConfigInProcess } from '../../git/config-read';
import { RefRecord, type Storage } from '../../git/storage';
import { handoffDir } from '../state/paths';
import { writeState } from '../state/state-file';

const VERSION = 'git-handoff listing 1';
/** Above this many refs to read again, one listing of the whole scope (each exact pattern costs git a directory read). */
const FEW = 64;

export const listingFile = (repo: Pick<Storage, 'commonDir'>) => path.join(handoffDir(repo.commonDir), 'listing');

/** The git that run.ts starts (the first on PATH), as a stamp that changes when it is replaced or upgraded. */
function gitStamp(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      const st = statSync(path.join(dir, 'git'));
      if (st.isFile()) return `${dir}:${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      // not here: the next directory
    }
  }
  return null;
}

/** What the kept fields depend on besides the commit; null where that is not known in this process (then nothing is kept). */
function keyOf(repo: Storage): string | null {
  if (!repo.plain) return null;
  const rules = readConfigInProcess(repo, /^(trailer\.|core\.comment)/);
  const git = rules && gitStamp();
  return git ? `${VERSION}\0${repo.objectFormat}\0${git}\0${JSON.stringify([...rules!])}\n` : null;
}

/**
 * The kept listing for this key, or null: its key line, a line naming the record it agreed with (or empty), the records.
 * `text`: the records, as git printed them; `agreed`: the verified record commit they were found to agree with (the
 * loss record: record-reads.ts), or null.
 */
function readKept(repo: Storage, key: string) {
  let data: Buffer;
  try {
    data = readFileSync(listingFile(repo));
  } catch {
    return null;
  }
  // as git's output is read (UTF-8); an ASCII file the cheaper way to the same string
  const text = isAscii(data) ? data.toString('latin1') : data.toString('utf8');
  const nl = text.indexOf('\n', key.length);
  if (!text.startsWith(key) || nl < 0) return null;
  const agreed = text.slice(key.length, nl);
  return { text: text.slice(nl + 1), agreed: /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(agreed) ? agreed : null };
}

function keep(repo: Storage, key: string, recs: RefRecord[], agreed: string | null): void {
  const parts = [key, agreed ?? '', '\n'];
  for (const r of recs) parts.push(`${r.ref}\0${r.oid}\0${r.time}\0${r.block}\0\n`);
  try {
    writeState(listingFile(repo), parts.join(''), repo.commonDir);
  } catch {
    // a cache: read from git again next time
  }
}

/**
 * The kept records of `names` (in git's order, as the kept text is), walked in step: a name whose ref and oid
 * start the kept record at hand takes it; any other is missed (its slot left empty) and the kept records of refs
 * gone or moved are stepped over. Only a whole kept record with this very ref and oid is ever taken. True when the
 * kept text was exactly these records.
 */
function walkKept(text: string, names: Array<{ ref: string; oid: string }>, out: Array<RefRecord | undefined>, missed: number[]): boolean {
  let at = 0;
  let stepped = 0;
  for (let i = 0; i < names.length; i++) {
    const { ref, oid } = names[i];
    let found: RefRecord | undefined;
    while (at < text.length) {
      const z = text.indexOf('\0', at);
      if (z < 0) {
        at = text.length;
        break;
      }
      const keptRef = text.slice(at, z);
      if (keptRef > ref) break; // a ref the kept listing does not have
      const c = text.indexOf('\0', z + 1);
      const t = c < 0 ? -1 : text.indexOf('\0', c + 1);
      const d = t < 0 ? -1 : text.indexOf('\0', t + 1);
      if (d < 0 || text.charCodeAt(d + 1) !== 10) {
        at = text.length; // a cut record: nothing further is taken
        break;
      }
      const next = d + 2;
      if (keptRef === ref) {
        if (c - z - 1 === oid.length && text.startsWith(oid, z + 1)) found = new RefRecord(ref, oid, Number(text.slice(c + 1, t)) || 0, text.slice(t + 1, d));
        at = next;
        break;
      }
      at = next; // a ref gone since
      stepped++;
    }
    if (found) out[i] = found;
    else missed.push(i);
  }
  return stepped === 0 && at === text.length;
}

/**
 * listRefs for a whole-store listing (`list --all`, `boot --all`): the same records, from the kept listing where the
 * oid matches, and from git for the rest (refs that moved or appeared, or all of them when nothing usable is kept).
 */
export function listRefsKept(repo: Storage, patterns: string[]): RefRecord[] {
  const key = keyOf(repo);
  if (!key) return repo.listRefs(patterns);
  const kept = readKept(repo, key);
  // every field from git: nothing kept yet, or too much moved since
  const fromGit = (): RefRecord[] => {
    const all = repo.listRefsUntold(patterns);
    keep(repo, key, all, repo.tellRefsRead(all, null));
    return all;
  };
  if (!kept) return fromGit();
  const names = repo.listRefNames(patterns);
  const slots: Array<RefRecord | undefined> = new Array(names.length);
  const missed: number[] = [];
  const same = walkKept(kept.text, names, slots, missed);
  if (missed.length > FEW) return fromGit();
  // the refs read again, each by its exact name (a ref gone since is gone from the answer; one moved since is read as now)
  if (missed.length) {
    const fresh = new Map(repo.listRefsUntold(missed.map((i) => names[i].ref)).map((r) => [r.ref, r]));
    for (const i of missed) slots[i] = fresh.get(names[i].ref);
  }
  const out = missed.length ? slots.filter((r): r is RefRecord => r !== undefined) : (slots as RefRecord[]);
  const unchanged = same && missed.length === 0;
  // the loss record's comparison; for exactly the kept refs, what it found before stands while that record is the verified one
  const agreed = repo.tellRefsRead(out, unchanged ? kept.agreed : null);
  if (!unchanged || agreed !== kept.agreed) keep(repo, key, out, agreed);
  return out;
}
