// One table of the options of the commands every session runs most (write, show, list, log, claim) and of the global
// options: yargs's builders are made from it (withSpec), and so is the small parser that starts these commands
// without yargs (hot.ts). A rule is written once here, so the two cannot drift.
import type { Argv } from 'yargs';

/** An option as yargs's `.option(key, …)` takes it, limited to what hot.ts reads exactly as yargs does. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** the other name (`m` ↔ `message`); a name of one letter is written `-x`, a longer one `--name` */
  alias?: string;
  /** repeatable, each value kept (`-m a -m b`); a plain option given twice is not this */
  array?: boolean;
  default?: boolean;
  /** a value must follow (yargs reads it as exactly one argument) */
  requiresArg?: boolean;
  global?: boolean;
  describe: string;
}

interface PositionalSpec {
  name: string;
  required: boolean;
  /** variadic (`<paths..>`): every positional word, as a list */
  array?: boolean;
  describe: string;
}

export type Options = ReadonlyArray<readonly [string, OptionSpec]>;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ValueOf<O> = O extends { type: 'boolean' } ? boolean : O extends { array: true } ? string[] : string;
type AliasOf<O> = O extends { alias: infer A extends string } ? Camel<A> : never;
/** What a table of options gives a handler: each under its key and its alias, camelCase as yargs gives them. */
export type OptionArgs<E extends Options> = { [X in E[number] as Camel<X[0]> | AliasOf<X[1]>]?: ValueOf<X[1]> };
type PositionalArgs<P> = P extends PositionalSpec ? { [K in P['name']]: P extends { required: true } ? ValueOf<P> : ValueOf<P> | undefined } : unknown;
/** What a command's table gives its handler. */
export type SpecArgs<S extends CommandSpec> = OptionArgs<S['options']> & PositionalArgs<S['positional']>;

export interface CommandSpec {
  positional?: PositionalSpec;
  /** in the order the help lists them */
  options: Options;
  /** pairs that cannot be given together */
  conflicts?: ReadonlyArray<readonly [string, string]>;
}

/** Options every command takes (main.ts's parser), in the order the help lists them. */
export const GLOBAL_OPTIONS = [
  ['json', { type: 'boolean', global: true, describe: 'print data as JSON' }],
  ['C', { type: 'string', global: true, requiresArg: true, describe: 'run as if started in <path> (repeatable, like git -C)' }],
  ['q', { alias: 'quiet', type: 'boolean', global: true, describe: 'print nothing but errors (and --json data); the exit code says how it went' }],
  ['color', { type: 'string', global: true, describe: 'colour the output: always, never, or auto (on a terminal, unless NO_COLOR is set or color.ui is false); --no-color is --color=never' }],
] as const satisfies Options;

export const PERSON = ['person', { type: 'boolean', describe: 'act as the person in git config user.name/user.email (owner person:<email>) instead of a session' }] as const;
const ROLE = ['role', { type: 'string', describe: 'the role this reader has, for handoffs addressed to role:<slug> (default: GIT_HANDOFF_ROLE)' }] as const;

/** Options and a positional many commands take, spelled once (the yargs builders of other commands take them too). */
export const BRANCH = ['branch', { type: 'string', describe: 'the branch (default: the checked-out one)' }] as const;
export const ALL = ['all', { type: 'boolean', describe: 'every branch' }] as const;
export const SESSION = ['session', { type: 'string', describe: 'this session id (default: from the environment)' }] as const;
export const TOPIC = 'the handoff: two or more words joined by "-", e.g. auth-refactor';
const TAKE_OVER = ['take-over', { type: 'boolean', describe: "act on another session's handoff, on the record (needs --reason)" }] as const;
const REASON = ['reason', { type: 'string', describe: 'why (kept in the history)' }] as const;
const FROM_LIVE = ['from-live', { type: 'boolean', describe: 'with --take-over: take it over although its owner is live (`git handoff sessions`); it is told at its next tool call' }] as const;

/** Who reads (--person, --role, --session); who writes, and the takeover of another session's handoff on the record. */
export const READER = [PERSON, ROLE, SESSION] as const;
export const TAKEOVER = [TAKE_OVER, REASON, FROM_LIVE] as const;
export const WRITER = [PERSON, SESSION, ...TAKEOVER] as const;

