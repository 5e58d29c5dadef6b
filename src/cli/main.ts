// The full CLI: yargs parses, each command module's handler calls one domain function, errors map to exit codes.
import type { CommandModule } from 'yargs';
import type yargsType from 'yargs';
// yargs's CommonJS build wraps help text at word boundaries (its ESM build cuts words), so require it.
const yargs: typeof yargsType = require('yargs/yargs');
const { hideBin }: typeof import('yargs/helpers') = require('yargs/helpers');
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { commandOf, helpAlias, helpOf, precheck, suggest } from './argv';
import { archiveCommand, restoreCommand } from './commands/archive';
import { bootCommand } from './commands/boot';
import { completionCommand, repositoryCompletions } from './commands/completion';
import { diffCommand } from './commands/diff';
import { dropCommand } from './commands/drop';
import { editCommand } from './commands/edit';
import { importCommand } from './commands/import';
import { doctorCommand, installCommand, uninstallCommand } from './commands/install';
import { listCommand } from './commands/list';
import { logCommand } from './commands/log';
import { releaseCommand, sessionsCommand } from './commands/sessions';
import { showCommand } from './commands/show';
import { fetchCommand, pushCommand, syncCommand } from './commands/sync';
import { recoverCommand } from './commands/recover';
import { redactCommand } from './commands/redact';
import { guardCommand } from './commands/guard';
import { templateCommand } from './commands/template';
import { writeCommand } from './commands/write';
import type { GlobalArgs } from './context';
import { guardTerminalStreams, reportError } from './output';
import { plainStdio } from './stdio';
import { withSelectingFlags } from './retry-hint';
import { endPager, PAGED_COMMANDS, pagerCommand, pagerSwitches, startPager } from './pager';
import { noticeLosses } from './record-notice';
import { withTopicHint } from './topic-hints';
import { setFormatGate } from '../git/repo';
import { assertKnownFormat } from '../handoff/store/format';

// the guard and the git hooks answer for git and the agents: a newer store must not turn them into refusals of everything
const UNGATED = new Set(['guard', 'githook']);

export const commands: CommandModule<GlobalArgs, any>[] = [
  writeCommand,
  editCommand,
  showCommand,
  listCommand,
  logCommand,
  diffCommand,
  archiveCommand,
  restoreCommand,
  dropCommand,
  bootCommand,
  templateCommand,
  importCommand,
  installCommand,
  uninstallCommand,
  doctorCommand,
  sessionsCommand,
  releaseCommand,
  fetchCommand,
  pushCommand,
  syncCommand,
  redactCommand,
  recoverCommand,
  completionCommand,
  guardCommand,
];

function changeDirectory(paths: string[] | undefined): void {
  for (const p of paths ?? []) {
    try {
      process.chdir(p);
    } catch (e) {
      throw new HandoffError('environment', 'bad-directory', `cannot change to ${p}: ${(e as Error).message}`);
    }
  }
}

export function buildParser(argv: string[], o: { noPager?: boolean } = {}) {
  let y = yargs(argv)
    .scriptName('git handoff')
    .usage('$0 <command> [options]\n\nHandoff notes between AI coding sessions, kept as git refs that no session can silently overwrite.\n' +
        'show, log and diff page long output on a terminal as git does (GIT_PAGER, core.pager, PAGER); --no-pager or -P turns it off.\n' +
        '`git handoff help <command>` (or <command> -h) shows a command\'s options and examples; `git handoff --help` the manual.')
    .option('json', { type: 'boolean', global: true, describe: 'print data as JSON' })
    .option('C', { type: 'string', global: true, requiresArg: true, describe: 'run as if started in <path> (repeatable, like git -C)' })
    .option('q', { alias: 'quiet', type: 'boolean', global: true, describe: 'print nothing but errors' })
    .middleware((a) => changeDirectory(a.C === undefined ? undefined : ([] as string[]).concat(a.C as string | string[])), true)
    // after -C, before the command (and its pager): the store's format is checked wherever a command opens the
    // repository (SPEC 2 "Format version"; not the guard's and hooks' entries), then the loss record (issue 23)
    .middleware((a) => {
      if (!UNGATED.has(String(a._[0] ?? ''))) setFormatGate(assertKnownFormat);
      noticeLosses(String(a._[0] ?? ''));
    })
    .middleware((a) => {
      const p = !o.noPager && !a.json && PAGED_COMMANDS.has(String(a._[0])) ? pagerCommand() : null;
      if (p) startPager(p);
    });
  for (const c of commands) y = y.command(withWholeExamples(c));
  return y
    .completion('__complete', false, (current: string, a: any, filter: any, done: (c: string[]) => void) => {
      const words = argv.slice(argv.indexOf('--get-yargs-completions') + 2);
      // yargs offers one-letter options as `--C`, `--q`, `--h`: they are `-C`, `-q`, `-h`; --version belongs to no command
      filter((_err: unknown, defaults: string[] | undefined) =>
        done([...(defaults ?? []).map((d) => (/^--[A-Za-z]$/.test(d) ? d.slice(1) : d)).filter((d) => !(d === '--version' && words.some((w) => !w.startsWith('-')))), ...repositoryCompletions(current, a, words)]),
      );
    })
    .demandCommand(1, 'name a command; `git handoff -h` lists them')
    .strict()
    .help('h', 'show help')
    .alias('h', 'help')
    .version('version', 'print the version of git-handoff', packageVersion())
    .wrap(helpWidth())
    .fail((msg, err) => {
      if (err) throw err;
      const cmd = commandOf(argv)?.name;
      const mod = commands.find((c) => nameOf(c) === cmd);
      throw new HandoffError('usage', 'usage', `${withSuggestion(msg, mod)}\n(see \`${helpOf(mod ? cmd : null)}\`)`);
    });
}

