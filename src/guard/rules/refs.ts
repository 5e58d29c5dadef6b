// Handoff refs move only through `git handoff` (and its hooks): raw update-ref, force pushes, overwriting
// fetch refspecs and file writes into the ref store are refused with the command that does it safely.
import path from 'node:path';
import { own, type Decision } from '../../clients/event';
import { neutral, stripTerminalControls } from '../../terminal-text';
import { lineText, programName, SHELLS, type SimpleCommand } from '../shell/command';
import { gitInvocation, type GitInvocation } from '../shell/git';
import type { WriteTarget } from '../shell/writes';
import { asWritten } from './as-written';
import { configCommand, configCommandProblem, oneOffConfigProblem, remoteChangeProblem } from './git-config';
import { gitBool } from '../../config-keys';
import { expands } from '../shell/lex';
import { given, operands } from '../shell/options';
import { gitOptions, lastValue } from './git-options';

// The protected refs: every refs/handoff… name (handoffs, archive, leases, the record, …), and these: the claims tables,
// the read receipts, and replace refs (one may stand in for a handoff commit). mentionsHandoffRef matches them by hand,
// as the expression in test/guard/rules/refs-names.test.ts does: the guard's first look loads this module, and a
// compiled one costs it.
const REF_NAMES = ['claims', 'notes/handoff-reads', 'replace'];
/** JavaScript's \s: WhiteSpace and LineTerminator (ECMA-262). */
const isSpace = (c: number) =>
  (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
const before = (c: number) => isSpace(c) || c === 58 /* : */ || c === 43 /* + */ || c === 94 /* ^ */ || c === 34 /* " */ || c === 39 /* ' */ || c === 61; /* = */
const after = (c: number) => isSpace(c) || c === 47 /* / */ || c === 42 /* * */ || c === 34 /* " */ || c === 39; /* ' */
export function mentionsHandoffRef(s: string): boolean {
  for (let i = s.indexOf('refs/'); i >= 0; i = s.indexOf('refs/', i + 1)) {
    if (i > 0 && !before(s.charCodeAt(i - 1))) continue;
    if (s.startsWith('handoff', i + 5)) {
      let end = i + 12;
      while (end < s.length && ((s.charCodeAt(end) >= 97 && s.charCodeAt(end) <= 122) || s.charCodeAt(end) === 45)) end++;
      if (end === s.length || after(s.charCodeAt(end))) return true;
    }
    for (const n of REF_NAMES) {
      const end = i + 5 + n.length;
      if (s.startsWith(n, i + 5) && (end === s.length || after(s.charCodeAt(end)))) return true;
    }
  }
  return false;
}
/** A path in git's ref store holding a protected ref, from the same names (test/guard/rules/refs.test.ts checks them). */
let storeRefPath: RegExp | undefined;
/** Made at its first use, not at load: the first look loads this module and never writes a file. */
const STORE_REF_PATH = { test: (s: string) => (storeRefPath ??= new RegExp(`(^|/)refs/(handoff[a-z-]*|${REF_NAMES.join('|')})(/|$)`)).test(s) };
/** Ref name prefixes the guard protects (a ref that starts so, or an expansion that could complete one). */
const PROTECTED_PREFIXES = ['refs/handoff', ...REF_NAMES.map((n) => `refs/${n}/`)];

/**
 * Whether a ref argument could name a protected ref once expanded (`pattern`: or stand for one by a `*`): one it names,
 * or a known beginning before the first `$`, backquote (or `*`) that may go on to one (or is inside one already).
 */
export function mayNameHandoffRef(arg: string, pattern = false): boolean {
  const a = arg.replace(/^[+^:]/, '');
  if (mentionsHandoffRef(a)) return true;
  const cut = a.search(pattern ? /[$`*]/ : /[$`]/);
  return cut >= 0 && PROTECTED_PREFIXES.some((p) => p.startsWith(a.slice(0, cut)) || a.slice(0, cut).startsWith(p));
}

/** A refspec as source and destination (`+` dropped; a lone ref is its own destination). */
export const refspec = (a: string) => {
  const r = a.replace(/^\+/, '');
  const colon = r.indexOf(':');
  return colon < 0 ? { src: r, dst: r } : { src: r.slice(0, colon), dst: r.slice(colon + 1) };
};

// An alias standing for one of these would carry a ruled command past the guard under another name.
const RULED_ALIAS = /^!|update-ref|symbolic-ref|fast-import|handoff|filter-|replace|push|fetch|pull|config|reset|rebase|commit|checkout|switch|restore|clean|stash|read-tree|checkout-index|\brm\b|\badd\b|\bmv\b/;

// Interpreters handed code on the command line or on stdin, each with the option its code follows (the words after the
// code are its arguments): what the code does cannot be read statically, so code that names the ref store is refused as a whole.
// Given no code and no script, each reads its code from its input (src/guard/interactive.ts).
const PYTHON = /^-[a-zA-Z]*c$/;
const NODE = /^(-e|-p|--eval|--print|-pe)$/;
const INTERPRETERS: Record<string, RegExp> = {
  python: PYTHON,
  pypy: PYTHON,
  node: NODE,
  nodejs: NODE,
  perl: /^-[a-zA-Z]*[eE]$/,
  ruby: /^-[a-zA-Z]*e$/,
  php: /^-r$/,
  deno: /^eval$/,
  bun: /^(-e|--eval)$/,
  lua: /^-e$/,
  luajit: /^-e$/,
  Rscript: /^(-e|--expr)$/,
  julia: /^(-e|--eval|-E|--print)$/,
  tclsh: /^$/,
  expect: /^-c$/,
  pwsh: /^(-c|-Command|-command|-EncodedCommand)$/,
  osascript: /^-e$/,
  // lisps and schemes: their code escapes to the shell as python's does (`(shell-command …)`, `(system …)`, run-program)
  emacs: /^(--eval|-eval|--execute)$/,
  guile: /^-c$/,
  racket: /^(-e|--eval)$/,
  sbcl: /^--eval$/,
  clisp: /^-x$/,
  ecl: /^-eval$/,
  csi: /^(-e|-p)$/,
  gosh: /^-e$/,
};
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);
const REF_STORE_TEXT = /refs\/handoff|refs\/replace|handoff-reads|update-ref|symbolic-ref|fast-import|packed-refs|\.git\/+(refs|handoff|hooks|config|HEAD|info\/grafts)|handoff-archive|handoff-leases|audit\.jsonl|guard-config/;

