// Only the person moves the anchors (SPEC 6, "Refused to sessions"); every spelling of git-handoff's programs
// (`git handoff`, `git-handoff`, the guard and its fronts, the bundles run by a runtime, a shell given one) is read here.
import { expands } from '../shell/lex';
import path from 'node:path';
import { neutral } from '../../terminal-text';
import { realpathOr } from '../../read-file';
import { programName, SHELLS, type SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';
import { given, operands } from '../shell/options';
import { gitOptions } from './git-options';
import { handoffCommand, namedSession } from './inject';
import { mayNameHandoffRef, refspec, runsUnreadCode } from './refs';

/** git-handoff's bundles that answer hook events (src/fast-guard.ts and what it loads), run by a runtime. */
const GUARD_BUNDLE = /(^|\/)dist\/(guard|first|fast)\.cjs$/;
const RUNTIME = /^(node|nodejs|bun|deno|tsx|ts-node)(\d[\d.]*)?$/;
/** Programs whose operands are files (judged by the perimeter), never a package's name. */
const FILE_TOOLS = new Set(['git', 'rm', 'mv', 'cp', 'ln', 'install', 'touch', 'cat', 'ls', 'chmod', 'chown', 'rsync', 'tar', 'find']);
/** Programs that run a package's command by its name. */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'npm', 'pnpm', 'yarn', 'bun']);
/** A package manager's or a client's verbs that install, remove, switch off or replace a package, plugin or extension. */
const INSTALLING = /^(i|in|ins|inst|insta|instal|install|isntall|add|un|uninstall|unlink|remove|rm|r|erase|link|ln|update|up|upgrade|udpate|disable|enable|reinstall|ci)$/;
/** Options of `git handoff fetch|sync` whose value is the next word (never the repository). */
const HANDOFF_FETCH_VALUED = ['-C', '--resolve', '--keep', '--branch', '--session', '--reason'];

