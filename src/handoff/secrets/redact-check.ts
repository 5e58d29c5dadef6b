// The one sanctioned rewrite of a handoff (SPEC 2.6): the hooks accept a non-fast-forward move only when it is exactly
// what `git handoff redact` makes, each version's redaction recomputed from its original with the same scanner.
import { parseCommit, type Storage } from '../../git/storage';
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

/**
 * Whether `oldTip` → `newTip` is exactly a `redact` rewrite: each version names its original in the appended trailer,
 * keeps its headers, parents (each the original's or its rewrite) and every tree entry but handoff.md and state.json,
 * and its message, handoff.md and state.json are the original's redaction.
 */
async function isRedactRewrite(repo: Storage, oldTip: string, newTip: string): Promise<boolean> {
  const todo: Array<[string, string]> = [[newTip, oldTip]];
  const done = new Set<string>();
  const pairs: Array<{ file: string; orig: string; red: string; allowed: string[] }> = [];
  while (todo.length) {
    if (done.size > MAX_CHAIN) return false;
    const [n, o] = todo.pop()!;
    if (done.has(n)) continue;
    done.add(n);
    const [nc, oc] = repo.readObjects([n, o]);
    if (nc?.type !== 'commit' || oc?.type !== 'commit') return false;
    const nr = parseCommit(nc.content);
    const or = parseCommit(oc.content);
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
  const entries = (tree: string) => new Map(repo.readTree(tree).map((e) => [e.path, { mode: `${e.mode} ${e.type}`, oid: e.oid }]));
  const a = entries(oldTree);
  const b = entries(newTree);
  if (a.size !== b.size) return null;
  const texts: Array<[string, string, string]> = [];
  for (const [name, e] of a) {
    const f = b.get(name);
    if (!f || f.mode !== e.mode) return null;
    if (name === 'handoff.md' || name === 'state.json') texts.push([name, e.oid, f.oid]);
    else if (f.oid !== e.oid) return null;
  }
  const blobs = repo.readObjects(texts.flatMap(([, o, n]) => [o, n]));
  const text = (i: number) => blobs[i]?.content.toString('utf8') ?? '';
  return texts.map(([file], i) => ({ file, orig: text(2 * i), red: text(2 * i + 1) }));
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