/** A program's name without its version (`python3.12` is python). */
const familyOf = (prog: string) => prog.slice(0, prog.length - (/[\d.]*$/.exec(prog.slice(-32))?.[0].length ?? 0));

/** The option an interpreter's code follows (`python3.12 -c`: python's), or undefined for a program no interpreter. */
export function codeOption(prog: string): RegExp | undefined {
  const family = familyOf(prog);
  return own(INTERPRETERS, family) ? INTERPRETERS[family] : undefined;
}

/** Whether a command is an interpreter given code on its command line or stdin, or a shell reading its script from stdin. */
export function runsUnreadCode(cmd: SimpleCommand): boolean {
  const args = cmd.argv.slice(1);
  // no -c (unwrapped elsewhere) and no script file: stdin
  if (SHELLS.has(programName(cmd.argv))) return operands(args).every((a) => a === '-');
  const code = codeOption(programName(cmd.argv));
  const awk = AWKS.has(familyOf(programName(cmd.argv)));
  // a script file written earlier on the same line (`echo '<code>' > s.py; python3 s.py`, `awk -f s.awk`): its code is the line's text
  if ((code || awk) && cmd.writtenArg) return true;
  // awk's program is its first operand unless -f names a file
  if (awk) return !args.some((a) => /^-[a-zA-Z]*f/.test(a) || a.startsWith('--file') || a.startsWith('--exec') || /^-E/.test(a));
  return code !== undefined && (args.some((a) => code.test(a)) || args.includes('-') || operands(args).length === 0);
}

