// A program that reads what it runs or writes from its input, started by a client whose shell keeps that input open
// for later (ClientRecord.stdinUnseen): the guard cannot read what it will be given, so where git-handoff protects
// handoffs it is refused, with the non-interactive way.
import { readdirSync } from 'node:fs';
import { readTextOr } from '../read-file';
import path from 'node:path';
import type { GuardContext } from './context';
import { Bound, Budget, handoffFilesUnder } from './rules/reach';
import { neutral } from '../terminal-text';
import { programName, SHELLS, type SimpleCommand } from './shell/command';
import { gitInvocation } from './shell/git';
import { parseShell } from './shell/parse';
import { runnerLines } from './shell/runners';
import { codeOption } from './rules/refs';

/** Read-eval loops beside the interpreters of rules/refs.ts, and the options that give them their code inline. */
const REPLS = /^(irb|ghci|julia|R|tclsh|wish|sqlite3|psql|mysql|gdb|lldb|jshell|scala|clojure|expect|osascript)$/;
const REPL_CODE = /^-[^-]*[ce]|^--(command|eval|execute)/;
/**
 * Programs that run or write what is typed into them whatever their operands, terminal or not: editors (`ed`, `vim`
 * read their commands from their input), terminal multiplexers, remote and user shells. A pager (`less`) reads
 * keystrokes only from a terminal, which the hook cannot see was asked for (SECURITY.md): not here.
 */
const TYPED_INTO = /^(vi|vim|nvim|view|vimdiff|nano|pico|emacs|ed|ex|micro|joe|tmux|screen|script|su|telnet|ftp|sftp)$/;
/** Why `cmd`, reading its own input, may be given later what the guard cannot see, or null. */
function readsLaterInput(cmd: SimpleCommand): string | null {
  const prog = programName(cmd.argv);
  const args = cmd.argv.slice(1);
  if (!prog) return null;
  if (cmd.xargs) return `xargs runs what its input names`;
  if (TYPED_INTO.test(prog)) return `${prog} runs what is typed into it`;
  if (prog === 'ssh') {
    const remote = runnerLines(['ssh', ...args], [])?.lines[0];
    if (!remote) return 'ssh with no remote command runs what is typed into it';
    // the remote command reads the same input: judged as if run here
    const there = readsLaterInput({ ...cmd, argv: remote.split(/\s+/).filter(Boolean) });
    return there && `ssh ${there}`;
  }
  const operands = args.filter((a) => !a.startsWith('-'));
  if (SHELLS.has(prog) || prog === 'busybox') {
    if (args.some((a) => /^-[^-]*c/.test(a))) return null;
    if (args.some((a) => /^-[^-]*[si]/.test(a)) || !operands.length || operands[0] === '-') return `${prog} with no script reads its commands from its input`;
    return null;
  }
  const inline = codeOption(prog) ?? (REPLS.test(prog) ? REPL_CODE : undefined);
  if (inline) {
    if (args.some((a) => /^-[^-]*i$|^--interactive$/.test(a))) return `${prog} -i reads code from its input`;
    if (args.some((a) => inline.test(a))) return null;
    return !operands.length || operands[0] === '-' ? `${prog} with no script reads code from its input` : null;
  }
  if (prog === 'sudo' && args.some((a) => /^-[^-]*[si]/.test(a))) return `sudo ${args.join(' ')} opens a shell`;
  if (prog === 'git' && args.includes('--stdin')) return 'git --stdin takes what it changes from its input';
  if (prog === 'git' && /^(apply|am|fast-import)$/.test(operands[0] ?? '') && operands.length === 1) return `git ${operands[0]} takes its patch from its input`;
  if (prog === 'patch' && !args.some((a) => /^-[^-]*i|^--input/.test(a))) return 'patch takes its patch from its input';
  if (/^(tar|bsdtar)$/.test(prog) && args.some((a) => /^-?[^-]*x/.test(a)) && !args.some((a, i) => /^-?[^-]*f$/.test(a) && args[i + 1] && args[i + 1] !== '-')) return 'tar -x takes its archive from its input';
  if (prog === 'cpio') return 'cpio takes its archive from its input';
  if (/^(sed|awk|gawk|mawk)$/.test(prog) && args.some((a, i) => /^-[^-]*f$/.test(a) && /^(-|\/dev\/stdin)$/.test(args[i + 1] ?? ''))) return `${prog} -f - takes its script from its input`;
  return null;
}

/** Whether any ref is under `prefix` in the repository whose common git directory is `common` (loose or packed). */
function hasRefs(common: string, prefix: string): boolean {
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : true));
  };
  if (walk(path.join(common, ...prefix.split('/').filter(Boolean)))) return true;
  return readTextOr(path.join(common, 'packed-refs'))?.includes(` ${prefix}`) ?? false;
}

/** The worktree of `dir` when git-handoff protects something there: a handoff (its refs) or a handoff file. */
function protectedStateAt(ctx: GuardContext, dir: string): string | null {
  const loc = ctx.locate(dir);
  if (!loc) return null;
  if (hasRefs(loc.commonDir, 'refs/handoffs/') || hasRefs(loc.commonDir, 'refs/handoff-archive/')) return loc.worktree;
  try {
    return handoffFilesUnder(loc.worktree, new Budget()).length ? loc.worktree : null;
  } catch (e) {
    // past the walk's bound the guard cannot tell: as if there were
    if (e instanceof Bound) return loc.worktree;
    throw e;
  }
}

/** The refusal of a call running command lines whose open input the guard cannot read, or null. */
export function interactiveProblem(ctx: GuardContext, commands: string[], cwd: string | null): string | null {
  for (const command of commands) {
    let cmds: SimpleCommand[];
    try {
      // the call's own line as the guard read it already (src/guard/entry.ts), else read here
      const a = ctx.event.action;
      cmds = (a.type === 'shell' && command === a.command ? ctx.shellLine : null) ?? parseShell(command, cwd ?? ctx.event.cwd);
    } catch {
      continue; // the shell rules refuse what they cannot read
    }
    for (const [i, cmd] of cmds.entries()) {
      // its input is the call's own (not a pipe, a file or a here-document)
      if (cmd.stdinFrom || cmd.redirects.some((r) => r.op.startsWith('<') && r.op !== '<>')) continue;
      // a value `git config` stores for later (core.editor vim): not run by this line (a later one is judged then)
      const value = cmd.argv.join(' ');
      if (cmds.slice(i + 1).some((c) => gitInvocation(c)?.sub === 'config' && c.argv.includes(value))) continue;
      const why = readsLaterInput(cmd);
      if (!why) continue;
      const at = protectedStateAt(ctx, cmd.cwd ?? cwd ?? ctx.event.cwd);
      if (!at) continue;
      return (
        `\`${neutral(command)}\`: ${why}, and what is typed into it later (Codex's write_stdin, a tool's later input) reaches no hook, in ${neutral(at)}, where git-handoff protects handoffs. ` +
        `Run the whole command line in one call instead (\`bash -c '<commands>'\`, \`python3 -c '<code>'\`, or a script file run as \`python3 <file>\`), with no tty and nothing typed later.`
      );
    }
  }
  return null;
}
