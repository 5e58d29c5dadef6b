// One read per fact per process (issue 71): a run that knows up front which refs it will read (the session start)
// lists them in one for-each-ref, and each later read those patterns cover is answered from that listing, as git
// would filter it (ref-filter.c match_name_as_path). A ref this process moves since is read from git again; any other
// command of this process that may move refs ends the listing (src/git/repo.ts).
import type { RefRecord } from './storage';

/** for-each-ref's test of one pattern: the name itself or a prefix of it up to a slash, or a `*`/`?` glob that crosses no slash; null for a glob this file does not read (git answers). */
function matcher(pattern: string): ((ref: string) => boolean) | null {
  const literal = (ref: string) => ref.startsWith(pattern) && (ref.length === pattern.length || ref[pattern.length] === '/' || pattern.endsWith('/'));
  if (!/[*?[\\]/.test(pattern)) return literal;
  if (/\[|\\|\*\*/.test(pattern)) return null;
  const glob = new RegExp(`^${pattern.replace(/[.+^${}()|/-]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  return (ref) => literal(ref) || glob.test(ref);
}

export class RefsOnce {
  /** refs this process moved since the listing: read from git again */
  private readonly moved = new Set<string>();

  constructor(
    private readonly patterns: string[],
    private readonly records: RefRecord[],
  ) {}

  /** Whether every ref `pattern` can name was listed: the same pattern, or a literal one it lies under. */
  private covers(pattern: string): boolean {
    return this.patterns.some((p) => p === pattern || (!/[*?[\\]/.test(p) && !/[*?[\\]/.test(pattern) && matcher(p)!(pattern)));
  }

  /** listRefs's answer from the listing, or null where git has to answer. */
  list(patterns: string[]): RefRecord[] | null {
    const tests = patterns.map((p) => (this.covers(p) ? matcher(p) : null));
    if (tests.some((t) => t === null)) return null;
    const hit = (ref: string) => tests.some((t) => t!(ref));
    if ([...this.moved].some(hit)) return null;
    return this.records.filter((r) => hit(r.ref));
  }

  /** readRef's answer (a commit's id, or null: no such ref), or undefined where git has to answer (not listed, moved, not a commit). */
  readRef(ref: string): string | null | undefined {
    const found = this.list([ref]);
    if (!found) return undefined;
    const rec = found.find((r) => r.ref === ref);
    // a committer time says the ref names a commit (readRef peels to one: anything else is git's to read)
    return !rec ? null : rec.time > 0 ? rec.oid : undefined;
  }

  /** The listing less the refs this process has just moved (or tried to). */
  movedRefs(refs: string[]): void {
    for (const r of refs) this.moved.add(r);
  }
}