export const WRITE_SPEC = {
  positional: { name: 'topic', required: true, describe: 'two or more words joined by "-", e.g. auth-refactor' },
  options: [
    ['m', { alias: 'message', type: 'string', array: true, describe: 'body paragraph (repeatable)' }],
    ['F', { alias: 'file', type: 'string', describe: 'read the body from a file, or - for stdin' }],
    BRANCH,
    ['new-branch', { type: 'boolean', describe: 'the --branch is one still to be created: write for it although no branch of that name exists here or on a remote' }],
    ...WRITER,
    ['to', { type: 'string', array: true, describe: 'who it is for (repeatable): session:<id>, client:<name>, person:<email>, role:<slug>; kept for later versions' }],
    ['to-none', { type: 'boolean', describe: 'address it to no one in particular again (anyone)' }],
    ['tag', { type: 'string', array: true, describe: 'a tag (repeatable, lowercase-words); kept for later versions until --tag is given again' }],
    ['ref', { type: 'string', array: true, describe: 'a path, commit or URL this version refers to (repeatable; paths and commits are verified by show/boot)' }],
    [
      'template',
      {
        type: 'boolean',
        describe:
          'start from `git handoff template`: on a terminal with no -m/-F, edit it in your git editor (unfilled sections are ' +
          'dropped); with -m/-F, drop the template\'s unfilled hints and sections and warn about the sections the body lacks; ' +
          'with neither and no terminal, exit 2',
      },
    ],
    ['redact', { type: 'boolean', describe: 'write the body with each secret found replaced by [REDACTED:<rule>] (default: a secret refuses the write, exit 2)' }],
    ['allow-secret', { type: 'string', array: true, describe: 'let findings of this scanner rule through, on the record (repeatable; a Handoff-Allowed-Secret trailer and an audit line)' }],
  ],
} as const satisfies CommandSpec;

export const SHOW_SPEC = {
  positional: { name: 'topic', required: false, describe: 'the handoff (default: the only one on the branch)' },
  options: [
    ...READER,
    ['receipt', { type: 'boolean', default: true, describe: 'record that you read it (a `read` receipt; --no-receipt reads without one)' }],
    BRANCH,
    ['at', { type: 'string', describe: 'an earlier version: its oid, or ~N back from the newest' }],
    ['raw', { type: 'boolean', describe: 'print the body only' }],
  ],
} as const satisfies CommandSpec;

export const LIST_SPEC = {
  options: [
    ...READER,
    BRANCH,
    ALL,
    ['mine', { type: 'boolean', describe: "only this session's handoffs" }],
    ['archived', { type: 'boolean', describe: 'archived handoffs instead' }],
    ['to', { type: 'string', describe: 'only handoffs addressed to this addressee (session:<id>, client:<name>, person:<email>, role:<slug>)' }],
    ['for-me', { type: 'boolean', describe: 'only handoffs addressed to you: your session, client, role, or --person' }],
    ['tag', { type: 'string', describe: 'only handoffs with this tag' }],
    ['unread', { type: 'boolean', describe: 'only handoffs for you (or anyone) whose newest version you have not read' }],
  ],
  conflicts: [['all', 'branch']],
} as const satisfies CommandSpec;

export const LOG_SPEC = {
  positional: { name: 'topic', required: true, describe: TOPIC },
  options: [BRANCH, ['p', { alias: 'patch', type: 'boolean', describe: "each version's change to the body, as a diff (as git log -p)" }]],
} as const satisfies CommandSpec;

export const CLAIM_SPEC = {
  positional: { name: 'paths', required: true, array: true, describe: 'files, directories (src/auth/) or globs (src/**/*.ts), relative to here' },
  options: [
    ['ttl', { type: 'string', describe: 'how long the claim lasts unless renewed or released (30m, 2h; default handoff.claimTTL, else 2h)' }],
    ['note', { type: 'string', describe: 'why: shown to every session that meets the claim' }],
    SESSION,
    BRANCH,
    ['take-over', { type: 'boolean', describe: "take over another live session's overlapping claim (needs --reason; on the record)" }],
    ['reason', { type: 'string', describe: 'why you take it over (kept in the claims history)' }],
    ['offline', { type: 'boolean', describe: 'do not publish now (it is published at the next sync)' }],
  ],
} as const satisfies CommandSpec;

export const STATUS_SPEC = {
  options: [
    ...READER,
    ['all', { type: 'boolean', describe: 'every branch, and sessions that are no longer live' }],
    BRANCH,
    ['watch', { type: 'boolean', describe: 'draw it again in place whenever a ref or the local state changes (at most once a second), until Ctrl-C' }],
  ],
  conflicts: [['all', 'branch']],
} as const satisfies CommandSpec;

/** A command's `<topic>` and its --branch. */
export const withTopic = <T>(y: Argv<T>, describe = TOPIC) => y.positional('topic', { type: 'string', demandOption: true, describe }).option(...BRANCH);

/** The options of a table on a yargs parser, in its order. */
export function withOptions<T, E extends Options>(y: Argv<T>, options: E): Argv<T & OptionArgs<E>> {
  for (const [key, o] of options) y = y.option(key, { ...o });
  return y as Argv<T & OptionArgs<E>>;
}

/** A command's builder from its table: its positional, its options and their conflicts. */
export function withSpec<T, S extends CommandSpec>(y: Argv<T>, spec: S): Argv<T & SpecArgs<S>> {
  const p = spec.positional;
  if (p) y = y.positional(p.name, { type: 'string', ...(p.array ? { array: true } : {}), ...(p.required ? { demandOption: true } : {}), describe: p.describe });
  y = withOptions(y, spec.options);
  for (const [a, b] of spec.conflicts ?? []) y = y.conflicts(a, b);
  return y as Argv<T & SpecArgs<S>>;
}
