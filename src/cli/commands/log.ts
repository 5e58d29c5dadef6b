// `git handoff log <topic>`: every version, newest first, with owners and takeovers.
import { openRepo } from '../../git/repo';
import { short } from '../../handoff/state/session';
import { DROPPED_PREFIX } from '../../handoff/store/names';
import { locateHandoff, logHandoff, resolveBranch } from '../../handoff/store/store';
import { describeReadBy, readReceipts } from '../../handoff/store/receipts';
import { command } from '../context';
import { printJson, relativeTime } from '../output';
import { LOG_SPEC, withSpec } from '../spec';
import { bodyPatch, paintPatch } from './diff';
import { describeSignature, droppedLine } from './show';

export const logCommand = command({
  command: 'log <topic>',
  describe: 'every version of a handoff, newest first: oid, owner, time, takeovers (an archived one too)',
  builder: (y) =>
    withSpec(y, LOG_SPEC)
      .example('$0 log auth-refactor', 'who wrote each version, and every takeover with its reason')
      .example('$0 log -p auth-refactor', 'and what each version changed')
      .example('$0 log auth-refactor --json', ''),
  handler: (a) => {
    const repo = openRepo();
    const branch = resolveBranch(repo, a.branch);
    const { ref, archived } = locateHandoff(repo, branch, a.topic);
    const receipts = readReceipts(repo);
    const entries = logHandoff(repo, ref).map((e) => ({ ...e, readBy: receipts.get(e.oid) ?? [], ...(a.patch ? { patch: bodyPatch(repo, null, e.oid) } : {}) }));
    if (a.json) return printJson(entries);
    // a dropped one is brought back by its kept name, as show says
    if (archived) process.stdout.write(`${ref.startsWith(DROPPED_PREFIX) ? droppedLine(ref) : `archived as ${ref.split('/').slice(2).join('/')}; \`git handoff restore ${a.topic}\` brings it back`}\n`);
    const ids = entries.flatMap((e) => [e.session, e.takeoverFrom]);
    const lines = entries.map((e) => {
      let line = `${e.oid.slice(0, 12)}  ${short(e.session, ids)}  ${(e.client ?? '').padEnd(11)}  ${relativeTime(e.time).padEnd(14)}  ${e.subject}`;
      if (e.takeoverFrom) line += `\n              takeover from ${short(e.takeoverFrom, ids)}: ${e.reason ?? ''}`;
      if (e.signature.state !== 'none') line += `\n              signature: ${describeSignature(e.signature)}`;
      if (e.readBy.length) line += `\n              ${describeReadBy(e.readBy, short)}`;
      if (e.parents.length > 1) line += `\n              merge of ${e.parents.map((p) => p.slice(0, 12)).join(' + ')}`;
      if (e.patch?.trim()) line += `\n\n${paintPatch(e.patch.replace(/\n$/, ''))}\n`;
      return line;
    });
    process.stdout.write(lines.join('\n') + '\n');
  },
});
