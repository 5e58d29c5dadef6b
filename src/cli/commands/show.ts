// `git handoff show [<topic>]`: one handoff with its verification, or the list when the topic is not given.
import { openRepo } from '../../git/repo';
import { short } from '../../handoff/state/session';
import { DROPPED_PREFIX, trackingOf } from '../../handoff/store/names';
import { listHandoffs, readHandoff, resolveBranch, viewOf, type HandoffView, type Signature } from '../../handoff/store/store';
import { trackingTips } from '../../handoff/store/sync-state';
import { describeVerify } from '../../handoff/store/verify';
import { describeReadBy, readReceipts, recordReceiptsOptional } from '../../handoff/store/receipts';
import { command, readerFor } from '../context';
import { SHOW_SPEC, withSpec } from '../spec';
import { printJson, relativeTime, warn } from '../output';
import { printRows } from './list';
import { resolveStep } from '../../sync/resolve';

/** What show and log say of a dropped handoff: its undo, by the name it is kept under. */
export const droppedLine = (ref: string): string => `dropped: \`git handoff restore ${ref}\` brings it back as it was`;

/** The `show --json` object of SPEC 4 (also each entry of `boot --json`). */
export function showJson(v: HandoffView) {
  const { head: _h, takeoverFrom: _t, reason: _r, receiptsAt: _n, ...rest } = v;
  return { ...rest, takeoverFrom: v.takeoverFrom, reason: v.reason, handoffHead: v.head };
}

/** "good (t@example.com, key SHA256:…)"; the state alone when git named no signer or key. */
export function describeSignature(s: Signature): string {
  const who = [s.signer, s.key && `key ${s.key}`].filter(Boolean).join(', ');
  const hint = s.state === 'unverifiable' ? ' — git cannot check it here (for ssh keys: gpg.ssh.allowedSignersFile)' : '';
  return `${s.state}${who ? ` (${who})` : ''}${hint}`;
}

function headerOf(v: HandoffView): string {
  const lines = [
    `${v.topic} on ${v.branch}  (${v.ref} @ ${v.oid.slice(0, 12)})`,
    `owner ${short(v.session, [v.takeoverFrom])} (${v.client ?? 'unknown'}) · updated ${relativeTime(v.updatedAt)} · ${v.versions} version${v.versions === 1 ? '' : 's'} · ${v.sync}`,
  ];
  if (v.ref.startsWith('refs/handoff-archive/')) lines.push(`archived: \`git handoff restore ${v.topic}\` brings it back`);
  if (v.ref.startsWith(DROPPED_PREFIX)) lines.push(droppedLine(v.ref));
  if (v.takeoverFrom) lines.push(`taken over from ${short(v.takeoverFrom, [v.session])}: ${v.reason ?? ''}`);
  if (v.to.length || v.tags.length) lines.push([v.to.length ? `for ${v.to.join(', ')}` : '', v.tags.length ? `tags ${v.tags.join(', ')}` : ''].filter(Boolean).join(' · '));
  if (v.refs.length) lines.push(`refs: ${v.refs.join(', ')}`);
  if (v.importedFrom) lines.push(`imported from ${v.importedFrom}`);
  lines.push(`signature: ${v.signature.state === 'none' ? 'none (unsigned)' : describeSignature(v.signature)}`);
  lines.push(`verify: ${describeVerify(v.verify)}`);
  return lines.join('\n');
}

export const showCommand = command({
  command: 'show [topic]',
  describe: 'print a handoff, or its newest archived version (without a topic: the only one on the branch, or the list)',
  builder: (y) =>
    withSpec(y, SHOW_SPEC)
      .example('$0 show auth-refactor', 'the newest version, with owner, age and verification')
      .example('$0 show auth-refactor --at ~1 --raw', 'the body of the version before it')
      .example('$0 show --json', "this branch's only handoff as JSON"),
  handler: (a) => {
    const repo = openRepo();
    const branch = resolveBranch(repo, a.branch);
    let topic = a.topic;
    if (!topic) {
      const rows = listHandoffs(repo, { branch });
      if (rows.length !== 1) {
        if (a.json) return printJson(rows);
        if (rows.length === 0) return void process.stdout.write(`no handoffs on branch ${branch}\n`);
        process.stdout.write(`${rows.length} handoffs on branch ${branch}; name one: git handoff show <topic>\n`);
        return printRows(rows);
      }
      topic = rows[0].topic;
    }
    const v = readHandoff(repo, branch, topic, a.at);
    // a receipt for whoever reads it now (a session, or --person), never for one's own version
    const reader = a.receipt === false ? null : readerFor(repo, a);
    const recorded = reader && reader.id !== v.session ? recordReceiptsOptional(repo, [{ oid: v.oid, reader: reader.id, how: 'read' }], v.receiptsAt) : null;
    if (recorded?.warning) warn(recorded.warning);
    const readBy = (recorded ? recorded.receipts : readReceipts(repo, [v.oid], v.receiptsAt)).get(v.oid) ?? [];
    // A diverged handoff has two current versions: show the remote's beside the local one.
    const other = !a.at && v.sync === 'diverged' ? trackingTips(repo).get(v.ref) : undefined;
    const r = other ? { remote: other.remote, ...viewOf(repo, trackingOf(other.remote, v.ref), other.oid, branch, topic) } : undefined;
    if (a.json) {
      const remote = r && { remote: r.remote, ref: r.ref, oid: r.oid, session: r.session, client: r.client, updatedAt: r.updatedAt, versions: r.versions, body: r.body };
      return printJson({ ...showJson(v), readBy, ...(remote ? { remote } : {}) });
    }
    // a terminal (or the pager on it) gets the text through the output layer's one filter (src/cli/output.ts)
    if (a.raw) return void process.stdout.write(v.body);
    const bodyOf = (x: HandoffView) => `${x.body}${x.body.endsWith('\n') ? '' : '\n'}`;
    const header = `${headerOf(v)}\n${describeReadBy(readBy, short)}`;
    if (!r) return void process.stdout.write(`${header}\n\n${bodyOf(v)}`);
    process.stdout.write(
      `${header}\n\n=== local version ${v.oid.slice(0, 12)} (owner ${short(v.session, [r.session])}) ===\n\n${bodyOf(v)}\n` +
        `=== ${r.remote} version ${r.oid.slice(0, 12)} (owner ${short(r.session, [v.session])}, ${relativeTime(r.updatedAt)}) ===\n\n${bodyOf(r)}\n` +
        `resolve: ${resolveStep(repo, v.ref, v.oid, null, r.remote)} (or --keep local, --keep remote)\n`,
    );
  },
});
