// Read receipts (SPEC 4): `<reader> <unix time> <how>` lines in git notes on each version, under refs/notes/handoff-reads;
// only ever added: appended by compare-and-swap, merged by union across clones.
import { HandoffError } from '../../errors';
import type { Storage } from '../../git/storage';
import { NOTES_REF, trackingOf } from './names';
import { commitRecord, moveRef } from './tx';
import { LOST, LOST_RACE, untilWon, type BackoffPolicy } from '../../retry';

/** Where a fetch puts a remote's receipts (beside its handoffs' tracking refs). */
export const trackingNotesRef = (remote: string) => trackingOf(remote, NOTES_REF);

export type How = 'read' | 'surfaced';
/** A receipt: who, when (ISO 8601), and whether it read the version or was shown it at session start. */
export type Receipt = ReturnType<typeof parseReceipts>[number];
export interface ReceiptEntry {
  /** the version's commit */
  oid: string;
  reader: string;
  how: How;
}

const LINE_RE = /^(\S{1,300}) (\d{1,12}) (read|surfaced)$/;

/** The receipts of one note; lines of another shape are kept in the note but not read as receipts. */
export function parseReceipts(text: string) {
  return text.split('\n').flatMap((line) => {
    const m = LINE_RE.exec(line.trim());
    return m ? [{ reader: m[1], at: new Date(Number(m[2]) * 1000).toISOString(), how: m[3] as How }] : [];
  });
}

interface NoteEntry {
  /** its path in the notes tree (flat `<oid>` or git's fan-out `ab/cdef…`) */
  path: string;
  blob: string;
}

/** Every note of a notes commit (any fan-out), by annotated object, from one ls-tree. */
function noteEntries(repo: Storage, commit: string | null): Map<string, NoteEntry> {
  const out = new Map<string, NoteEntry>();
  if (!commit) return out;
  for (const e of repo.readTreeDeep(commit) ?? []) {
    if (e.type !== 'blob') continue;
    const annotated = e.path.replace(/\//g, '');
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(annotated)) out.set(annotated, { path: e.path, blob: e.oid });
  }
  return out;
}

/** The texts of some notes, in one cat-file. */
function textsOf(repo: Storage, blobs: string[]): string[] {
  return repo.readObjects(blobs).map((o) => (o ? o.content.toString('utf8') : ''));
}

/** Receipts per version (all when `oids` is omitted); `at`: the notes commit when the caller read it (null: none). */
export function readReceipts(repo: Storage, oids?: string[], at?: string | null): Map<string, Receipt[]> {
  const entries = noteEntries(repo, at === undefined ? repo.readRef(NOTES_REF) : at);
  const wanted = (oids ?? [...entries.keys()]).filter((o) => entries.has(o));
  const texts = textsOf(repo, wanted.map((o) => entries.get(o)!.blob));
  return new Map(wanted.map((o, i) => [o, parseReceipts(texts[i])]));
}

/** appendReceipts as optional state: a receipt that cannot be written is a warning, never a change of output or exit code. */
export function recordReceiptsOptional(repo: Storage, wanted: ReceiptEntry[], at?: string | null): { receipts: Map<string, Receipt[]>; warning: string | null } {
  try {
    return { receipts: appendReceipts(repo, wanted, undefined, at).receipts, warning: null };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    let receipts = new Map<string, Receipt[]>();
    try {
      receipts = readReceipts(repo, [...new Set(wanted.map((w) => w.oid))], at);
    } catch {
      // unreadable as well: shown as read by no one
    }
    return { receipts, warning: `the read receipt was not recorded: ${why}` };
  }
}

