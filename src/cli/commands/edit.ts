// `git handoff edit <topic>`: the newest version's body in your git editor; what you save is a new version (as write).
import { HandoffError } from '../../errors';
import { openRepo } from '../../git/repo';
import { assertTopic } from '../../handoff/store/names';
import { writeScanned } from '../../handoff/secrets/secrets-write';
import { quote } from 'shell-quote';
import { assertTakeover, readHandoff, refusedOwned, resolveBranch } from '../../handoff/store/store';
import { checkTakeover, fromLiveRetry } from '../../handoff/store/takeover';
import { printWritten, takeoverArg, command, writerOf } from '../context';
import { canEdit, editFile, editText, keepEdited } from '../editor';
import { WRITER, withOptions, withTopic } from '../spec';

export const editCommand = command({
  command: 'edit <topic>',
  describe: "edit a handoff's newest body in your git editor; saved, it is a new version (compare-and-swap, as write)",
  builder: (y) => withTopic(withOptions(y, WRITER))
      .option('redact', { type: 'boolean', describe: 'write it with each secret found replaced by [REDACTED:<rule>] (default: a secret refuses the write)' })
      .example('$0 edit auth-refactor', 'GIT_EDITOR, core.editor, VISUAL or EDITOR opens the body; save and quit to write it')
      .example('$0 edit auth-refactor --person', 'as the person in git config'),
  handler: async (a) => {
    const repo = openRepo();
    const session = writerOf(repo, a);
    assertTopic(a.topic);
    const branch = resolveBranch(repo, a.branch);
    const takeover = takeoverArg(a, 'edit');
    // the handoff as a command names it: with --branch when one was given
    const target = a.branch !== undefined ? `${a.topic} --branch ${quote([branch])}` : a.topic;
    const v = readHandoff(repo, branch, a.topic);
    if (v.ref.startsWith('refs/handoff-archive/')) {
      throw new HandoffError('usage', 'edit-archived', `${a.topic} on ${branch} is archived; bring it back first: git handoff restore ${a.topic}`);
    }
    // another session's handoff is refused before the editor opens, so nothing is typed in vain
    assertTakeover(takeover);
    if (!takeover && v.session !== null && v.session !== session.id) {
      throw refusedOwned(repo, { oid: v.oid, session: v.session, time: Date.parse(v.updatedAt) / 1000 }, session.id, v.ref, a.topic, target, { command: 'edit', target });
    }
    // a live owner is refused before the editor opens too (the write checks again)
    if (takeover && v.session !== session.id) checkTakeover(repo, v.ref, v.session, session.id, takeover, fromLiveRetry('edit', target));
    if (!canEdit(repo)) {
      throw new HandoffError(
        'usage',
        'edit-needs-editor',
        `edit opens your editor, and there is no terminal here and no editor set (GIT_EDITOR, core.editor, VISUAL, EDITOR). Edit a copy instead:\n` +
          `  git handoff show ${a.topic} --raw > notes.md   # edit it\n  git handoff write ${a.topic} -F notes.md`,
      );
    }
    const body = editText(repo, v.body, `git handoff write ${target} -F`);
    if (body === v.body) return void process.stdout.write(`no change: ${a.topic} stays at ${v.oid.slice(0, 7)}\n`);
    if (!body.trim()) {
      throw new HandoffError('usage', 'body-empty', `the body was left empty, so nothing was written (${a.topic} stays at ${v.oid.slice(0, 7)}); to finish with it: git handoff archive ${a.topic}`);
    }
    const r = await writeScanned(repo, { topic: a.topic, body: Buffer.from(body, 'utf8'), branch: a.branch, session, takeover }, { redact: a.redact }).catch((e: unknown) => {
      // refused after the editor closed (it changed hands meanwhile, a secret, a race): what was typed is kept
      if (!(e instanceof HandoffError)) throw e;
      throw new HandoffError(e.kind, e.code, `${e.message}\n${keepEdited(repo, body, `git handoff write ${target} -F`)}`, { ...e.data, kept: editFile(repo) });
    });
    printWritten(a.json, r);
  },
});
