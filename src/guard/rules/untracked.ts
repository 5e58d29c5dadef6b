// Calls that remove files the guard cannot see named: git verbs that delete untracked files (clean, stash -u/--all),
// and xargs, whose arguments come from its input; each judged on the handoff files it would reach.
import path from 'node:path';
import { expands } from '../shell/lex';
import type { GuardContext } from '../context';
import { shellQuote, shellWord } from '../../terminal-text';
import type { SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';
import type { WorktreeEffect } from './worktree';
import { findParts, getopt, given } from '../shell/options';
import { gitOptions } from './git-options';
import { parseShell } from '../shell/parse';
import { printedTexts, printfOutput } from '../shell/printed';
import { judgeFile } from './files';
import { computePerimeter, perimeterProblem } from '../perimeter';
import { neutral } from '../../terminal-text';
import { Budget, expandWord, handoffFilesUnder, namesReach } from './reach';

/** A line that changes what git ignores (`echo '*' >> .gitignore`, info/exclude, core.excludesFile) before it cleans. */
const CHANGES_IGNORED = /\.gitignore|info\/+exclude|excludesfile/i;

/** Why `git clean` or `git stash -u|--all` would delete another session's (or a legacy) untracked handoff file, or null (`line`: the whole command line). */
export async function untrackedProblem(ctx: GuardContext, inv: GitInvocation, effect: WorktreeEffect, line: string): Promise<string | null> {
  const clean = effect.verb === 'clean';
  if (effect.scope === 'tracked' || !(clean || (effect.verb === 'stash' && effect.kind === 'discard'))) return null;
  const args = inv.args;
  const o = gitOptions(inv);
  const specs = effect.pathspecs ?? [];
  const excludes = clean ? o.all('-e', '--exclude') : [];
  let ignored: 'no' | 'also' | 'only' = clean ? (given(o, 'x') ? 'also' : given(o, 'X') ? 'only' : 'no') : given(o, 'a', '--all') ? 'also' : 'no';
  const dirs = !clean || given(o, 'd');
  // what is ignored when git runs is not what is ignored now: every untracked file counts
  if (CHANGES_IGNORED.test(line)) ignored = 'also';
  const dir = effect.dir;
  const loc = ctx.locate(dir);
  if (!loc) return null;
  const workTree = inv.workTree ?? null;
  if (inv.gitDir || workTree !== null) {
    // another repository or worktree named for this one command: every handoff file under where it cleans may go
    const top = workTree === null ? dir : path.resolve(dir, workTree);
    const victims = handoffFilesUnder(top, new Budget()).filter((f) => notOwn(ctx, f));
    if (!victims.length) return null;
    return `\`git ${inv.sub} ${args.join(' ')}\` with --git-dir/--work-tree (or GIT_DIR/GIT_WORK_TREE) would delete what that repository does not track under ${neutral(top)}, and handoff files that are not yours are there: ${victims.slice(0, 5).map((v) => neutral(path.relative(ctx.event.cwd, v) || v)).join(', ')}. Run it without them, in the worktree itself (the guard then names the safe command).`;
  }
  const repo = await ctx.repo(loc);
  const list = ['ls-files', '-z', '--others', ...(ignored === 'no' ? ['--exclude-standard'] : ignored === 'only' ? ['--ignored', '--exclude-standard'] : []), ...(dirs ? [] : ['--directory']), ...excludes.map((e) => `--exclude=${e}`), '--', ...specs];
  const gone = repo.git(list, { cwd: dir, allowFail: true }).stdout.split('\0').filter((f) => f && !f.endsWith('/'));
  const theirs = gone.filter((f) => /(^|\/)handoff-[^/]*\.md$/i.test(f)).filter((f) => notOwn(ctx, path.resolve(dir, f)));
  // the perimeter's untracked files among them: a client's hook file (`.claude/settings.local.json` wiring the guard), a configuration file git reads
  const fence = gone.length ? await computePerimeter(ctx, loc) : null;
  const standsOn = fence ? gone.filter((f) => !theirs.includes(f) && perimeterProblem(fence, { abs: path.resolve(dir, f), shown: f, kind: 'delete' }) !== null) : [];
  const victims = [...theirs, ...standsOn];
  if (!victims.length) return null;
  const shown = `git ${inv.sub} ${args.join(' ')}`.trim();
  const safe =
    clean
      ? `git clean ${args.filter((a) => a !== '--' && !specs.includes(a)).map(shellWord).join(' ')} ${victims.map((v) => `-e ${shellQuote(`/${path.relative(loc.worktree, path.resolve(dir, v)).split(path.sep).join('/')}`)}`).join(' ')}${specs.length ? ` -- ${specs.map(shellWord).join(' ')}` : ''}`
      : `git stash push ${ignored === 'also' ? '--all' : '--include-untracked'} -- ${(specs.length ? specs : ['.']).map(shellWord).join(' ')} ${victims.map((v) => shellQuote(`:(exclude)${v}`)).join(' ')}`;
  return (
    (theirs.length
      ? `\`${shown}\` would delete ${theirs.length === 1 ? 'a handoff file' : `${theirs.length} handoff files`} that ${theirs.length === 1 ? 'is' : 'are'} untracked and not yours: ${theirs.slice(0, 10).map(shellWord).join(', ')}. `
      : `\`${shown}\` would delete untracked files git-handoff's protection stands on (a client's hook file, git's configuration): ${standsOn.slice(0, 10).map(shellWord).join(', ')}. `) +
    `Run exactly this instead (it leaves them where they are):\n${safe.replace(/ +/g, ' ')}`
  );
}

/** The handoff files an xargs may be given: what the find or ls feeding it lists (under each path), or null: any file. */
function producedFiles(cmd: SimpleCommand, budget: Budget): string[] | null {
  const p = cmd.stdinFrom;
  if (!p || Object.keys(p.assigns).length || xargsReadsFile(cmd)) return null;
  const [prog, ...args] = p.argv;
  const dir = p.cwd ?? cmd.cwd;
  if (!dir || (prog !== 'find' && prog !== 'ls')) return null;
  // only a conjunction of -name tests narrows what find lists (as for find … -delete); ls names files or directories
  const find = prog === 'find' ? findParts(args) : null;
  const names = find?.namesListed ?? [];
  const listed = args.filter((a) => !a.startsWith('-'));
  const from = find?.roots ?? (listed.length ? listed : ['.']);
  if (from.some(expands)) return null;
  const out: string[] = [];
  for (const r of from) {
    for (const w of expandWord(r, {}, dir, budget) ?? []) {
      const abs = path.resolve(dir, w);
      out.push(abs, ...handoffFilesUnder(abs, budget).filter((f) => namesReach(names, abs, f)));
    }
  }
  return out;
}

/** xargs's options as its getopt reads them: only those whose value is required (-e, -i, -l take one only attached). */
const xargsOptions = (cmd: SimpleCommand) =>
  getopt(cmd.xargsArgs ?? [], 'adEILnPs', ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var']);

/** Whether xargs reads its arguments from a file (-a, --arg-file), not from the pipe. */
const xargsReadsFile = (cmd: SimpleCommand) => given(xargsOptions(cmd), 'a', '--arg-file');

/**
 * The arguments xargs appends from a producer whose output the guard works out (shell/printed.ts), or null: every
 * split xargs could make (NUL, newlines, blanks, a -d delimiter), since a word more can only add a refusal.
 */
function xargsWords(cmd: SimpleCommand): string[] | null {
  const p = cmd.stdinFrom;
  if (!cmd.xargs || !p || Object.keys(p.assigns).length || xargsReadsFile(cmd)) return null;
  const texts = printedTexts(p.argv[0] ?? '', p.argv.slice(1));
  if (!texts) return null;
  const o = xargsOptions(cmd);
  const delims = o.all('-d', '--delimiter').map((d) => printfOutput([d]) ?? d);
  const words = new Set<string>();
  for (const text of texts) {
    const pieces = [...text.split(/\0|\n/), ...text.split(/[\s\0]+/), ...delims.flatMap((d) => (d ? text.split(d) : []))];
    for (const w of pieces) {
      for (const v of [w, w.replace(/["'\\]/g, ''), w.trim()]) if (v) words.add(v);
      if (words.size > MAX_XARGS_WORDS) return null;
    }
  }
  return [...words];
}

/** More arguments than this worked out from a producer are not judged one by one (a bound: xargs's input is then unknown). */
const MAX_XARGS_WORDS = 4096;

/** The line with each xargs whose input the guard works out replaced by what it runs (its command with those arguments). */
export function withXargsInput(cmds: SimpleCommand[]): SimpleCommand[] {
  if (!cmds.some((c) => c.xargs)) return cmds;
  return cmds.flatMap((c) => {
    const words = c.xargs ? xargsWords(c) : null;
    if (!words) return [c];
    if (c.argv.length === 0) return c.fromInput ? [...parseShell(words.map(shellWord).join(' '), c.cwd, 1), { ...c, xargs: false }] : [c];
    return [{ ...c, argv: [...c.argv, ...words], xargs: false }];
  });
}

/** Why a program run by xargs (its arguments read from its input) may reach another session's handoff file, or null. */
export async function unseenArgumentsProblem(ctx: GuardContext, cmd: SimpleCommand, budget: Budget): Promise<string | null> {
  const loc = ctx.locate(cmd.cwd ?? ctx.event.cwd);
  if (!loc) return null;
  const produced = producedFiles(cmd, budget);
  const reach = produced ?? handoffFilesUnder(loc.worktree, budget);
  const theirs = reach.filter((f) => /^handoff-.*\.md$/i.test(path.basename(f)) && notOwn(ctx, f));
  if (!theirs.length) return null;
  const prog = cmd.argv.map(shellWord).join(' ') || 'a command';
  return (
    `\`xargs ${prog}\` takes its file names from its input${produced ? '' : ', which the guard cannot read,'} and ${produced ? 'that names' : 'this worktree holds'} handoff files that are not yours ` +
    `(${theirs.slice(0, 5).map((f) => neutral(path.relative(ctx.event.cwd, f) || f)).join(', ')}). Name your own files on the command line instead (\`${prog} <file>…\`), ` +
    `or select them with find … -exec/-delete, which the guard reads.`
  );
}

/** Whether deleting handoff file `abs` takes what is not this session's (a stranger, whose session is unread, owns none). */
const notOwn = (ctx: GuardContext, abs: string): boolean => (ctx.session ? !!judgeFile({ abs, shown: abs, kind: 'delete' }, ctx.session).deny : true);