/** git-handoff's program a command runs, by the name it has (a symlink to one followed), or null. */
function programOf(word: string): string | null {
  // an expansion that names one (`"$(command -v git-handoff-guard)"`): that program
  if (expands(word)) return /git-handoff(-(guard|front)[\w-]*)?/.exec(word)?.[0] ?? null;
  let base = path.basename(word);
  if (!base.startsWith('git-handoff') && word.includes('/') && !/[*?[]/.test(word)) base = path.basename(realpathOr(word));
  return base.startsWith('git-handoff') ? base : null;
}

/** What git-handoff is asked to do: `cli` with its arguments, or `guard` (by hand); null for anything else. */
export function handoffRun(cmd: SimpleCommand, inv: GitInvocation | null): { kind: 'cli' | 'guard'; args: string[] } | null {
  const [p0, ...rest] = cmd.argv;
  if (p0 === undefined) return null;
  const prog = path.basename(p0);
  const script = rest.find((a) => !a.startsWith('-'));
  // `node …/dist/guard.cjs`: the guard's bundle run by hand
  if (RUNTIME.test(prog) && script !== undefined && GUARD_BUNDLE.test(script)) return { kind: 'guard', args: rest.slice(rest.indexOf(script) + 1) };
  if (inv?.sub === 'handoff') return { kind: 'cli', args: inv.args };
  if (inv && /^handoff-(guard|front)/.test(inv.sub)) return { kind: 'guard', args: inv.args };
  // `sh <front>`, `. git-handoff-guard`, `source …/git-handoff-front`: the front run or read in by a shell
  if (SHELLS.has(prog) || prog === '.' || prog === 'source') {
    const named = script === undefined ? null : programOf(script);
    return named === null ? null : runOf(named, rest.slice(rest.indexOf(script!) + 1));
  }
  // a package runner (`npx git-handoff guard`, `npm exec -- git-handoff-guard`, `bunx …`): the program it runs
  if (RUNNERS.has(prog)) {
    const at = rest.findIndex((a) => programOf(a.replace(/@[^/]*$/, '')) !== null);
    if (at >= 0) return runOf(programOf(rest[at].replace(/@[^/]*$/, ''))!, rest.slice(at + 1));
  }
  // a path (or an expansion naming one) that leads to one of git-handoff's programs under another name
  const named = /[/$`]/.test(p0) ? programOf(p0) : null;
  return named === null ? null : runOf(named, rest);
}

/** git-handoff's CLI or one of its guard's programs, run with `args`. */
const runOf = (program: string, args: string[]) => ({ kind: program === 'git-handoff' ? ('cli' as const) : ('guard' as const), args });

/** `node "$(command -v git-handoff)" write …`, `node …/dist/cli.cjs write …`: git-handoff's CLI run by its runtime. */
export function handoffByInterpreter(cmd: SimpleCommand, whole: string) {
  const prog = programName(cmd.argv);
  if (!RUNTIME.test(prog)) return null;
  let i = 1;
  while (i < cmd.argv.length && cmd.argv[i].startsWith('-')) i++;
  if (prog === 'deno' && cmd.argv[i] === 'run') for (i++; i < cmd.argv.length && cmd.argv[i].startsWith('-'); ) i++;
  const script = cmd.argv[i];
  if (script === undefined) return null;
  const named = /handoff/i.test(script) || (expands(script) && /handoff/i.test(whole)) || /(^|\/)dist\/(cli|fast)\.cjs$/.test(script);
  return named ? { sub: 'handoff', args: cmd.argv.slice(i + 1), cwd: cmd.cwd, gitDir: null, config: [] } : null;
}

/** Why a command installs, removes, switches off or replaces git-handoff's package, plugin or extension, or null. */
export function reinstallProblem(cmd: SimpleCommand, shown: string): string | null {
  const prog = programName(cmd.argv);
  // git and the file tools name files, which the perimeter judges where they lead
  if (FILE_TOOLS.has(prog)) return null;
  const args = cmd.argv.slice(1);
  const names = args.some((a) => /^git-handoff(@[^/]*)?$/.test(a) || /^git-handoff-\d[\w.-]*\.tgz$/.test(a));
  if (!names || !args.some((a) => INSTALLING.test(a))) return null;
  return (
    `\`${neutral(shown)}\` installs, removes, switches off or replaces git-handoff (its package, plugin or extension), which every session's ` +
    `calls are judged by: only the person does that, from their own terminal. Tell them what you need and why.`
  );
}

/** Code that starts programs, in the interpreters' spellings. */
const RUNS_PROGRAMS = /subprocess|\bsystem\b|\bexec|spawn|popen|child_process|IO\.popen|Open3|%x|`|\bqx\b/;
/** git-handoff named in code, however its words are split into strings (`['git', 'handoff', 'guard']`). */
const NAMES_HANDOFF = /git['"\s,]*[-\s]?['"\s,]*handoff/;
const PERSON_ONLY_WORDS = /\b(guard|install|uninstall|--from|--session)\b|guard\.cjs/;

/** Why interpreter code would run git-handoff's guard or a person's command: its words are enough (no argv to read). */
export function codeRunsAnchors(cmd: SimpleCommand, whole: string): string | null {
  if (!runsUnreadCode(cmd) || !RUNS_PROGRAMS.test(whole) || !NAMES_HANDOFF.test(whole) || !PERSON_ONLY_WORDS.test(whole)) return null;
  return (
    `\`${path.basename(cmd.argv[0] ?? '')}\` runs code that starts git-handoff with words only the person's commands take (the guard, install, ` +
    `uninstall, recover --from, another session's --session). Run \`git handoff …\` itself for what a session may do; the guard reads it.`
  );
}

/** Why a `git handoff` command is only the person's to run, or null: one rule for the commands and the guard. */
export function personOnlyCommand(sub: string | undefined, rest: string[]): string | null {
  if (sub === 'install' || sub === 'uninstall') {
    return `\`git handoff ${sub}\` is the person's to run, from their own terminal: it changes how git-handoff is wired for every session (the clients' hooks and plugins, the git hooks).`;
  }
  if (sub === 'recover' && rest.some((a) => a === '--from' || a.startsWith('--from='))) {
    return (
      `\`git handoff recover --from\` is the person's to run, from their own terminal: it takes this clone's loss record from a remote, and recovery ` +
      `then trusts what that record names. \`git handoff recover\` (without --from) restores from the record here.`
    );
  }
  return null;
}

