// `git handoff write <topic>`: a new version, compare-and-swap on the ref.
import { openRepo } from '../../git/repo';
import { assertAddressee, assertRefTarget, assertSlug } from '../../handoff/store/address';
import { validateBody } from '../../handoff/store/document';
import { assertTopic } from '../../handoff/store/names';
import { CLIENT_NAMES } from '../../clients/names';
import { writeScanned } from '../../handoff/secrets/secrets-write';
import { missingSections, stripTemplate, templateText } from '../../handoff/store/template';
import { HandoffError } from '../../errors';
import type { Repo } from '../../git/repo';
import { printWritten, readBodyArg, takeoverArg, type GlobalArgs, command } from '../context';
import { checkWriteBranch } from '../branch-arg';
import { editText, interactive } from '../editor';
import { writerOf } from '../identity';
import { WRITE_SPEC, withSpec, type SpecArgs } from '../spec';

/** What write's table (spec.ts) gives its handler. */
type Args = GlobalArgs & SpecArgs<typeof WRITE_SPEC>;

/** --to / --to-none: undefined keeps the previous version's addressees. */
function addresseesOf(a: Args): string[] | undefined {
  if (a.toNone && a.to?.length) throw new HandoffError('usage', 'to-twice', 'give --to or --to-none, not both');
  if (a.toNone) return [];
  return a.to?.length ? [...new Set(a.to.map((t) => assertAddressee(String(t))))] : undefined;
}

/** The body of `write --template`: edited from the template on a terminal, else the given body, checked against it. */
function templateBody(repo: Repo, a: Args): { body: Buffer; warnings: string[] } {
  if (a.F !== undefined || a.m?.length) {
    const body = stripTemplate(validateBody(readBodyArg(a.m, a.F)));
    const missing = missingSections(body);
    return { body: Buffer.from(body, 'utf8'), warnings: missing.length ? [`the body has no ${missing.join(', ')} section${missing.length === 1 ? '' : 's'} (see \`git handoff template\`)`] : [] };
  }
  if (!interactive()) {
    throw new HandoffError(
      'usage',
      'template-needs-terminal',
      'write --template opens your editor, and there is no terminal here. Fill the template yourself:\n' +
        `  git handoff template > notes.md   # edit it\n  git handoff write ${a.topic} -F notes.md`,
    );
  }
  const body = stripTemplate(editText(repo, templateText(), `git handoff write ${a.topic} --template -F`));
  if (!body.trim()) {
    throw new HandoffError(
      'usage',
      'body-empty',
      `the template came back with no section filled, so nothing was written. Fill at least Goal and Next action ` +
        `(lines under a heading; the hint lines are dropped), or write it another way:
  git handoff write ${a.topic} -m "Goal: …" -m "Next action: …"
` +
        `  git handoff template > notes.md   # edit it, then: git handoff write ${a.topic} --template -F notes.md`,
    );
  }
  return { body: Buffer.from(body, 'utf8'), warnings: [] };
}

export const writeCommand = command({
  command: 'write <topic>',
  describe: 'write a new version of a handoff (compare-and-swap on its ref)',
  builder: (y) =>
    withSpec(y, WRITE_SPEC)
      .example('$0 write auth-refactor -m "Goal: …" -m "Next: …"', '')
      .example(`$0 write release-checklist --person --to client:${CLIENT_NAMES[0]} -m "…"`, 'as the person in git config, for the next Claude Code session')
      .example('$0 write auth-refactor -F notes.md --take-over --reason "owner session ended"', ''),
  handler: async (a) => {
    const repo = openRepo();
    const session = writerOf(repo, a);
    assertTopic(a.topic);
    const branchWarning = checkWriteBranch(repo, a.branch, a.newBranch);
    const to = addresseesOf(a);
    const tags = a.tag?.length ? [...new Set(a.tag.map((t) => assertSlug(String(t), '--tag')))] : undefined;
    const refs = a.ref?.map((r) => assertRefTarget(String(r)));
    const t = a.template ? templateBody(repo, a) : { body: readBodyArg(a.m, a.F), warnings: [] };
    const body = t.body;
    const r = await writeScanned(
      repo,
      { topic: a.topic, body, branch: a.branch, session, takeover: takeoverArg(a, 'write'), to, tags, refs },
      { redact: a.redact, allow: a.allowSecret },
    );
    r.warnings.push(...t.warnings, ...(branchWarning ? [branchWarning] : []));
    printWritten(a.json, r);
  },
});
