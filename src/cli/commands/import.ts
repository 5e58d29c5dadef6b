// `git handoff import <file>…`: file-based handoffs into refs, each written as its owner.
import { openRepo } from '../../git/repo';
import { HANDOVER_TOPIC, planImport, runImport } from '../../handoff/import/import';
import { scanImports } from '../../handoff/secrets/secrets-write';
import { resolveSession, short } from '../../handoff/state/session';
import { shownRef, takeoverArg, command, writerOf } from '../context';
import { WRITER, withOptions } from '../spec';
import { printJson, warn } from '../output';

export const importCommand = command({
  command: 'import <files..>',
  describe: 'turn file-based handoffs (handoff-<branch>-<topic>.md, handover.md, a directory of them) into refs, keeping the owner',
  builder: (y) =>
    withOptions(y, WRITER)
      .positional('files', { type: 'string', array: true, default: undefined, defaultDescription: 'none', describe: 'files, or directories searched for handoff files (one or more)' })
      .option('branch', { type: 'string', describe: 'the branch, when the file name does not say it (default for handover.md: the checked-out one)' })
      .option('topic', { type: 'string', describe: `the topic, when the file name does not say it (default for handover.md: ${HANDOVER_TOPIC}); one file only` })
      .option('redact', { type: 'boolean', describe: 'import each body with the secrets found replaced by [REDACTED:<rule>] (default: a secret refuses the import, exit 2)' })
      .option('allow-secret', { type: 'string', array: true, describe: 'let findings of this scanner rule through, on the record (repeatable)' })
      .example('$0 import memory/', 'every handoff-<branch>-<topic>.md under memory/, owners kept')
      .example('$0 import handover.md --topic auth-refactor', 'owner from --session or the environment')
      .example('$0 import notes/release.md --person', 'a markdown file with YAML frontmatter (topic, to, tags, references; handoff_id checked)')
      .epilog(
        'A handoff-<branch>-<topic>.md file keeps the owner named on its first line, <!-- claude-session: ID -->, and ' +
          'that line is not part of the body. Its <branch> is matched against the local branches (slashes written as ' +
          'dashes); a name that fits none, or several, asks for --branch and --topic. A body already stored as a ' +
          "version of the handoff is not written again, so importing twice is harmless. A markdown file with YAML " +
          'frontmatter (schema_version, from, to, topic, ts_utc; optional tags, references, handoff_id) is written as ' +
          'yours (--session or --person), its to/tags/references as trailers; a handoff_id that does not match exits 6. ' +
          "A new handoff is written as the " +
          "file's owner; over an existing handoff the importing session writes as itself, so someone else's handoff is " +
          'refused (exit 3) as with write, unless you --take-over --reason. Nothing is written when an argument is bad.',
      ),
  handler: async (a) => {
    const repo = openRepo();
    const session = a.person ? writerOf(repo, a) : resolveSession(a.session);
    const plans = planImport(repo, a.files!.map(String), { branch: a.branch, topic: a.topic, session });
    const scan = await scanImports(repo, plans, { redact: a.redact, allow: a.allowSecret });
    const results = runImport(repo, plans, { importer: session, takeover: takeoverArg(a, 'import') });
    scan.audit(results);
    if (scan.redacted && !a.json) warn(`redacted ${scan.redacted} secret${scan.redacted === 1 ? '' : 's'}: each replaced by [REDACTED:<rule>]`);
    const failed = results.find((r) => r.error);
    if (a.json) printJson(results);
    else {
      for (const r of results) {
        if (r.error) {
          process.stderr.write(`git-handoff: ${r.file}: ${r.error.message}\n`);
          continue;
        }
        r.warnings.forEach(warn);
        const what = r.status === 'unchanged' ? `unchanged (already version ${r.oid!.slice(0, 7)})` : `${r.status} ${r.oid!.slice(0, 7)}`;
        process.stdout.write(`${shownRef(r.ref!)} ${what} · owner ${short(r.session)} · from ${r.file}\n`);
      }
    }
    if (failed) process.exitCode = failed.error!.exitCode;
  },
});

