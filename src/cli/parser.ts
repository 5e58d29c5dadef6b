// The full CLI's parser: yargs with every command, help, completion and the usage errors. Loaded only for the
// command lines hot.ts leaves to it (help, errors, every command but the common forms of the hot ones).
import type { CommandModule } from 'yargs';
import type yargsType from 'yargs';
import { HandoffError } from '../errors';
import { commandOf, helpOf, suggest } from './argv';
import * as archive from './commands/archive';
import * as boot from './commands/boot';
import * as claim from './commands/claim';
import * as completion from './commands/completion';
import * as diff from './commands/diff';
import * as drop from './commands/drop';
import * as edit from './commands/edit';
import * as gc from './commands/gc';
import * as guard from './commands/guard';
import * as importCmd from './commands/import';
import * as install from './commands/install';
import * as list from './commands/list';
import * as log from './commands/log';
import * as mcp from './commands/mcp';
import * as recover from './commands/recover';
import * as redact from './commands/redact';
import * as renameBranch from './commands/rename-branch';
import * as sessions from './commands/sessions';
import * as show from './commands/show';
import * as status from './commands/status';
import * as sync from './commands/sync';
import * as template from './commands/template';
import * as web from './commands/web';
import * as write from './commands/write';
import type { GlobalArgs } from './context';
import { GLOBAL_OPTIONS, withOptions } from './spec';
import { packageVersion } from './version';
import { beforeCommand, changeDirectory } from './start';

/** Every command: what the command modules export that yargs can run (-h lists them in COMMAND_GROUPS' order). */
export const commands: CommandModule<GlobalArgs, any>[] = [
  status, web, write, edit, show, list, log, diff, archive, drop, renameBranch, boot, template, importCmd, install, sessions, claim, sync, redact, recover, gc,
  completion, guard, mcp,
].flatMap((m) => Object.values(m as Record<string, unknown>).filter((x): x is CommandModule<GlobalArgs, any> => typeof x === 'object' && x !== null && 'handler' in x));

export const nameOf = (c: CommandModule<GlobalArgs, any>) => String(c.command).split(' ')[0];

/**
 * The parser of `argv`. `commands` and `start: false` are for tests: other handlers, and none of the steps before
 * a handler (-C, the format gate and the loss record's check, the pager).
 */
export function buildParser(argv: string[], o: { noPager?: boolean; commands?: CommandModule<GlobalArgs, any>[]; start?: boolean } = {}) {
  // yargs's CommonJS build wraps help text at word boundaries (its ESM build cuts words), so require it; at first
  // use, not at the bundle's start (hot.ts starts the common commands without it)
  let y = withOptions(
    (require('yargs/yargs') as typeof yargsType)(argv)
      .scriptName('git handoff')
      .usage('$0 <command> [options]\n\nHandoff notes between AI coding sessions, kept as git refs that no session can silently overwrite.\n' +
          'show, log and diff page long output on a terminal as git does (GIT_PAGER, core.pager, PAGER); --no-pager or -P turns it off.\n' +
          '`git handoff help <command>` (or <command> -h) shows a command\'s options and examples; `git handoff --help` the manual ' +
          '(git opens it with man; where man is not installed, git cannot: use -h).'),
    GLOBAL_OPTIONS,
  );
  if (o.start !== false) {
    y = y
      .middleware((a) => changeDirectory(a.C as string | string[] | undefined), true)
      .middleware((a) => beforeCommand(String(a._[0] ?? ''), a, !!o.noPager));
  }
  for (const c of o.commands ?? commands) y = y.command(withWholeExamples(c));
  // yargs renders the whole help after every command in case a failure prints it later; ours never do (.fail below)
  const usage = (y as unknown as { getInternalMethods(): { getUsageInstance(): { cacheHelpMessage(): void } } }).getInternalMethods().getUsageInstance();
  usage.cacheHelpMessage = () => {};
  return y
    .completion('__complete', false, (current: string, a: any, filter: any, done: (c: string[]) => void) => {
      const words = argv.slice(argv.indexOf('--get-yargs-completions') + 2);
      // yargs offers one-letter options as `--C`, `--q`, `--h`: they are `-C`, `-q`, `-h`; --version belongs to no command
      filter((_err: unknown, defaults: string[] | undefined) =>
        done([...(defaults ?? []).map((d) => (/^--[A-Za-z]$/.test(d) ? d.slice(1) : d)).filter((d) => !(d === '--version' && words.some((w) => !w.startsWith('-')))), ...completion.repositoryCompletions(current, a, words)]),
      );
    })
    .demandCommand(1, 'name a command; `git handoff -h` lists them')
    .strict()
    .help('h', 'show help')
    .alias('h', 'help')
    .version('version', 'print the version of git-handoff', packageVersion())
    // as wide as the terminal (COLUMNS, else the tty's width; 100 into a pipe), never narrower than 60
    .wrap(Math.max(60, Number(process.env.COLUMNS) || process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      const cmd = commandOf(argv)?.name;
      const mod = commands.find((c) => nameOf(c) === cmd);
      // the options of the command yargs was reading (its builder has run on this parser)
      const known = Object.keys((y as unknown as { getOptions(): { key: object } }).getOptions().key).filter((k) => k.length > 1 && k !== '$0');
      throw new HandoffError('usage', 'usage', `${inWords(msg, mod, argv, known)}\n(see \`${helpOf(mod ? cmd : null)}\`)`);
    });
}