const nameOf = (c: CommandModule<GlobalArgs, any>) => String(c.command).split(' ')[0];

/** Help as wide as the terminal (COLUMNS, else the tty's width; 100 into a pipe), never narrower than 60. */
const helpWidth = () => Math.max(60, Number(process.env.COLUMNS) || process.stdout.columns || 100);

/**
 * Examples whose command is never broken across lines, so each can be copied whole: yargs sets a described example
 * in two columns and wraps the command column; here the description goes on its own `#` line above the command.
 */
function withWholeExamples(c: CommandModule<GlobalArgs, any>): CommandModule<GlobalArgs, any> {
  if (typeof c.builder !== 'function') return c;
  const builder = c.builder;
  return {
    ...c,
    builder: (y: any) => {
      const example = y.example.bind(y);
      y.example = (cmd: string, desc?: string) => {
        if (desc) example(`# ${desc}`, '');
        return example(cmd, '');
      };
      return builder(y) as any;
    },
  };
}

/** The version in package.json, next to dist/ (or the source tree in tests). */
function packageVersion(): string {
  for (const p of [path.join(__dirname, '..', 'package.json'), path.join(__dirname, '..', '..', 'package.json')]) {
    try {
      const pkg = JSON.parse(readFileSync(p, 'utf8'));
      if (pkg.name === 'git-handoff') return String(pkg.version);
    } catch {
      // not here: the next place
    }
  }
  return 'unknown';
}

/** yargs's "Unknown argument: sesion" with the option it was probably meant to be. */
function withSuggestion(msg: string, mod: CommandModule<GlobalArgs, any> | undefined): string {
  const m = /^Unknown arguments?: (.*)$/.exec(msg);
  if (!m) return msg;
  // the command's own options, from its builder run on an empty parser (only on this error path)
  const y = yargs([]).option('json', {}).option('quiet', {});
  if (typeof mod?.builder === 'function') mod.builder(y as never);
  const known = Object.keys((y as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key).filter((k) => k.length > 1 && k !== '$0');
  const hints = m[1].split(', ').map((u) => {
    const s = suggest(u.replace(/^-+/, ''), known);
    return s ? `--${u.replace(/^-+/, '')}: did you mean --${s}?` : null;
  });
  return [msg, ...hints.filter(Boolean)].join('\n');
}

/**
 * yargs renders the whole help text after every command, in case a failure wants to print it later; our
 * failures never print help (see .fail above), so that rendering (several ms of every command) is skipped.
 */
function skipHelpCache(y: ReturnType<typeof buildParser>): void {
  const usage = (y as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

/** A reader that closed the pipe early (`git handoff list | head`) has all it wanted: stop quietly. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}

export async function main(argv: string[] = hideBin(process.argv)): Promise<void> {
  plainStdio();
  quietOnClosedPipe();
  guardTerminalStreams();
  if (argv.length === 0) {
    // like `git` alone: the usage, on stderr, and a usage exit code
    buildParser(['--help']).showHelp((text: string) => process.stderr.write(`${text}\n`));
    process.exitCode = 2;
    return;
  }
  const json = argv.includes('--json');
  const switches = pagerSwitches(helpAlias(argv));
  try {
    const parser = buildParser(precheck(switches.argv, [...commands.map(nameOf), 'githook']), { noPager: switches.noPager });
    skipHelpCache(parser);
    // parseAsync: some handlers are async (the secret scan of write and import).
    await parser.parseAsync();
  } catch (e) {
    process.exitCode = reportError(withTopicHint(withSelectingFlags(e, argv), switches.argv, commandOf(switches.argv)?.name), json);
  }
  await endPager();
}

void main();