/** Why an interpreter or a shell reading its script from stdin may write the ref store, or null. */
export function interpreterProblem(cmd: SimpleCommand, whole: string): string | null {
  if (!runsUnreadCode(cmd) || !REF_STORE_TEXT.test(whole)) return null;
  return `\`${programName(cmd.argv)}\` runs code the guard cannot read, and this command names git's ref store (handoff refs, update-ref, packed-refs or .git/refs).\n${SAFE_WAYS}`;
}

/** The refusal of a command that moves handoff refs behind git-handoff's back, with the ways that do it safely. */
const bypass = (show: string, what: string) => `\`${show}\` ${what}.\n${SAFE_WAYS}`;

const SAFE_WAYS =
  'Handoff refs only move through git-handoff, which checks ownership by compare-and-swap:\n' +
  '  git handoff write <topic> …      a new version (yours, or --take-over --reason "<why>")\n' +
  '  git handoff archive <topic>      instead of deleting (nothing is lost; restore brings it back)\n' +
  '  git handoff release              instead of deleting a worktree lease\n' +
  '  git handoff sync | push | fetch  instead of pushing or fetching refs/handoffs by hand';

/** The refusal of a line that is one plain git command moving a protected ref (the first look's), or null. */
export function plainRefMove(cmds: SimpleCommand[], line: string, cwd: string): Decision | null {
  const [cmd, ...rest] = cmds;
  if (!cmd || rest.length || cmd.redirects.length || cmd.xargs) return null;
  const inv = gitInvocation(cmd);
  if (!inv) return null;
  const show = asWritten(line, inv, cmd.cwd ?? '/', { line, cwd, cmds });
  const problem = oneOffConfigProblem(inv, show) ?? refCommandProblem(inv, cmd, lineText(cmds), show);
  return problem === null ? null : { deny: stripTerminalControls(problem) };
}

/**
 * Why a git command (`show`: as written, rules/as-written.ts) writes handoff refs behind git-handoff's back, or null.
 * Its one-off settings (`-c remote.…`, `-c core.notesRef=…`) were judged before, by oneOffConfigProblem.
 */