/** The commands in the groups `-h` shows them in, as `git help` and gh do: what a session types every day first, plumbing last. */
const COMMAND_GROUPS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['Every day', ['status', 'web', 'write', 'edit', 'show', 'list', 'log', 'diff', 'boot', 'template', 'archive', 'restore', 'claim', 'claims']],
  ['Between clones', ['fetch', 'push', 'sync']],
  ['Setting up', ['install', 'uninstall', 'doctor', 'import', 'completion']],
  ['Housekeeping and repair', ['sessions', 'release', 'rename-branch', 'drop', 'redact', 'recover', 'gc']],
  ['Plumbing (agent clients run it; not typed by hand)', ['guard', 'mcp']],
];

/** yargs's help with its one list of commands split into COMMAND_GROUPS (a command in none is listed under "Other"). */
function groupedHelp(text: string): string {
  const start = text.indexOf('\nCommands:\n');
  if (start < 0) return text;
  const end = text.indexOf('\n\n', start + 1);
  const lines = text.slice(start + '\nCommands:\n'.length, end < 0 ? undefined : end).split('\n');
  const entries = new Map<string, string[]>();
  let current: string[] = [];
  for (const l of lines) {
    const m = /^ {2}git handoff (\S+)/.exec(l);
    if (m) entries.set(m[1], (current = []));
    current.push(l);
  }
  const groups = COMMAND_GROUPS.map(([title, names]) => [title, names.filter((n) => entries.has(n))] as const);
  const other = [...entries.keys()].filter((n) => !COMMAND_GROUPS.some(([, names]) => names.includes(n)));
  if (other.length) groups.push(['Other', other]);
  const body = groups.filter(([, names]) => names.length).map(([title, names]) => `${title}:\n${names.flatMap((n) => entries.get(n)!).join('\n')}`);
  return text.slice(0, start) + '\n' + body.join('\n\n') + (end < 0 ? '' : text.slice(end));
}

/** The top-level help (`git handoff -h`), its commands in groups. */
export function topHelp(): string {
  let text = '';
  buildParser(['--help'], { start: false }).showHelp((t: string) => {
    text = t;
  });
  return groupedHelp(text);
}

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

const dashed = (k: string) => (k.length === 1 ? `-${k}` : `--${k}`);

/** yargs's usage messages as sentences that say what is wrong and how the command is used; an unknown option with the one of `known` it was probably meant to be. */
function inWords(msg: string, mod: CommandModule<GlobalArgs, any> | undefined, argv: string[], known: string[]): string {
  const usage = mod ? `usage: git handoff ${String(mod.command)} [options]` : 'usage: git handoff <command> [options]';
  const name = mod ? `git handoff ${nameOf(mod)}` : 'git handoff';
  const required = mod ? [...String(mod.command).matchAll(/<([^>]+)>/g)].map((m) => m[1]) : [];
  let m: RegExpExecArray | null;
  if (/^Not enough non-option arguments/.test(msg) || /^Missing required arguments?: /.test(msg)) {
    const missing = (m = /^Missing required arguments?: (.*)$/.exec(msg)) ? m[1].split(', ') : required;
    const what = missing.length ? missing.map((x) => `<${x}>`).join(' and ') : 'an argument';
    return `${name} needs ${what}${missing.includes('topic') ? ' (two or more lowercase words joined by "-", e.g. auth-refactor)' : ''}; ${usage}`;
  }
  if ((m = /^Too many non-option arguments: got (\d+), maximum of (\d+)$/.exec(msg))) {
    return `${name} takes at most ${m[2]} argument${m[2] === '1' ? '' : 's'} besides options, got ${m[1]} (quote a value with spaces); ${usage}`;
  }
  if ((m = /^Unknown arguments?: (.*)$/.exec(msg))) {
    // yargs names an extra word and an unknown option alike; the command line says which it was
    const words = m[1].split(', ');
    const extra = words.filter((w) => argv.includes(w) && !w.startsWith('-'));
    const options = words.filter((w) => !extra.includes(w)).map((w) => dashed(w.replace(/^-+/, '')));
    const bare = words.map((w) => w.replace(/^-+/, ''));
    const hints = bare.filter((w) => suggest(w, known)).map((w) => `--${w}: did you mean --${suggest(w, known)}?`);
    const text = [
      options.length ? `${name} has no option ${options.join(', ')}` : '',
      extra.length ? `${name} takes no argument ${extra.map((w) => `"${w}"`).join(', ')} there (quote a value with spaces)` : '',
    ].filter(Boolean).join('; ') + `; ${usage}`;
    return [text, ...hints].join('\n');
  }
  if ((m = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(msg))) return `${dashed(m[1])} and ${dashed(m[2])} cannot be given together; ${usage}`;
  if ((m = /^Not enough arguments following: (\S+)$/.exec(msg))) return `${dashed(m[1])} needs a value; ${usage}`;
  return msg;
}
