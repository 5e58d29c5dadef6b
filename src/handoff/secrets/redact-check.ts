// The one sanctioned rewrite of a handoff (SPEC 2.6): a version chain rewritten by `git handoff redact`. The
// reference-transaction check and the server accept a non-fast-forward move only when this says it is exactly
// what the command makes: each version's redaction recomputed from its original with the same scanner.
import type { Storage } from '../../git/storage';
import type { Refusal } from '../store/ref-updates';
import type { RefUpdate } from '../store/tx/batch';
import { secretTrailersOf } from '../store/document';
import { redactText, scanTexts } from './secrets';

export const REDACTED_FROM = 'Handoff-Redacted-From';
export const REDACT_REASON = 'Handoff-Redact-Reason';
/** The lines `redact` appends to a rewritten version's message: the original, who redacted it, why for a takeover. */
const ADDED = new RegExp(`\\n${REDACTED_FROM}: ([0-9a-f]{40,64}) by (\\S+)\\n(?:${REDACT_REASON}: [^\\n]*\\n)?$`);
const MAX_CHAIN = 10_000;

/** The text `redact` makes of `orig`: every finding of a rule the version did not allow, replaced by its marker. */
export async function redactionOf(orig: string, file: string, allowed: string[]): Promise<string> {
  return redactText(orig, (await scanTexts([{ file, text: orig }])).filter((f) => !allowed.includes(f.rule)));
}

export interface RawCommit {
  headers: string[];
  tree: string;
  parents: string[];
  message: string;
}

/** A commit's header lines without tree, parents and signature (a rewrite cannot keep a signature). */
export function splitCommit(content: Buffer): RawCommit {
  const text = content.toString('utf8');
  const end = text.indexOf('\n\n');
  const headers: string[] = [];
  let tree = '';
  const parents: string[] = [];
  let inSig = false;
  for (const line of (end < 0 ? text : text.slice(0, end)).split('\n')) {
    if (inSig && line.startsWith(' ')) continue;
    inSig = false;
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('gpgsig')) inSig = true;
    else headers.push(line);
  }
  return { headers, tree, parents, message: end < 0 ? '' : text.slice(end + 2) };
}

/** `<mode> <type> <oid>\t<name>` entries of a tree, by name. */
function treeEntries(repo: Storage, tree: string): Map<string, { mode: string; oid: string }> {
  const out = new Map<string, { mode: string; oid: string }>();
  for (const e of repo.readTree(tree)) out.set(e.path, { mode: `${e.mode} ${e.type}`, oid: e.oid });
  return out;
}

/** A text the rewrite changed (or kept), to be checked against the redaction of the original. */
interface TextPair {
  file: string;
  orig: string;
  red: string;
  allowed: string[];
}

/** Whether moving a handoff ref from `oldTip` to `newTip` is exactly a `git handoff redact` rewrite: each rewritten
 *  version names its original in the appended trailer, keeps its headers (author, committer, dates) but tree,
 *  parents and signature, keeps every tree entry but handoff.md and state.json, has as many parents, each the
 *  original's or a rewrite of it checked the same way, and its message, handoff.md and state.json are exactly
 *  the original's with every finding of a rule it did not allow replaced by [REDACTED:<rule>]. */
export async function isRedactRewrite(repo: Storage, oldTip: string, newTip: string): Promise<boolean> {
  const todo: Array<[string, string]> = [[newTip, oldTip]];
  const done = new Set<string>();
  const pairs: TextPair[] = [];
  while (todo.length) {
    if (done.size > MAX_CHAIN) return false;
    const [n, o] = todo.pop()!;
    if (done.has(n)) continue;
    done.add(n);
    const [nc, oc] = repo.readObjects([n, o]);
    if (nc?.type !== 'commit' || oc?.type !== 'commit') return false;
    const nr = splitCommit(nc.content);
    const or = splitCommit(oc.content);
    const added = ADDED.exec(nr.message);
    if (!added || added[1] !== o) return false;
    if (nr.headers.join('\n') !== or.headers.join('\n') || nr.parents.length !== or.parents.length) return false;
    const allowed = secretTrailersOf(or.message).allowed;
    pairs.push({ file: 'message', orig: or.message, red: nr.message.slice(0, added.index).replace(/\n*$/, '\n'), allowed });
    const blobs = treePairs(repo, or.tree, nr.tree);
    if (!blobs) return false;
    pairs.push(...blobs.map((b) => ({ ...b, allowed })));
    nr.parents.forEach((p, i) => p !== or.parents[i] && todo.push([p, or.parents[i]]));
  }
  for (const p of pairs) {
    const expected = await redactionOf(p.orig, p.file, p.allowed);
    if ((p.file === 'message' ? expected.replace(/\n*$/, '\n') : expected) !== p.red) return false;
  }
  return true;
}

/** handoff.md and state.json of two trees, when every other entry is the same; null when not. */
function treePairs(repo: Storage, oldTree: string, newTree: string): Array<{ file: string; orig: string; red: string }> | null {
  const a = treeEntries(repo, oldTree);
  const b = treeEntries(repo, newTree);
  if (a.size !== b.size) return null;
  const texts: string[] = [];
  for (const [name, e] of a) {
    const f = b.get(name);
    if (!f || f.mode !== e.mode) return null;
    if (name === 'handoff.md' || name === 'state.json') texts.push(name, e.oid, f.oid);
    else if (f.oid !== e.oid) return null;
  }
  const out: Array<{ file: string; orig: string; red: string }> = [];
  const names = texts.filter((_, i) => i % 3 === 0);
  const blobs = repo.readObjects(texts.filter((_, i) => i % 3 !== 0));
  names.forEach((file, i) => {
    const [o, n] = [blobs[2 * i], blobs[2 * i + 1]];
    out.push({ file, orig: o?.content.toString('utf8') ?? '', red: n?.content.toString('utf8') ?? '' });
  });
  return out;
}

/** checkReceive's refusals without the `history rewritten` ones that are exactly a `redact` rewrite. */
export async function withoutRedactions(repo: Storage, refusals: Refusal[], updates: RefUpdate[]): Promise<Refusal[]> {
  const out: Refusal[] = [];
  for (const r of refusals) {
    const u = r.rule === 'rewrite' ? updates.find((x) => x.ref === r.ref && x.oldOid && x.newOid) : undefined;
    if (u && (await isRedactRewrite(repo, u.oldOid!, u.newOid!))) continue;
    out.push(r);
  }
  return out;
}