export function refCommandProblem(inv: GitInvocation, cmd: SimpleCommand, whole: string, show: string): string | null {
  const args = inv.args;
  const o = gitOptions(inv);
  const named = args.filter(mentionsHandoffRef);
  switch (inv.sub) {
    case 'update-ref':
    case 'symbolic-ref': {
      // --stdin: the updates come from input the guard may not see (a file, a pipe of generated text)
      const unseen = cmd.redirects.some((r) => r.op === '<') || cmd.stdinFrom !== undefined || expands(whole);
      const viaStdin = args.includes('--stdin') && (mentionsHandoffRef(whole) || cmd.xargs || unseen);
      // update-ref's ref is its first operand; either operand of symbolic-ref can attach HEAD to a handoff ref.
      const expanded = (inv.sub === 'update-ref' ? o.operands.slice(0, 1) : o.operands).some((a) => mayNameHandoffRef(a));
      const moves = named.length || expanded || viaStdin || (cmd.xargs && mentionsHandoffRef(whole));
      return moves ? bypass(show, 'moves a handoff ref directly, bypassing the ownership check') : null;
    }
    case 'push': {
      if (args.includes('--mirror')) return bypass(show, 'would force every ref, handoffs included, onto the remote');
      const force = given(o, 'fd', '--force', '--force-with-lease', '--force-if-includes', '--delete', '--prune');
      const forced = named.some((a) => a.startsWith('+') || a.startsWith(':'));
      if (named.length && (force || forced)) return bypass(show, 'force-pushes or deletes handoff refs on the remote');
      // `<src>:refs/handoffs/…` puts whatever <src> is (a branch, HEAD) into a handoff ref under another name.
      const renamed = args.some((a) => a.indexOf(':') > 0 && mayNameHandoffRef(refspec(a).dst) && refspec(a).src !== refspec(a).dst);
      if (renamed) return bypass(show, 'pushes something other than that handoff into a handoff ref on the remote');
      // a pattern that covers handoff refs (`refs/*:refs/*`, `+refs/*`), forced, pruning or renaming
      const prune = given(o, '', '--prune');
      const covering = args.filter((a) => !a.startsWith('-') && a.includes('*') && mayNameHandoffRef(refspec(a).dst, true));
      if (covering.some((a) => force || prune || a.startsWith('+') || refspec(a).src !== refspec(a).dst)) {
        return bypass(show, `pushes a ref pattern that covers handoff refs (${covering.map(neutral).join(', ')}), forcing, pruning or renaming them on the remote`);
      }
      return null;
    }
    case 'remote': {
      // which remotes there are and where they lead (a mirror's every fetch overwrites handoff refs): the person's
      const verb = o.operands[0] ?? '';
      return /^(add|set-url|rename|remove|rm|set-branches)$/.test(verb) ? remoteChangeProblem(show, `this repository's remotes (\`git remote ${verb}\`)`) : null;
    }
    case 'fast-import':
      if (args.some((a) => a === '-h' || a === '--help')) return null;
      return `\`${show}\` creates and moves refs from its input stream (\`reset\`/\`commit refs/…\`), which the guard cannot read: handoff refs included.\n${SAFE_WAYS}\nTo import history, ask the person, or fast-import into a scratch repository (git init /tmp/scratch).`;
    case 'config': {
      const c = configCommand(args, inv.cwd);
      const { ops } = c;
      const key = (ops[0] ?? '').toLowerCase();
      if (!c.changes || c.reads) return configCommandProblem(c, show);
      if (key.startsWith('handoff.') || ((c.removesSection || c.renamesSection) && key === 'handoff')) {
        return `\`${show}\` changes git-handoff's own settings (guard, protected files, sync). Those are the person's to change: ask them.`;
      }
      if (/^alias\./.test(key) && ops.length >= 2 && RULED_ALIAS.test(ops.slice(1).join(' '))) {
        return `\`${show}\` defines an alias for a git command the guard rules on (refs, pushes, rewrites, handoffs): every later use would go unchecked. Run the command itself, or ask the person to define the alias.`;
      }
      const spec = /^remote\..+\.(fetch|push)$/.test(key) && ops.slice(1).some((v) => mayNameHandoffRef(refspec(v).dst, true) && (key.endsWith('fetch') || v.startsWith('+') || v.includes('*') || refspec(v).src !== refspec(v).dst));
      const mirror = /^remote\..+\.mirror$/.test(key) && gitBool(ops[1] ?? 'true') === true;
      if (spec || mirror) return bypass(show, 'sets a refspec that would force or overwrite handoff refs on every fetch or push');
      // a key that makes git run a program, or turns the protection off (rules/git-config.ts)
      return configCommandProblem(c, show);
    }
    case 'notes': {
      // the read receipts live in refs/notes/handoff-reads: only `git handoff` appends to them (a ref built by an
      // expansion may be it; `-c core.notesRef=…` is oneOffConfigProblem's)
      const ref = lastValue(o, '--ref') ?? cmd.assigns.GIT_NOTES_REF ?? 'refs/notes/commits';
      const writes = !/^(list|show|get-ref)$/.test(o.operands[0] ?? 'list');
      if (!writes || !(expands(ref) || /handoff-reads/.test(ref))) return null;
      return bypass(show, 'changes the read receipts (refs/notes/handoff-reads), which only git handoff appends to');
    }
    case 'filter-branch':
      return args.includes('--all') || named.length ? bypass(show, 'rewrites every ref it is given, handoff refs included') : null;
    case 'filter-repo':
      if (args.some((a) => a === '--analyze' || a === '-h' || a === '--help')) return null;
      return `\`${show}\` rewrites every ref of the repository, handoff refs and other sessions' commits included. Ask the person to run it.`;
    case 'replace': {
      // --convert-graft-file turns info/grafts into replace refs
      const listing = !args.includes('--convert-graft-file') && (args.some((a) => /^(-l|--list|-d|--delete)$/.test(a)) || o.operands.length === 0);
      if (listing) return null;
      return (
        `\`${show}\` makes git show another object in place of an existing commit, for every reader of this repository: ` +
        `other sessions' commits and handoffs would read differently without their history changing. Ask the person to do this.`
      );
    }
    case 'fetch':
    case 'pull': {
      // --refmap=<refspec> maps what the command line fetches, as a configured fetch refspec does
      const overwrite = [...args, ...o.all('--refmap')].some((a) => a.includes(':') && mayNameHandoffRef(a.slice(a.indexOf(':') + 1), true));
      return overwrite ? bypass(show, 'fetches straight into the local handoff refs, overwriting them') : null;
    }
    default:
      return null;
  }
}

