// `git handoff write <topic>`: a new version, compare-and-swap on the ref.
import type { Argv, CommandModule } from 'yargs';
import { openRepo } from '../../git/repo';
import { requireSession } from '../../handoff/session';
import { validateBody } from '../../handoff/document';
import { assertTopic } from '../../handoff/names';
import { writeHandoff } from '../../handoff/store';
import { missingSections, stripTemplate, templateText } from '../../handoff/template';
import { HandoffError } from '../../errors';
import type { Repo } from '../../git/repo';
import { readBodyArg, type GlobalArgs } from '../context';
import { editText, interactive } from '../editor';
import { printJson } from '../output';

interface Args extends GlobalArgs {
  topic: string;
  m?: string[];
  F?: string;
  branch?: string;
  session?: string;
  takeOver?: boolean;
  reason?: string;
  template?: boolean;
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
  const body = stripTemplate(editText(repo, templateText()));
  if (!body.trim()) throw new HandoffError('usage', 'body-empty', 'the template was left empty; nothing was written');
  return { body: Buffer.from(body, 'utf8'), warnings: [] };
}

export const writeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'write <topic>',
  describe: 'write a new version of a handoff (compare-and-swap on its ref)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('topic', { type: 'string', demandOption: true, describe: 'two or more words joined by "-", e.g. auth-refactor' })
      .option('m', { alias: 'message', type: 'string', array: true, describe: 'body paragraph (repeatable)' })
      .option('F', { alias: 'file', type: 'string', describe: 'read the body from a file, or - for stdin' })
      .option('branch', { type: 'string', describe: 'the branch (default: the checked-out one)' })
      .option('session', { type: 'string', describe: 'this session id (default: from the environment)' })
      .option('take-over', { type: 'boolean', describe: "take over another session's handoff (needs --reason)" })
      .option('reason', { type: 'string', describe: 'why you take it over (kept in the history)' })
      .option('template', {
        type: 'boolean',
        describe:
          'start from `git handoff template`: on a terminal with no -m/-F, edit it in your git editor (unfilled sections are ' +
          'dropped); with -m/-F, drop the template\'s unfilled hints and sections and warn about the sections the body lacks; ' +
          'with neither and no terminal, exit 2',
      })
      .example('$0 write auth-refactor -m "Goal: …" -m "Next: …"', '')
      .example('$0 write auth-refactor -F notes.md --take-over --reason "owner session ended"', '') as unknown as Argv<Args>,
  handler: (a) => {
    const repo = openRepo();
    const session = requireSession(a.session);
    assertTopic(a.topic);
    const t = a.template ? templateBody(repo, a) : { body: readBodyArg(a.m, a.F), warnings: [] };
    const body = t.body;
    const r = writeHandoff(repo, {
      topic: a.topic,
      body,
      branch: a.branch,
      session,
      takeover: a.takeOver ? { reason: a.reason ?? '' } : null,
    });
    r.warnings.push(...t.warnings);
    if (a.json) return printJson(r);
    for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
    if (!a.quiet) process.stdout.write(`${r.ref} ${r.oid.slice(0, 7)}${r.created ? ' (created)' : r.takeover ? ' (taken over)' : ''}\n`);
  },
};
