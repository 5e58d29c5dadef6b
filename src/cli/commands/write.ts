// `git handoff write <topic>`: a new version, compare-and-swap on the ref.
import { openRepo, type Repo } from '../../git/repo';
import { assertAddressee, assertRefTarget, assertSlug } from '../../handoff/store/address';
import { validateBody } from '../../handoff/store/document';
import { CLIENT_NAMES } from '../../clients/names';
import { writeScanned } from '../../handoff/secrets/secrets-write';
import { missingSections, stripTemplate, templateText } from '../../handoff/store/template';
import { HandoffError } from '../../errors';
import { printWritten, readBodyArg, takeoverArg, type GlobalArgs, command, writerOf } from '../context';
import { isBranchName, knownBranchNames } from '../../git/refs';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, assertTopic, encodeBranch } from '../../handoff/store/names';
import { resolveBranch } from '../../handoff/store/store';
import { suggest } from '../argv';
import { editText, interactive } from '../editor';
import { WRITE_SPEC, withSpec, type SpecArgs } from '../spec';

/** What write's table (spec.ts) gives its handler. */
type Args = GlobalArgs & SpecArgs<typeof WRITE_SPEC>;

/** --to / --to-none: undefined keeps the previous version's addressees. */
function addresseesOf(a: Args): string[] | undefined {
  if (a.toNone && a.to?.length) throw new HandoffError('usage', 'to-twice', 'give --to or --to-none, not both');
  if (a.toNone) return [];
  return a.to?.length ? [...new Set(a.to.map((t) => assertAddressee(String(t))))] : undefined;
}

/**
 * Checks `--branch` for a write: a name git allows for a branch, and one this clone knows (here or on a remote), else a
 * typo ("did you mean main?") refused unless --new-branch says the branch is still to come. Returns the warning to print
 * when it names a branch nobody has yet (null: none).
 */
function checkWriteBranch(repo: Repo, flag: string | undefined, newBranch: boolean | undefined): string | null {
  if (flag === undefined) {
    if (newBranch) throw new HandoffError('usage', 'new-branch-without-branch', '--new-branch goes with --branch <name> (the branch still to be created)');
    return null;
  }
  const branch = resolveBranch(repo, flag);
  if (!isBranchName(repo, branch)) {
    throw new HandoffError(
      'usage',
      'invalid-branch',
      `--branch ${JSON.stringify(flag)}: git does not allow this as a branch name (no spaces, "..", "~", "^", ":", "?", "*", "[", "\\\\" or "@{"; ` +
        `no part starting with "." or ending in ".lock"; no "/" at either end or twice in a row; see \`git check-ref-format --help\`); nothing was written`,
      { branch },
    );
  }
  const names = knownBranchNames(repo);
  if (names.has(branch)) return null;
  // --new-branch, or handoffs already kept for it (a branch deleted or not fetched yet): it is meant
  const enc = encodeBranch(branch);
  if (newBranch || repo.listRefs([`${HANDOFF_PREFIX}${enc}/`, `${ARCHIVE_PREFIX}${enc}/`]).length) return null;
  const near = suggest(branch, [...names]);
  if (near) {
    throw new HandoffError(
      'usage',
      'unknown-branch',
      `no branch ${branch} here or on a remote; did you mean ${near}? (--branch ${near}; for a branch you will create, add --new-branch); nothing was written`,
      { branch, suggestion: near },
    );
  }
  return `no branch ${branch} here or on a remote yet: no session is shown this handoff until one checks it out (--new-branch says that is meant)`;
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
    const r = await writeScanned(
      repo,
      { topic: a.topic, body: t.body, branch: a.branch, session, takeover: takeoverArg(a, 'write'), to, tags, refs },
      { redact: a.redact, allow: a.allowSecret },
    );
    r.warnings.push(...t.warnings, ...(branchWarning ? [branchWarning] : []));
    printWritten(a.json, r);
  },
});
