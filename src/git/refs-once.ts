// One read per fact per process: a kept listing (keepRefs) answers each later read its patterns cover, as git would
// filter it; a ref this process moves since is read from git again (src/git/repo.ts ends listings on other commands).
import type { RefRecord } from './storage';

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