/** Why a file write lands in git's ref store (loose handoff refs, packed-refs, the refs directory), or null. */
export function refStoreWriteProblem(target: WriteTarget, abs: string): string | null {
  // `"$GIT_DIR/packed-refs"`, `"$(git rev-parse --git-dir)/refs/handoffs/…"`: the directory is unknown, the tail is not.
  const storeWrite = `writing ${neutral(target.path)} changes git's ref store behind its back, where handoff refs live.\n${SAFE_WAYS}`;
  if (expands(target.path) && (STORE_REF_PATH.test(target.path) || /(^|\/)(packed-refs|info\/grafts)$/.test(target.path))) return storeWrite;
  // matched without case: on a case-insensitive filesystem (macOS, Windows) `.GIT/Refs/HANDOFFS` is git's own
  const parts = abs.toLowerCase().split(path.sep);
  const g = parts.lastIndexOf('.git');
  const inGit = g >= 0 || /\/\.git\//.test(abs.toLowerCase()) || parts.includes('worktrees');
  if (!inGit) return null;
  const rest = g >= 0 ? parts.slice(g + 1).join('/') : abs.toLowerCase();
  const hit =
    // handoffs, archive, leases, the loss record with what it keeps (handoff-record, -rogue, -kept, -dropped), claims
    STORE_REF_PATH.test(rest) ||
    /(^|\/)info\/grafts$/.test(rest) ||
    /(^|\/)packed-refs$/.test(rest) ||
    (target.kind === 'delete' && (rest === '' || rest === 'refs')) ||
    // `.git` itself written over: the pointer file of a worktree (or a separate git dir) names where git's directory is
    (rest === '' && g === parts.length - 1);
  if (hit) return storeWrite;
  // the object store holds every version of every handoff: a file removed or written there can lose them for good
  if (/(^|\/)objects(\/|$)/.test(rest) && !/^worktrees\/[^/]+\/./.test(rest)) {
    return (
      `writing ${neutral(target.path)} changes git's object store behind its back, where every handoff version is kept: a removed or damaged object can lose them for good. ` +
      `Let git manage it (git gc, git repack, git prune; git fsck to check it), or ask the person.`
    );
  }
  // HEAD (a symref to a handoff ref), config (refspecs, aliases, handoff.*), hooks and git-handoff's own state
  const state = g >= 0 && /^(worktrees\/[^/]+\/)?(HEAD|config|config\.worktree|commondir|gitdir|hooks(\/.*)?|handoff(\/.*)?)$/i.test(rest);
  if (state) {
    return (
      `writing ${neutral(target.path)} changes git's own settings or git-handoff's records behind their back (HEAD, config, hooks, the audit trail, ledger, leases). ` +
      `Use git itself (git switch; git config for a setting that is yours to change, which the guard checks: not one that makes git run a program) and git handoff; ask the person for anything else.`
    );
  }
  return null;
}
