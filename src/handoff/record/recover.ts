// `git handoff recover`: puts back the refs the loss record says were lost, by CAS, never over a newer legitimate
// version; a rogue tip is kept aside. `--scan` rebuilds from unreachable objects when the record is gone too.
import type { CommitSummary, RefOp, Storage } from '../../git/storage';
import { archiveRef, ARCHIVE_PREFIX, DROPPED_PREFIX, droppedPrefixOf, encodeBranch, handoffRef, HANDOFF_PREFIX, keyOf, NOTES_REF, stampedRef, stampOf, typedRef } from '../store/names';
import { checkAdvance, keepsOwner, readTrailersOf, type Violation } from '../store/ownership';
import { unionReceiptsCommit } from '../store/receipts';
import type { SessionStartRecord } from '../store/boot';
import { amendRecord, isPruned, KEPT_PREFIX, listTracked, now as stamp, readRecord, RECORD_REF, ROGUE_PREFIX, type RecordState } from '../store/tx/record';
import { archivedIn, checkRecord, type Loss, type RecordCheck } from './record-check';
import { branchFilesAgree } from './record-reads';
import { moveRefs } from '../store/tx';
import { refOpOf } from '../store/tx/batch';

/** One move through tx (so the record takes it); a hook's refusal or a held lock is a failed move here, not a crash. */
function move(repo: Storage, ops: RefOp[], reason: string, env?: NodeJS.ProcessEnv): { ok: true } | { ok: false; message: string } {
  try {
    return moveRefs(repo, ops, reason, { env, deadline: Date.now() + 5000 });
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

interface RecoverAction {
  ref: string;
  action: 'restored' | 'merged' | 'moved-back' | 'kept-aside' | 'refused' | 'dropped';
  /** what the ref holds after (null: still gone) */
  oid: string | null;
  /** a rogue tip moved out of the way, or a recorded version kept beside another sound history */
  keptAs?: string;
  message: string;
}

/** What recover did, and the losses left as they were (refused, or not unambiguous in `auto` mode). */
export type RecoverResult = ReturnType<typeof recover>;

interface Plan {
  ops: RefOp[];
  action: RecoverAction;
  /** set only when the plan needs no move: the record takes the ref's current value */
  adopt?: string;
}

/** Unambiguous: session start may apply it by itself. */
const isClear = (p: Plan) => p.action.action !== 'refused' && p.action.action !== 'kept-aside';

const refused = (l: Loss, message: string, adopt?: string): Plan => ({ ops: [], action: { ref: l.ref, action: 'refused', oid: l.current, message }, adopt });
/** The recorded version put back at `ref` by one move: unambiguous. */
const putBack = (l: Loss, ref: string, message: string): Plan => ({
  ops: [refOpOf({ ref, newOid: l.recorded, oldOid: l.current })],
  action: { ref: l.ref, action: 'restored', oid: l.recorded, message },
});

/**
 * The ownership rule on a history that replaced the recorded one: the versions it starts with (those whose parents
 * are outside it) must be by the recorded version's owner or name it in Handoff-Takeover-From. Null when they do.
 */
function notTheOwners(repo: Storage, base: string | null, cur: string, recorded: string): Violation | null {
  const owner = readTrailersOf(repo, [recorded]).get(recorded)?.session ?? null;
  if (!owner) return null;
  const added = repo.commits({ from: [cur], not: base ? [base] : [] });
  const t = readTrailersOf(repo, added);
  const inside = new Set(added);
  for (const oid of added) {
    const c = t.get(oid);
    if (!c || c.parents.some((p) => inside.has(p))) continue;
    if (!keepsOwner(c, owner)) {
      return {
        rule: 'foreign-owner',
        commit: oid,
        message: `${oid.slice(0, 12)} by session ${c.session ?? 'unknown'} replaces the history of session ${owner} without a takeover (Handoff-Takeover-From: ${owner})`,
      };
    }
  }
  return null;
}

/**
 * What to do about one loss. A deleted ref comes back when its recorded history keeps the ownership rule from its
 * root; a moved one only goes to a commit whose history holds the legitimate part of what is there now (a forged
 * record cannot drop the owner's versions), and the rogue tip is kept under refs/handoff-rogue/.
 */
function plan(repo: Storage, l: Loss): Plan {
  const at = stamp();
  if (!repo.resolve(`${l.recorded}^{commit}`)) return refused(l, `the record names ${l.recorded.slice(0, 12)}, which is not in the repository (pruned, or a damaged record): try \`git handoff recover --scan\``);
  if (l.kind === 'receipts-deleted') return putBack(l, NOTES_REF, `${NOTES_REF} restored at ${l.recorded.slice(0, 12)}`);
  if (l.kind === 'receipts-dropped') {
    const merged = unionReceiptsCommit(repo, l.current!, l.recorded, 'handoff receipts: recovered dropped lines');
    return {
      ops: [{ op: 'update', ref: NOTES_REF, newOid: merged, oldOid: l.current! }],
      action: { ref: l.ref, action: 'merged', oid: merged, message: `${NOTES_REF}: the dropped receipts merged back (a commit with both parents, every line of both)` },
    };
  }
  if (l.kind === 'deleted') {
    const v = checkAdvance(repo, null, l.recorded);
    if (v) return refused(l, `the recorded history of ${l.ref} breaks the ownership rule (${v.message}): not restored`);
    return putBack(l, l.ref, `${l.ref} restored at ${l.recorded.slice(0, 12)}`);
  }
  const cur = l.current!;
  const rogue = stampedRef(`${ROGUE_PREFIX}${keyOf(l.ref)}/`, at, cur);
  const moveBack = (why: string): Plan => ({
    ops: [
      { op: 'update', ref: l.ref, newOid: l.recorded, oldOid: cur },
      { op: 'create', ref: rogue, newOid: cur },
    ],
    action: { ref: l.ref, action: 'moved-back', oid: l.recorded, keptAs: rogue, message: `${l.ref} moved back to ${l.recorded.slice(0, 12)} (${why}); the tip found there, ${cur.slice(0, 12)}, is kept at ${rogue}` },
  });
  if (l.kind === 'rogue-advance') return moveBack('the versions added on top break the ownership rule');
  // rewound: the recorded version holds what is there now
  if (repo.isAncestor(cur, l.recorded)) {
    const v = checkAdvance(repo, cur, l.recorded);
    if (v) return refused(l, `the recorded version ${l.recorded.slice(0, 12)} does not follow ${cur.slice(0, 12)} under the ownership rule (${v.message}): the record is not trusted for ${l.ref}`, cur);
    return putBack(l, l.ref, `${l.ref} moved forward again to ${l.recorded.slice(0, 12)}`);
  }
  // two histories: the one whose own versions break the rule gives way; two sound ones are both kept only when the
  // new one is the recorded owner's own or takes it over on the record (the store refuses any other such move, exit 3)
  const base = repo.mergeBase(cur, l.recorded);
  const curBad = checkAdvance(repo, base, cur) ?? notTheOwners(repo, base, cur, l.recorded);
  const recBad = checkAdvance(repo, base, l.recorded);
  if (curBad && !recBad) return moveBack(`what is there now breaks the ownership rule: ${curBad.message}`);
  const kept = stampedRef(`${KEPT_PREFIX}${keyOf(l.ref)}/`, at, l.recorded);
  if (recBad) return refused(l, `the recorded version ${l.recorded.slice(0, 12)} breaks the ownership rule (${recBad.message}) and what is there now keeps it: ${l.ref} stays at ${cur.slice(0, 12)}`, cur);
  return {
    ops: [{ op: 'create', ref: kept, newOid: l.recorded }],
    action: {
      ref: l.ref,
      action: 'kept-aside',
      oid: cur,
      keptAs: kept,
      message: `${l.ref} now holds another sound history (${cur.slice(0, 12)}); its recorded version ${l.recorded.slice(0, 12)} is kept at ${kept} (look with \`git log ${kept}\`)`,
    },
    adopt: cur,
  };
}

/** Restores what the record says was lost (`refs`: only those); `auto` (session start) applies only unambiguous plans. */
export function recover(repo: Storage, o: { refs?: string[]; auto?: boolean; check?: RecordCheck } = {}) {
  const check = o.check ?? checkRecord(repo, { force: true });
  const wanted = o.refs?.length ? new Set(o.refs.map((r) => typedRef(r, HANDOFF_PREFIX))) : null;
  const actions: RecoverAction[] = [];
  const left: Loss[] = [];
  const adopt = new Map<string, string>();
  for (const l of check.losses) {
    const p = wanted && !wanted.has(l.ref) ? null : plan(repo, l);
    if (!p || (o.auto && !isClear(p))) {
      left.push(l);
      continue;
    }
    if (p.ops.length) {
      // a move back over a rogue tip is a rewrite the reference-transaction hook refuses: it passes on the record
      // (audit.jsonl), as a person's GIT_HANDOFF_BYPASS=1 would
      const r = move(repo, p.ops, 'handoff recover', p.action.action === 'moved-back' ? { GIT_HANDOFF_BYPASS: '1' } : undefined);
      if (!r.ok) {
        actions.push({ ref: l.ref, action: 'refused', oid: l.current, message: `${l.ref} changed while it was being recovered; nothing moved (${r.message.split('\n')[0]}): run \`git handoff recover\` again` });
        left.push(l);
        continue;
      }
    }
    if (p.adopt) adopt.set(l.ref, p.adopt);
    if (p.action.action === 'refused') left.push(l);
    actions.push(p.action);
  }
  // a named ref that was dropped on purpose is no loss: say where its versions are and what undoes the drop
  for (const ref of wanted ?? []) if (!check.losses.some((l) => l.ref === ref)) actions.push(...droppedNote(repo, ref));
  // the record takes what stays (a refused claim, two sound histories): reported once, not at every command
  if (adopt.size) {
    amendRecord(repo, (r) => {
      const t = stamp();
      for (const [ref, oid] of adopt) r.entries.set(ref, { oid, seen: t });
      return [];
    });
  }
  if (actions.length) checkRecord(repo, { force: true });
  return { problem: check.problem, actions, left: left.filter((l) => !adopt.has(l.ref)) };
}

/** For a dropped handoff (its live ref, or its refs/handoff-dropped/… ref): where it is kept and the command that undoes the drop. */
function droppedNote(repo: Storage, ref: string): RecoverAction[] {
  const prefix = ref.startsWith(DROPPED_PREFIX) ? ref : ref.startsWith(HANDOFF_PREFIX) && !repo.readRef(ref) ? droppedPrefixOf(ref) : null;
  if (!prefix) return [];
  const kept = listTracked(repo, [prefix]);
  const newest = [...kept.keys()].sort((a, b) => (stampOf(a) ?? 0) - (stampOf(b) ?? 0)).pop();
  if (!newest) return [];
  return [{ ref, action: 'dropped', oid: null, keptAs: newest, message: `${ref} was dropped on purpose (\`git handoff drop\`), not lost: its versions are kept at ${newest}; undo the drop: git handoff restore ${newest}` }];
}

/**
 * Rebuilds from unreachable objects: the newest record commit found, then handoff histories by their trailers (an
 * archive version becomes an archive entry again), then receipts by union. Never moves an existing ref backwards or
 * sideways: a tip that does not follow it is kept under refs/handoff-kept/.
 */
export function recoverScan(repo: Storage): RecoverResult {
  const found = repo.describeCommits(repo.unreachableCommits());
  const actions: RecoverAction[] = [];
  const have = listTracked(repo);
  // archive entries pruned by retention (`git handoff gc`, the record's removed entries) are not brought back
  const current = have.has(RECORD_REF) ? readRecord(repo, have.get(RECORD_REF)!) : null;
  const pruned = [...(current?.removed ?? [])].filter(([ref, r]) => isPruned(ref, r));
  const prunedRefs = new Set(pruned.map(([ref]) => ref));
  const prunedOids = new Set(pruned.map(([, r]) => r.oid));
  const create = (ref: string, oid: string, message: string, action: RecoverAction['action'] = 'restored') => {
    if (have.has(ref) || !move(repo, [{ op: 'create', ref, newOid: oid }], 'handoff recover --scan').ok) return;
    have.set(ref, oid);
    actions.push({ ref, action, oid, message });
  };
  // 1. the newest record commit that parses, the chain's tips first (seconds alone do not order a busy minute)
  const recordCommits = found.filter((c) => /^handoff record(:|$)/.test(c.subject));
  const builtOn = new Set(recordCommits.flatMap((c) => c.parents));
  const records = recordCommits.sort((a, b) => Number(builtOn.has(a.oid)) - Number(builtOn.has(b.oid)) || b.time - a.time);
  let rec: RecordState | null = null;
  for (const c of records) {
    const r = readRecord(repo, c.oid);
    if (!r.problem) {
      rec = r;
      break;
    }
  }
  if (rec) {
    for (const [ref, e] of rec.entries) {
      if (ref === NOTES_REF || have.has(ref) || prunedRefs.has(ref) || !repo.resolve(`${e.oid}^{commit}`)) continue;
      if (ref.startsWith(HANDOFF_PREFIX) && checkAdvance(repo, null, e.oid)) continue;
      create(ref, e.oid, `${ref} restored at ${e.oid.slice(0, 12)} from an unreachable record ${rec.commit!.slice(0, 12)}`);
    }
    const notes = rec.entries.get(NOTES_REF);
    if (notes && repo.resolve(`${notes.oid}^{commit}`)) found.push(...repo.describeCommits([notes.oid]).filter((c) => !found.some((x) => x.oid === c.oid)));
  }
  // 2. handoff histories by their trailers: only commits that were once a recorded version (reached from a record
  // commit, live or unreachable); a writer's commit the store refused (a lost race, an ownership refusal) never was
  const reachedFrom = [...(have.has(RECORD_REF) ? [RECORD_REF] : []), ...recordCommits.map((c) => c.oid)];
  const recorded = reachedFrom.length ? repo.parentsOf(reachedFrom) : null;
  const byKey = new Map<string, Array<CommitSummary & { branch: string; topic: string }>>();
  const parsed = readTrailersOf(repo, found.map((c) => c.oid));
  for (const c of found) {
    if (recorded && !recorded.has(c.oid)) continue;
    const t = parsed.get(c.oid);
    if (!t || t.problem || !t.session || !t.topic || !t.branch) continue;
    const ref = handoffRef(t.branch, t.topic);
    byKey.set(ref, [...(byKey.get(ref) ?? []), { ...c, branch: t.branch, topic: t.topic }]);
  }
  for (const [ref, group] of byKey) {
    const inner = new Set(group.flatMap((c) => c.parents));
    const tips = group.filter((c) => !inner.has(c.oid)).sort((a, b) => b.time - a.time);
    const byOid = new Map(group.map((c) => [c.oid, c]));
    // every archive version in the history gets its archive entry back
    for (const c of group) {
      if (!isArchiveVersion(c, byOid, repo) || prunedOids.has(c.oid)) continue;
      const a = archiveRef(c.branch, c.topic, c.time, c.oid);
      const prefix = `${ARCHIVE_PREFIX}${encodeBranch(c.branch)}/${c.topic}/`;
      if ([...have].some(([r, o]) => r.startsWith(prefix) && o === c.oid)) continue;
      create(a, c.oid, `${a} (an archived version of ${c.topic}) restored`);
    }
    tips.forEach((tip, i) => {
      const cur = have.get(ref) ?? null;
      if (isArchiveVersion(tip, byOid, repo) || archivedIn(repo, have, ref, tip.oid)) return;
      if (!cur && i === 0 && !checkAdvance(repo, null, tip.oid)) {
        create(ref, tip.oid, `${ref} restored at ${tip.oid.slice(0, 12)} from unreachable handoff commits`);
        return;
      }
      if (cur && (cur === tip.oid || repo.isAncestor(tip.oid, cur))) return;
      const kept = stampedRef(`${KEPT_PREFIX}${keyOf(ref)}/`, tip.time, tip.oid);
      create(kept, tip.oid, `another tip of ${ref}, ${tip.oid.slice(0, 12)}, kept at ${kept}`, 'kept-aside');
    });
  }
  // 3. receipts: every unreachable receipts commit not already inside the notes ref is merged back by union
  const notesTips = found.filter((c) => c.subject.startsWith('handoff receipts:')).sort((a, b) => b.time - a.time);
  const innerNotes = new Set(notesTips.flatMap((c) => c.parents));
  for (const c of notesTips.filter((n) => !innerNotes.has(n.oid))) {
    const cur = repo.readRef(NOTES_REF);
    if (!cur) create(NOTES_REF, c.oid, `${NOTES_REF} restored at ${c.oid.slice(0, 12)} from unreachable receipts commits`);
    if (!cur || repo.isAncestor(c.oid, cur)) continue;
    const merged = unionReceiptsCommit(repo, cur, c.oid, 'handoff receipts: recovered by scan');
    if (move(repo, [{ op: 'update', ref: NOTES_REF, newOid: merged, oldOid: cur }], 'handoff recover --scan').ok) {
      actions.push({ ref: NOTES_REF, action: 'merged', oid: merged, message: `${NOTES_REF}: receipts of ${c.oid.slice(0, 12)} merged back by union` });
    }
  }
  const check = checkRecord(repo, { force: true });
  return { problem: check.problem, actions, left: check.losses };
}

/** The version `archive` makes: subject `handoff(<topic>): archived`, the same tree as the version it archives. */
function isArchiveVersion(c: CommitSummary & { topic: string }, byOid: Map<string, CommitSummary>, repo: Storage): boolean {
  if (c.subject !== `handoff(${c.topic}): archived` || c.parents.length !== 1) return false;
  const parentTree = byOid.get(c.parents[0])?.tree ?? repo.resolve(`${c.parents[0]}^{tree}`);
  return parentTree === c.tree;
}

/** Session start: the check by proof (fingerprint and branch files), in full when it fails; unambiguous losses restored. */
export function recoverAtSessionStart(repo: Storage): SessionStartRecord | null {
  try {
    let check = checkRecord(repo);
    if (check.cached && !branchFilesAgree(repo)) check = checkRecord(repo, { force: true });
    if (!check.losses.length && !check.problem) return null;
    const r = check.losses.length ? recover(repo, { auto: true, check }) : { actions: [], left: [] };
    return {
      restored: r.actions.filter((a) => a.action !== 'refused').map((a) => a.message),
      left: r.left.map((l) => `${l.detail}; last seen in place ${l.lastSeen}; restore it: ${l.command}`),
      problem: check.problem,
    };
  } catch {
    // the record is a second line of defence: it never takes the session's view down
    return null;
  }
}

