// Calls that remove files the guard cannot see named: git verbs that delete untracked files (git clean -f, git
// stash -u/--all take handoff files with them when those are untracked or ignored), and xargs, whose arguments come
// from its input. Each is judged on the handoff files it would reach, and refused with the exact safe command.
import path from 'node:path';
import type { GuardContext } from '../context';
import { shellQuote, shellWord } from '../event';
import type { GitInvocation, SimpleCommand } from '../shell';
import { judgeFile } from './files';
import { globMatch } from '../glob';
import { neutral } from '../../terminal-text';
import { Budget, expandWord, handoffFilesUnder } from './reach';

const has = (args: string[], short: string, ...long: string[]) => args.some((a) => long.includes(a) || (/^-[^-]/.test(a) && a.slice(1).includes(short)));

/** Why `git clean` or `git stash` would delete another session's (or a legacy) untracked handoff file, or null. */
export async function untrackedProblem(ctx: GuardContext, inv: GitInvocation, cmd: SimpleCommand): Promise<string | null> {
  const args = inv.args;
  let mode: 'clean' | 'stash' | null = null;
  let ignored: 'no' | 'also' | 'only' = 'no';
  let dirs = true;
  const specs: string[] = [];
  const excludes: string[] = [];
  if (inv.sub === 'clean') {
    // without -f git cleans too when clean.requireForce is false (set anywhere, or for this one command)
    if (has(args, 'n', '--dry-run')) return null;
    mode = 'clean';
    ignored = has(args, 'x') ? 'also' : has(args, 'X') ? 'only' : 'no';
    dirs = has(args, 'd');
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '-e' || args[i] === '--exclude') excludes.push(args[++i] ?? '');
      else if (args[i].startsWith('--exclude=')) excludes.push(args[i].slice(10));
      else if (args[i] === '--') specs.push(...args.slice(i + 1)), (i = args.length);
      else if (!args[i].startsWith('-')) specs.push(args[i]);
    }
  } else if (inv.sub === 'stash') {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub !== undefined && sub !== 'push' && sub !== 'save') return null;
    if (!has(args, 'u', '--include-untracked', '--all') && !has(args, 'a')) return null;
    mode = 'stash';
    ignored = has(args, 'a', '--all') ? 'also' : 'no';
    const dd = args.indexOf('--');
    if (dd >= 0) specs.push(...args.slice(dd + 1));
  } else return null;
  const dir = inv.cwd ?? cmd.cwd ?? ctx.event.cwd;
  const loc = ctx.locate(dir);
  if (!loc || !ctx.session) return null;
  const workTree = workTreeOf(inv, cmd);
  if (inv.gitDir || workTree !== null) {
    // another repository or worktree named for this one command: every handoff file under where it cleans may go
    const top = workTree === null ? dir : path.resolve(dir, workTree);
    const victims = handoffFilesUnder(top, new Budget()).filter((f) => judgeFile(ctx, { abs: f, shown: f, kind: 'delete' }, ctx.session!).deny);
    if (!victims.length) return null;
    return `\`git ${inv.sub} ${args.join(' ')}\` with --git-dir/--work-tree (or GIT_DIR/GIT_WORK_TREE) would delete what that repository does not track under ${neutral(top)}, and handoff files that are not yours are there: ${victims.slice(0, 5).map((v) => neutral(path.relative(ctx.event.cwd, v) || v)).join(', ')}. Run it without them, in the worktree itself (the guard then names the safe command).`;
  }
  const repo = await ctx.repo(loc);
  const list = ['ls-files', '-z', '--others', ...(ignored === 'no' ? ['--exclude-standard'] : ignored === 'only' ? ['--ignored', '--exclude-standard'] : []), ...(dirs ? [] : ['--directory']), ...excludes.map((e) => `--exclude=${e}`), '--', ...specs];
  const gone = repo.git(list, { cwd: dir, allowFail: true }).stdout.split('\0').filter((f) => f && !f.endsWith('/'));
  const victims = gone.filter((f) => /(^|\/)handoff-[^/]*\.md$/i.test(f)).filter((f) => judgeFile(ctx, { abs: path.resolve(dir, f), shown: f, kind: 'delete' }, ctx.session!).deny);
  if (!victims.length) return null;
  const shown = `git ${inv.sub} ${args.join(' ')}`.trim();
  const safe =
    mode === 'clean'
      ? `git clean ${args.filter((a) => a !== '--' && !specs.includes(a)).map(shellWord).join(' ')} ${victims.map((v) => `-e ${shellQuote(`/${path.relative(loc.worktree, path.resolve(dir, v)).split(path.sep).join('/')}`)}`).join(' ')}${specs.length ? ` -- ${specs.map(shellWord).join(' ')}` : ''}`
      : `git stash push ${ignored === 'also' ? '--all' : '--include-untracked'} -- ${(specs.length ? specs : ['.']).map(shellWord).join(' ')} ${victims.map((v) => shellQuote(`:(exclude)${v}`)).join(' ')}`;
  return (
    `\`${shown}\` would delete ${victims.length === 1 ? 'a handoff file' : `${victims.length} handoff files`} that ${victims.length === 1 ? 'is' : 'are'} untracked and not yours: ${victims.slice(0, 10).map(shellWord).join(', ')}. ` +
    `Run exactly this instead (it leaves them where they are):\n${safe.replace(/ +/g, ' ')}`
  );
}