/** Why `own` (null: not known) may not claim or release for `named` (release: 8 or more of its first characters), or null. */
export function otherSessionProblem(verb: string, named: string, own: string | null): string | null {
  if (own !== null && (own === named || (verb === 'release' && named.length >= 8 && own.startsWith(named)))) return null;
  return (
    `${verb}s for session ${neutral(named) || '(empty)'}, but ${own ? `this is session ${own}` : 'this call names no session of its own'}: a session claims and ` +
    `releases only its own paths. Drop --session (the guard supplies yours); another session's claim ends with its session, its expiry, or ` +
    `\`git handoff claim … --take-over --reason "<why>"\` (on the record).`
  );
}

/** Why a tool call may not run this git-handoff command: the guard by hand, a person's command, another session's claims. */
export function personOnlyProblem(run: { kind: 'cli' | 'guard'; args: string[] }, assigns: Record<string, string>, session: string | null, shown: string): string | null {
  const show = neutral(shown);
  if (run.kind === 'guard') {
    return (
      `\`${show}\` runs git-handoff's guard by hand. The guard answers the client's own hook events; fed from a tool call it would speak for ` +
      `whichever session its input names (a SessionEnd ends that session's lease and claims). Only the client runs it. To see what the guard ` +
      `would say about a call, ask the person to run \`git handoff doctor\`.`
    );
  }
  const { sub, rest } = handoffCommand(run.args);
  if (sub === 'guard') return personOnlyProblem({ kind: 'guard', args: rest }, assigns, session, shown);
  const personOnly = personOnlyCommand(sub, rest);
  if (personOnly) return `\`${show}\`: ${personOnly} Tell them what you need and why.`;
  // release for another known session is write-as-another (rules/inject.ts says it); claim, and any named session of a call whose own is not known, here
  if (sub === 'claim' || (sub === 'release' && session === null)) {
    const named = namedSession(rest, assigns);
    const other = named === null ? null : otherSessionProblem(sub, named, session);
    if (other) return `\`${show}\` ${other}`;
  }
  return null;
}

/** The repository `git handoff fetch|sync <R>` or `git fetch|pull <R> <refspecs taking handoff refs>` takes handoffs from, or null. */
export function handoffSource(run: { kind: 'cli' | 'guard'; args: string[] } | null, inv: GitInvocation): string | null {
  if (run?.kind === 'cli') {
    const { sub, rest } = handoffCommand(run.args);
    return sub === 'fetch' || sub === 'sync' ? (operands(rest, HANDOFF_FETCH_VALUED)[0] ?? null) : null;
  }
  if (inv.sub !== 'fetch' && inv.sub !== 'pull') return null;
  // --all and --multiple name remotes only
  const o = gitOptions(inv);
  if (given(o, '', '--all', '--multiple')) return null;
  const [repository, ...refspecs] = o.operands;
  // a source git completes (`handoffs/main/t` is refs/handoffs/main/t on the remote) counts as that ref
  const takes = (src: string) => mayNameHandoffRef(src, true) || (!src.startsWith('refs/') && mayNameHandoffRef(`refs/${src}`, true));
  return repository !== undefined && refspecs.some((r) => takes(refspec(r).src)) ? repository : null;
}

/** The refusal of handoffs taken from `source`, which is none of `remotes` (the remotes the person configured). */
export const unconfiguredSourceProblem = (show: string, source: string, remotes: string[]): string =>
  `\`${neutral(show)}\` takes handoffs from ${neutral(source)}, which is not a remote the person configured (${remotes.length ? `remotes here: ${remotes.map(neutral).join(', ')}` : 'this repository has none'}): ` +
  `a version from there can name any session as its writer. Fetch from one of those remotes; another remote is the person's to add, from their own terminal.`;
