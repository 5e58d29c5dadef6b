// `git handoff redact <topic>` (SPEC 2.6): rewrites the versions only this clone has with each secret redacted, as one
// compare-and-swap; pushed versions are refused with the steps to rotate.
import { HandoffError } from '../../errors';
import { parseCommit, type Storage } from '../../git/storage';
import type { DoctorItem } from '../../wiring';
import { appendAudit } from '../state/audit';
import { oneLine, secretTrailersIn } from '../store/document';
import { handoffRef, REMOTES_ROOT } from '../store/names';
import type { TakeoverArg } from '../store/takeover';
import { REDACT_REASON, REDACTED_FROM } from './redact-check';
import { publicFinding, redactText, scanVersions, type Finding } from './secrets';
import type { SessionRef } from '../state/session';
import { actOn, assertTakeover, notFound, readTip, resolveBranch, targetOf } from '../store/store';
import { commitRewrite, moveRef } from '../store/tx';

interface RedactOptions {
  topic: string;
  branch?: string;
  session: SessionRef;
  takeover?: TakeoverArg | null;
}

/** Every remote-tracking ref (the handoff remotes' copies, and git's own): a version reachable from one has left this clone. */
const PUSHED = { globs: [`${REMOTES_ROOT}*`], remotes: true };

/** The tree with handoff.md and state.json redacted where they have findings, every other entry kept. */
function redactedTree(repo: Storage, tree: string, findings: Finding[]): string {
  const mine = (name: string) => (name === 'handoff.md' || name === 'state.json' ? findings.filter((f) => f.file === name) : []);
  if (!findings.some((f) => mine(f.file).length)) return tree;
  const entries = repo.readTree(tree).map((e) => {
    const found = mine(e.path);
    const oid = found.length ? repo.writeBlobs([redactText(repo.readObjects([e.oid])[0]!.content.toString('utf8'), found)])[0] : e.oid;
    return { mode: e.mode, type: e.type, oid, name: e.path };
  });
  return repo.writeTree(entries);
}

const ROTATE_STEPS = [
  'rotate the secret now: revoke it where it was issued and make a new one (the remote, and every clone that fetched it, keep the old version)',
  'then write a new version without it: git handoff write <topic> -F <file> (or --redact)',
  'ask whoever runs the remote to remove the version if it must go: handoff refs never move backwards by push',
];

export async function redactHandoff(repo: Storage, o: RedactOptions) {
  assertTakeover(o.takeover);
  const branch = resolveBranch(repo, o.branch);
  const ref = handoffRef(branch, o.topic);
  const tip = readTip(repo, ref);
  if (!tip) throw notFound(ref, branch, o.topic);
  const told = actOn(repo, tip, ref, o.topic, o.session, o.takeover, 'redact', targetOf(repo, o.topic, branch));
  const all = repo.commits({ from: [tip.oid], oldestFirst: true });
  const local = new Set(repo.commits({ from: [tip.oid], notRefs: PUSHED }));
  const found = await scanVersions(repo, all.map((oid) => ({ ref, oid })), { skipScanned: false });
  const pushed = found.filter((v) => !local.has(v.oid));
  if (pushed.length) {
    throw new HandoffError(
      'integrity',
      'secret-pushed',
      `${pushed.length === 1 ? 'a version' : `${pushed.length} versions`} of ${ref} with secrets ${pushed.length === 1 ? 'has' : 'have'} already been pushed; redact rewrites only versions this clone alone has, and nothing was changed:\n` +
        pushed.map((v) => `  version ${v.oid.slice(0, 12)}: ${[...new Set(v.findings.map((f) => f.rule))].join(', ')}`).join('\n') +
        '\nWays on:\n' + ROTATE_STEPS.map((s, i) => `  ${i + 1}. ${s.replace('<topic>', o.topic)}`).join('\n'),
      { ref, versions: pushed.map((v) => ({ oid: v.oid, findings: v.findings.map(publicFinding) })) },
    );
  }
  // `oid` null: nothing to redact; `rewritten`: each original version and its rewrite, oldest first
  const result = { ref, oid: null as string | null, previous: tip.oid, rewritten: [] as Array<{ from: string; to: string; findings: number }>, redacted: 0 };
  if (!found.length) return result;
  const byOid = new Map(found.map((v) => [v.oid, v.findings]));
  const map = new Map<string, string>();
  const config = repo.config();
  const trailer = `${REDACTED_FROM}: %s by ${o.session.id}\n` + (o.takeover ? `${REDACT_REASON}: ${oneLine(o.takeover.reason)}\n` : '');
  for (const oid of all.filter((c) => local.has(c))) {
    const findings = byOid.get(oid) ?? [];
    const [raw] = repo.readObjects([oid]);
    const c = parseCommit(raw!.content);
    const parents = c.parents.map((p) => map.get(p) ?? p);
    if (!findings.length && parents.every((p, i) => p === c.parents[i])) continue;
    const tree = redactedTree(repo, c.tree, findings);
    const redactedMessage = redactText(c.message, findings.filter((f) => f.file === 'message'));
    const message = redactedMessage.replace(/\n*$/, '\n') + trailer.replace('%s', oid);
    // same headers (author, committer, dates); the old signature cannot survive a rewrite: signed anew when handoff.sign is true
    const to = commitRewrite(repo, c.headers, tree, parents, message, config);
    map.set(oid, to);
    result.rewritten.push({ from: oid, to, findings: findings.length });
    result.redacted += findings.length;
  }
  const newTip = map.get(tip.oid)!;
  const r = moveRef(repo, ref, newTip, tip.oid, `handoff redact ${o.topic}`, { what: `the redaction of ${ref}`, replaces: true });
  if (!r.ok) throw new HandoffError('concurrent', 'concurrent-update', `${ref} moved while it was being redacted; nothing was changed. Run redact again.`, { ref });
  told?.('redacted', branch, o.topic);
  appendAudit(repo.commonDir, {
    source: 'redact',
    ref,
    session: o.session.id,
    takeover: o.takeover ? { reason: o.takeover.reason, from: tip.session } : null,
    old: tip.oid,
    new: newTip,
    rewritten: result.rewritten,
    rules: [...new Set(found.flatMap((v) => v.findings.map((f) => f.rule)))],
  });
  return { ...result, oid: newTip };
}

/** `doctor`: the handoff versions that carry a secret let through with --allow-secret (one git log). */
export function doctorSecrets(repo: Storage): DoctorItem[] {
  const hits = repo
    .commitsVia(['--glob=refs/handoffs/*'])
    .map((c) => [c.oid, c.ref, secretTrailersIn(c.trailers).allowed.join(',')])
    .filter(([oid, , rules]) => oid && rules);
  if (!hits.length) return [{ component: 'secrets', status: 'ok', detail: 'no handoff version carries an allowed secret finding' }];
  return hits.map(([oid, ref, rules]) => ({ component: 'secrets', status: 'info', detail: `${ref} version ${oid.slice(0, 12)} carries findings allowed with --allow-secret: ${rules}` }));
}