/** The work tree named for one git command (--work-tree, GIT_WORK_TREE), or null. */
function workTreeOf(inv: GitInvocation, cmd: SimpleCommand): string | null {
  let w: string | null = cmd.assigns.GIT_WORK_TREE ?? null;
  for (let i = 1; i < cmd.argv.length && cmd.argv[i] !== inv.sub; i++) {
    if (cmd.argv[i] === '--work-tree') w = cmd.argv[++i] ?? w;
    else if (cmd.argv[i].startsWith('--work-tree=')) w = cmd.argv[i].slice(12);
  }
  return w;
}

/**
 * The files a command reads as its arguments from its input: a producer the guard reads (echo/printf of literal
 * words, find or ls of paths) gives them; anything else (a pipe from another program, a file) could name any file
 * of the worktree. Null: any file.
 */
function producedFiles(cmd: SimpleCommand, budget: Budget): string[] | null {
  const p = cmd.stdinFrom;
  if (!p || Object.keys(p.assigns).length) return null;
  const [prog, ...args] = p.argv;
  const dir = p.cwd ?? cmd.cwd;
  if (!dir) return null;
  if ((prog === 'echo' || prog === 'printf') && !args.some((a) => /[$`]/.test(a))) {
    const words = (prog === 'printf' ? args.slice(1) : args.filter((a) => !/^-[neE]+$/.test(a))).flatMap((a) => a.split(/\s+/)).filter(Boolean);
    return words.flatMap((w) => expandWord(w, {}, dir, budget) ?? [w]).map((w) => path.resolve(dir, w));
  }
  if (prog === 'find' || prog === 'ls') {
    const firstTest = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
    const names = prog === 'find' ? args.flatMap((a, k) => (/^-i?name$/.test(a) && args[k + 1] !== undefined && !/^(!|-not)$/.test(args[k - 1] ?? '') ? [args[k + 1]] : [])) : [];
    // find's starting points end at its first test; ls names files or directories
    const roots = prog === 'find' ? (firstTest < 0 ? args : args.slice(0, firstTest)) : args.filter((a) => !a.startsWith('-'));
    const from = roots.length ? roots : ['.'];
    if (from.some((r) => /[$`]/.test(r))) return null;
    const out: string[] = [];
    for (const r of from) {
      for (const w of expandWord(r, {}, dir, budget) ?? []) {
        const abs = path.resolve(dir, w);
        out.push(abs, ...handoffFilesUnder(abs, budget).filter((f) => !names.length || names.some((g) => globMatch(g, path.basename(f)))));
      }
    }
    return out;
  }
  return null;
}

/** Why a program run by xargs (its arguments read from its input) may reach another session's handoff file, or null. */
export async function unseenArgumentsProblem(ctx: GuardContext, cmd: SimpleCommand, budget: Budget): Promise<string | null> {
  const loc = ctx.locate(cmd.cwd ?? ctx.event.cwd);
  if (!loc || !ctx.session) return null;
  const produced = producedFiles(cmd, budget);
  const reach = produced ?? handoffFilesUnder(loc.worktree, budget);
  const theirs = reach.filter((f) => /^handoff-.*\.md$/i.test(path.basename(f)) && judgeFile(ctx, { abs: f, shown: f, kind: 'delete' }, ctx.session!).deny);
  if (!theirs.length) return null;
  const prog = cmd.argv.map(shellWord).join(' ') || 'a command';
  return (
    `\`xargs ${prog}\` takes its file names from its input${produced ? '' : ', which the guard cannot read,'} and ${produced ? 'that names' : 'this worktree holds'} handoff files that are not yours ` +
    `(${theirs.slice(0, 5).map((f) => neutral(path.relative(ctx.event.cwd, f) || f)).join(', ')}). Name your own files on the command line instead (\`${prog} <file>…\`), ` +
    `or select them with find … -exec/-delete, which the guard reads.`
  );
}