/** "read by a1b2c3d4, person:x@y · shown at session start to 5e6f7a8b": each reader once, by what they did. */
export function describeReadBy(list: Receipt[], shortId: (id: string) => string = (id) => id): string {
  const readers = [...new Set(list.map((r) => r.reader))];
  const opened = readers.filter((id) => list.some((r) => r.reader === id && r.how === 'read'));
  const shown = readers.filter((id) => !opened.includes(id));
  const names = (ids: string[]) => `${ids.slice(0, 5).map((id) => shortId(id)).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
  const read = opened.length ? `read by ${names(opened)}` : 'read by no one yet';
  return shown.length ? `${read} · shown at session start to ${names(shown)}` : read;
}

/** A notes commit: `base`'s tree with each changed note replaced (at its own path) or added (flat). */
function notesCommit(repo: Storage, base: string | null, entries: Map<string, NoteEntry>, changes: Map<string, string>, parents: string[], message: string): string {
  const oids = [...changes.keys()];
  const blobs = repo.writeBlobs(oids.map((o) => changes.get(o)!));
  const tree = repo.writeTreeWithPaths(base, oids.map((o, i) => ({ path: entries.get(o)?.path ?? o, oid: blobs[i] })));
  return commitRecord(repo, tree, parents, message);
}

/** Readers of one clone add receipts at once: each lost race adds its lines again on top. */
const RECEIPTS_RACE: BackoffPolicy = { ...LOST_RACE, attempts: 100 };

/** Adds receipts by compare-and-swap (a lost race adds again on top); a reader's receipt of the same kind is never written twice. */
export function appendReceipts(repo: Storage, wanted: ReceiptEntry[], now = Math.floor(Date.now() / 1000), at?: string | null): { added: number; receipts: Map<string, Receipt[]> } {
  if (wanted.length === 0) return { added: 0, receipts: new Map() };
  const versions = [...new Set(wanted.map((w) => w.oid))];
  return untilWon((attempt: number) => {
    // the first attempt trusts a notes commit the caller just read; a lost race reads it again
    const old = attempt === 0 && at !== undefined ? at : repo.readRef(NOTES_REF);
    const entries = noteEntries(repo, old);
    const touched = versions.filter((o) => entries.has(o));
    const current = new Map(textsOf(repo, touched.map((o) => entries.get(o)!.blob)).map((t, i) => [touched[i], t]));
    const changes = new Map<string, string>();
    const receiptsNow = () => new Map(versions.map((o) => [o, parseReceipts(changes.get(o) ?? current.get(o) ?? '')]));
    let added = 0;
    for (const w of wanted) {
      const text = changes.get(w.oid) ?? current.get(w.oid) ?? '';
      if (parseReceipts(text).some((r) => r.reader === w.reader && r.how === w.how)) continue;
      changes.set(w.oid, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${w.reader} ${now} ${w.how}\n`);
      added++;
    }
    if (added === 0) return { added, receipts: receiptsNow() };
    const commit = notesCommit(repo, old, entries, changes, old ? [old] : [], `handoff receipts: ${added} added`);
    return moveRef(repo, NOTES_REF, commit, old, 'handoff receipt', { own: true }).ok ? { added, receipts: receiptsNow() } : LOST;
  }, { policy: RECEIPTS_RACE, gaveUp: () => new HandoffError('concurrent', 'concurrent-update', `${NOTES_REF} kept changing under this receipt; nothing was recorded. Try again.`, { ref: NOTES_REF }) });
}

/** Every line of both notes, sorted, each once (git notes merge -s cat_sort_uniq). */
export function unionNote(a: string, b: string): string {
  const lines = new Set([...a.split('\n'), ...b.split('\n')].filter((l) => l.trim() !== ''));
  return [...lines].sort().join('\n') + '\n';
}

export type ReceiptMerge = 'none' | 'same' | 'created' | 'local-ahead' | 'fast-forwarded' | 'merged';

/** A notes commit with both parents whose every note is the union of both sides' lines (nothing of either is dropped). */
export function unionReceiptsCommit(repo: Storage, local: string, theirs: string, message: string): string {
  const mine = noteEntries(repo, local);
  const changes = new Map(notesDiffering(repo, noteEntries(repo, theirs), mine).map(([o, other, ours]) => [o, ours === null ? other : unionNote(ours, other)]));
  return notesCommit(repo, local, mine, changes, [local, theirs], message);
}

/** After a fetch: the remote's receipts into the local notes ref, by fast-forward or a union commit with both parents. */
export function mergeReceipts(repo: Storage, remote: string): ReceiptMerge {
  const theirs = repo.readRef(trackingNotesRef(remote));
  if (!theirs) return 'none';
  return untilWon<ReceiptMerge>(() => {
    const local = repo.readRef(NOTES_REF);
    if (local === theirs) return 'same';
    if (local && repo.isAncestor(theirs, local)) return 'local-ahead';
    // a remote "ahead" that drops lines (a host without the check let it through) is a divergence: merged by union
    const forward = !local || (repo.isAncestor(local, theirs) && droppedReceipts(repo, local, theirs).length === 0);
    const commit = forward ? theirs : unionReceiptsCommit(repo, local, theirs, `handoff receipts: merged ${remote}`);
    return moveRef(repo, NOTES_REF, commit, local, 'handoff fetch receipts').ok ? (!local ? 'created' : forward ? 'fast-forwarded' : 'merged') : LOST;
  }, { policy: RECEIPTS_RACE, gaveUp: () => new HandoffError('concurrent', 'concurrent-update', `${NOTES_REF} kept changing during the fetch; the remote's receipts were not merged. Run the fetch again.`) });
}

/** The receipt lines a notes update `oldCommit` → `newCommit` drops (receipts are only ever added). */
export function droppedReceipts(repo: Storage, oldCommit: string, newCommit: string | null): string[] {
  return notesDiffering(repo, noteEntries(repo, oldCommit), noteEntries(repo, newCommit)).flatMap(([o, was, now]) => {
    const kept = new Set(now?.split('\n') ?? []);
    return was.split('\n').filter((line) => line.trim() && !kept.has(line)).map((line) => `${o.slice(0, 12)}: ${line}`);
  });
}

/** Each note of `from` whose blob `to` does not hold: its text in both (null: `to` has no note there), in one cat-file. */
function notesDiffering(repo: Storage, from: Map<string, NoteEntry>, to: Map<string, NoteEntry>): Array<[string, string, string | null]> {
  const oids = [...from].filter(([o, e]) => to.get(o)?.blob !== e.blob).map(([o]) => o);
  const inTo = oids.filter((o) => to.has(o));
  const texts = textsOf(repo, [...oids.map((o) => from.get(o)!.blob), ...inTo.map((o) => to.get(o)!.blob)]);
  let next = oids.length;
  return oids.map((o, i) => [o, texts[i], to.has(o) ? texts[next++] : null]);
}
