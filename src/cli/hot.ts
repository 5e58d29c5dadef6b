// The common, well-formed command lines of write, show, list, log, claim and status, read without yargs (loading and building
// yargs for 24 commands is most of what the CLI's own start costs). Read from the same table yargs's builders are
// made from (spec.ts), and only where the reading is certain to be yargs's own: anything else (help, --version,
// an unknown or malformed option, a value that starts with "-", a value after `=` in quotes, an option given
// twice, a missing or extra positional, a number as a topic, conflicting options) gets null, and yargs reads it
// as ever, with its messages and exit codes. test/cli/hot.test.ts compares the two on many command lines.
import type { CommandModule } from 'yargs';
import { commandOf } from './argv';
import type { GlobalArgs } from './context';
import { CLAIM_SPEC, GLOBAL_OPTIONS, LIST_SPEC, LOG_SPEC, SHOW_SPEC, STATUS_SPEC, WRITE_SPEC, type CommandSpec, type OptionSpec, type Options } from './spec';

/** Each hot command's table (spec.ts) and the command module yargs runs for it (the same module: parser.ts lists it), loaded at first use. */
const HOT: Record<string, [CommandSpec, () => CommandModule<GlobalArgs, any>]> = {
  write: [WRITE_SPEC, () => (require('./commands/write') as typeof import('./commands/write')).writeCommand],
  show: [SHOW_SPEC, () => (require('./commands/show') as typeof import('./commands/show')).showCommand],
  list: [LIST_SPEC, () => (require('./commands/list') as typeof import('./commands/list')).listCommand],
  log: [LOG_SPEC, () => (require('./commands/log') as typeof import('./commands/log')).logCommand],
  claim: [CLAIM_SPEC, () => (require('./commands/claim') as typeof import('./commands/claim')).claimCommand],
  status: [STATUS_SPEC, () => (require('./commands/status') as typeof import('./commands/status')).statusCommand],
};
export const HOT_NAMES = Object.keys(HOT);
export const hotCommand = (name: string): CommandModule<GlobalArgs, any> => HOT[name][1]();

/** yargs-parser's test for a positional it would turn into a number. */
const looksLikeNumber = (x: string) => /^0x[0-9a-f]+$/i.test(x) || (!/^0[^.]/.test(x) && /^[-]?(?:\d+(?:\.\d*)?|\.\d+)(e[-+]?\d+)?$/.test(x));
const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The option a name on the command line means (`-m`, `--message`, `--branch`), with its key. */
const lookup = (options: Options, name: string, short: boolean) =>
  options.find(([key, o]) => [key, o.alias].some((n) => n === name && (name.length === 1) === short)) ?? null;

/**
 * argv (after argv.ts's precheck and the pager switches) read as yargs reads it, or null: let yargs read it. `args` is
 * what yargs would give the handler: `_`, `$0`, each option under its key, its alias and their camelCase forms.
 */
export function hotParse(argv: readonly string[]): { name: string; args: Record<string, unknown> } | null {
  const c = commandOf(argv as string[]);
  const spec = c ? HOT[c.name]?.[0] : undefined;
  if (!c || !spec) return null;
  const options = [...GLOBAL_OPTIONS, ...spec.options];
  const args: Record<string, unknown> = { _: [c.name] };
  const given = new Set<string>();
  const positionals: string[] = [];
  const set = (key: string, o: OptionSpec, value: unknown) => {
    for (const k of [key, o.alias]) if (k !== undefined) args[k] = args[camel(k)] = value;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (i === c.index) continue;
    if (!a.startsWith('-')) {
      positionals.push(a);
      continue;
    }
    const long = a.startsWith('--');
    if (!long && a.length !== 2) return null; // `-`, a group of short options, `-mtext`
    const eq = long ? a.indexOf('=') : -1;
    const name = long ? a.slice(2, eq < 0 ? undefined : eq) : a[1];
    const inline = eq < 0 ? undefined : a.slice(eq + 1);
    // before the command name, only the options every command takes
    const known = i < c.index ? GLOBAL_OPTIONS : options;
    let found = lookup(known, name, !long);
    if (!found && long && inline === undefined && name.startsWith('no-')) {
      // --no-receipt: a boolean set to false
      found = lookup(known, name.slice(3), false);
      if (!found || found[1].type !== 'boolean' || given.has(found[0])) return null;
      given.add(found[0]);
      set(found[0], found[1], false);
      continue;
    }
    if (!found) return null;
    const [key, o] = found;
    // an option given twice: yargs makes a list of a plain one (-C is a list of directories: kept as yargs gives it)
    if (given.has(key) && !o.array && key !== 'C') return null;
    given.add(key);
    if (o.type === 'boolean') {
      // `--raw=false`, `--raw true`: yargs reads a value there
      if (inline !== undefined || /^(true|false)$/.test(argv[i + 1] ?? '')) return null;
      set(key, o, true);
      continue;
    }
    let value: string;
    if (inline !== undefined) {
      // yargs takes quotes off a value after `=`
      if (/^["']/.test(inline)) return null;
      value = inline;
    } else {
      const next = argv[i + 1];
      // a value that starts with "-" is read in ways that depend on the option; only `-F -` (stdin) is read here
      if (next === undefined || i + 1 === c.index || (next.startsWith('-') && !(next === '-' && !long && !o.array && !o.requiresArg))) return null;
      value = next;
      i++;
    }
    if (o.array) {
      // yargs goes on taking the words after a list option's value as more values
      const after = argv[i + 1];
      if (after !== undefined && !after.startsWith('-')) return null;
      set(key, o, [...((args[key] as string[] | undefined) ?? []), value]);
    } else set(key, o, given.has(key) && args[key] !== undefined ? ([] as string[]).concat(args[key] as string, value) : value);
  }
  for (const [a, b] of spec.conflicts ?? []) if (given.has(a) && given.has(b)) return null;
  const p = spec.positional;
  if (positionals.length > (p ? (p.array ? Infinity : 1) : 0) || (p?.required && positionals.length === 0)) return null;
  if (positionals.some(looksLikeNumber)) return null;
  if (p && positionals.length > 0) args[p.name] = p.array ? positionals : positionals[0];
  for (const [key, o] of spec.options) if (o.default !== undefined && !given.has(key)) set(key, o, o.default);
  args.$0 = 'git handoff';
  return { name: c.name, args };
}
