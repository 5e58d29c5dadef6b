// `git handoff redact <topic>`: the versions only this clone has, rewritten with each secret replaced.
import { openRepo } from '../../git/repo';
import { redactHandoff } from '../../handoff/secrets/redact';
import { requireSession } from '../../handoff/state/session';
import { takeoverArg, command } from '../context';
import { answer } from '../output';
import { SESSION, TAKEOVER, withOptions, withTopic } from '../spec';

export const redactCommand = command({
  command: 'redact <topic>',
  describe: 'rewrite the versions of a handoff that were never pushed, each secret replaced by [REDACTED:<rule>] (one compare-and-swap)',
  builder: (y) => withTopic(withOptions(y, [SESSION, ...TAKEOVER]), 'the handoff to redact')
      .example('$0 redact auth-refactor', '')
      .epilog(
        'Only versions on no remote-tracking ref are rewritten; a pushed version with a secret is refused (exit 6) with the ' +
          'steps to rotate it. Each rewritten version keeps its author, committer, dates, trailers and every other byte, and ' +
          'gains a Handoff-Redacted-From: <original> by <session> trailer.',
      ),
  handler: async (a) => {
    const repo = openRepo();
    const session = requireSession(a.session);
    const r = await redactHandoff(repo, { topic: a.topic, branch: a.branch, session, takeover: takeoverArg(a, 'redact') });
    const redacted = `redacted ${r.redacted} secret${r.redacted === 1 ? '' : 's'} in ${r.rewritten.length} version${r.rewritten.length === 1 ? '' : 's'}`;
    const rotate = 'if a secret was real, rotate it anyway: it was in a session and may be in other logs';
    const done = r.oid ? [`${r.ref} ${r.previous.slice(0, 7)} → ${r.oid.slice(0, 7)}: ${redacted}`, rotate] : null;
    answer(a.json, r, done ?? [`${r.ref}: no secret found in any version; nothing to redact`]);
  },
});
