// Before a tool runs: the rules of SPEC 6 on the normalized event. Cheap checks come first; git is started
// only for a command that can rewrite commits, and the config only for a path that could be protected.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { GuardContext } from '../context';
import type { Decision } from '../../clients/event';
import { bounded, failClosed, MAX_COMMAND, namesProtected } from '../fail-closed';
import { harmlessCommand } from '../allow';
import { expands, LexBound } from '../shell/lex';
import { Bound, Budget, expandWord, handoffFilesIn, handoffFilesUnder, handoffFilesWithInode, isPattern, linkedInode, namedUnder, namesReach } from './reach';
import { changedByCheckout, gitFileTargets, pathspecCovers, pathspecMatches } from './git-files';
import { patchTargets } from './patch-files';
import { extractTargets, linkSources, unknownWriterTargets } from './writers';
import { unseenArgumentsProblem, untrackedProblem, withXargsInput } from './untracked';
import { DECLARES, lineText, type SimpleCommand } from '../shell/command';
import { setsForLine } from '../shell/values';
import { gitInvocation, READING_VERBS, type GitInvocation } from '../shell/git';
import { parseShell } from '../shell/parse';
import { writeTargets, type WriteTarget } from '../shell/writes';
import { gitOptions, lastValue } from './git-options';
import { hooksPathRemovalProblem, hooksPathRemovalScope, includedRemoteSettingProblem, oneOffConfigProblem } from './git-config';
import { isProtected, judgeFile, type FileOp } from './files';
import { fileOps, noteEffect } from '../effect';
import { interpreterWrites } from './interpreter-writes';
import { commitNeedsSession, isHandoffCommand, judgeHandoffCommand, needsSession, plainHooksDir, productVariableProblem, sessionPrefix } from './inject';
import { RECORDS } from '../../clients/records';
import { neutral } from '../../terminal-text';
import { statOr } from '../../read-file';
import { codeRunsAnchors, handoffByInterpreter, handoffRun, handoffSource, personOnlyProblem, reinstallProblem, unconfiguredSourceProblem } from './anchors';
import { Earlier } from './earlier';
import { worktreeEffect } from './worktree';
import { pluginPathPrefix } from '../../clients/plugin-active';
import { interpreterProblem, refCommandProblem, refStoreWriteProblem } from './refs';
import { remoteNames } from '../../git/config';
import { asWritten, type ReadLine } from './as-written';
import { computePerimeter, namesPerimeterPart, ownRepositoryProblem, perimeterProblem, perimeterUnder, switchedWiringProblem, type Perimeter } from '../perimeter';
import { installedDirs } from '../path-programs';
import { userDirs, userHome } from '../../user-dirs';
import { headBranch, type Location } from '../locate';
import { holdsStub, hooksDirIn } from '../../git/hook-stub';
import { NAMES_HOOK_FILE } from '../../clients/hook-files';
import { anchorEnvironmentProblem, gitEnvironmentProblem, gitOptionProblem, separateGitDirProblem, sessionEnvironmentProblem } from './git-invocation';

export async function preTool(ctx: GuardContext): Promise<Decision> {
  const a = ctx.event.action;
  const budget = new Budget();
  try {
    if (a.type === 'write' || a.type === 'edit' || a.type === 'patch') return await fileDecision(ctx, fileOps(a, ctx.event.cwd), budget);
    if (a.type === 'paths' && a.over) return failClosed(a.over);
    if (a.type === 'paths') {
      // each command line the tool was given is judged as one (no rewrite: its place in the arguments is not `command`)
      for (const c of a.commands ?? []) {
        const { updatedInput: _, ...d } = await shellDecision(ctx, c, null, budget);
        if (d.deny !== undefined) return d;
      }
      return await fileDecision(ctx, toolPathOps(ctx, a.paths, budget), budget);
    }
    if (a.type === 'shell') return await shellDecision(ctx, a.command, a.cwd, budget);
  } catch (e) {
    // a bound of the reader or of a walk: the call may reach what the guard protects, and it cannot tell
    if (e instanceof Bound || e instanceof LexBound) return failClosed(e.message);
    throw e;
  }
  return {};
}

/** A value computed once per guard run. */
function perRun<T, A extends unknown[]>(make: (ctx: GuardContext, ...args: A) => T): (ctx: GuardContext, ...args: A) => T {
  const made = new WeakMap<GuardContext, T>();
  return (ctx, ...args) => {
    if (!made.has(ctx)) made.set(ctx, make(ctx, ...args));
    return made.get(ctx)!;
  };
}
/** The perimeter of this call's repository (src/guard/perimeter.ts). */
const perimeterOf = perRun((ctx): Promise<Perimeter> => computePerimeter(ctx, ctx.locate()));
/** git-handoff's own folders (its state, the witness among it, and where it is installed). */
const ownDirsOf = perRun((ctx, loc: Location | null) => [...userDirs(ctx.env), ...installedDirs(loc?.worktree ?? null, ctx.event.cwd, ctx.env)]);

/** The repositories a git command changes: the one it runs in and, for a push, its destination (a remote's URLs: git asked). */
async function repositoriesOf(ctx: GuardContext, git: GitInvocation, here: string, loc: Location | null, defined: Map<string, string>): Promise<string[]> {
  const out = [here];
  if (git.gitDir && !expands(git.gitDir)) out.push(path.resolve(here, git.gitDir));
  if (git.sub !== 'push' && git.sub !== 'send-pack') return out;
  // the repository named as an operand, else by --repo (git's order)
  const o = gitOptions(git);
  const dest = o.operands[0] ?? lastValue(o, '--repo');
  // a NUL cannot reach git in an argument: no remote has that name
  if (dest === undefined || /[$`\0]/.test(dest)) return out;
  const asPath = (u: string) => (u.startsWith('file://') ? u.slice(7) : /^[^:/]+:/.test(u) && !u.startsWith('/') ? null : u.replace(/^~(?=\/|$)/, ctx.env.HOME ?? '~'));
  const direct = /[/~]|^\.\.?$/.test(dest) || dest.startsWith('file://') ? asPath(dest) : null;
  if (direct !== null) return [...out, path.resolve(here, direct)];
  // a remote the line defined before this push
  const earlier = defined.get(dest);
  if (earlier !== undefined) {
    const p = asPath(earlier);
    return p === null || expands(p) ? out : [...out, path.resolve(here, p)];
  }
  if (!loc) return out;
  // a remote's name: where its URLs lead (git asked, for a push only)
  const repo = await ctx.repo(loc);
  const urls = repo.git(['config', '--get-regexp', `^remote\\.${dest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(url|pushurl)$`], { cwd: here, allowFail: true }).stdout;
  for (const line of urls.split('\n')) {
    const u = line.slice(line.indexOf(' ') + 1).trim();
    const p = u ? asPath(u) : null;
    if (p !== null && line.includes(' ')) out.push(path.resolve(here, p));
  }
  return out;
}

/** A tool whose name says it removes or moves what it is given (an MCP server's delete_directory, move_file). */
const DESTRUCTIVE_TOOL = /delete|remove|(^|[^a-z])rm|move|rename|purge|trash|wipe|clean/i;

/**
 * The operations of a tool of unknown shape, on every path-like argument: a pattern on what it matches, a directory on
 * the handoff files in it (under it, when the tool's name says it deletes or moves).
 */
function toolPathOps(ctx: GuardContext, given: string[], budget: Budget): FileOp[] {
  const ops: FileOp[] = [];
  const whole = DESTRUCTIVE_TOOL.test(ctx.event.tool ?? '');
  for (const p of given.flatMap((g) => toolPathSpellings(g, ctx.env.HOME))) {
    const words = isPattern(p) && !expands(p) ? (expandWord(p, {}, ctx.event.cwd, budget) ?? [p]) : [p];
    for (const w of words) {
      const abs = ctx.abs(w);
      ops.push({ abs, shown: w, kind: 'shell' });
      for (const f of whole ? handoffFilesUnder(abs, budget) : handoffFilesIn(abs, budget)) ops.push({ abs: f, shown: path.relative(ctx.event.cwd, f) || f, kind: whole ? 'delete' : 'shell' });
    }
  }
  return ops;
}

/** The paths a tool's path argument may stand for: the home as `~`/`$HOME`, a `file://` URI, trailing blanks dropped. */
function toolPathSpellings(given: string, home: string | undefined): string[] {
  const out = new Set([given, given.replace(/\s+$/, '')]);
  for (const p of [...out]) {
    const uri = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(p);
    if (uri) {
      try {
        out.add(decodeURIComponent(uri[1]));
      } catch {
        out.add(uri[1]);
      }
    }
  }
  if (home) for (const p of [...out]) out.add(p.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home));
  return [...out].filter(Boolean);
}

/** A path with its symlinks resolved (the part that exists; the rest appended), so a link cannot hide a protected file. */
function realOf(abs: string): string {
  const rest: string[] = [];
  for (let p = abs; ; p = path.dirname(p)) {
    try {
      return path.join(realpathSync.native(p), ...rest.reverse());
    } catch {
      if (path.dirname(p) === p) return abs;
      rest.push(path.basename(p));
    }
  }
}

/** The existing file whose name differs from a missing one's only in case (a handoff file's or git's), or null. */
function caseTwin(abs: string): string | null {
  if (!/handoff|\.git|refs|packed/i.test(abs) || existsSync(abs)) return null;
  const dir = path.dirname(abs);
  const parent = dir === abs ? null : existsSync(dir) ? dir : caseTwin(dir);
  if (parent === null) return null;
  try {
    const name = path.basename(abs).toLowerCase();
    const hit = readdirSync(parent).find((e) => e.toLowerCase() === name);
    return hit === undefined ? null : path.join(parent, hit);
  } catch {
    return null;
  }
}

// A call whose session cannot be read (SPEC 6) is a stranger's: it owns nothing, so it may change nothing any session owns.
const STRANGER = "this call's session could not be read (its payload names none, or is in a shape git-handoff does not know), so it owns nothing";
const STRANGER_WAY = 'A client git-handoff wires (`git handoff install --agent <client>`) sends its session with every call.';

async function fileDecision(ctx: GuardContext, given: FileOp[], budget: Budget): Promise<Decision> {
  const warnings: string[] = [];
  // a symlinked directory or file is judged where it leads as well as where it is named; a file with a second hard
  // link, as every handoff file of its worktree that shares its inode
  const ops = given.flatMap((op) => {
    const real = realOf(op.abs);
    // on a case-insensitive filesystem HANDOFF-x.MD is handoff-x.md: a missing name is judged as the file it matches
    const twin = caseTwin(real);
    const named = [op, ...(real === op.abs ? [] : [{ ...op, abs: real }]), ...(twin ? [{ ...op, abs: twin }] : [])];
    const inode = op.kind === 'delete' ? null : linkedInode(real);
    // a second name planted outside any worktree still shares the inode of a handoff file of this one
    const loc = inode ? (ctx.locateFile(real) ?? ctx.locate()) : null;
    const linked = loc && inode ? handoffFilesWithInode(loc.worktree, inode, budget).filter((f) => f !== real) : [];
    return [...named, ...linked.map((f) => ({ ...op, abs: f, shown: `${op.shown} (a hard link of ${path.relative(ctx.event.cwd, f) || f})`, kind: 'shell' as const }))];
  });
  // what the call may write, as judged here, is what claims and the ledger read (../effect.ts)
  // a directory removed whole: everything under it (claims compare it as `dir/`)
  noteEffect(ctx, ops.map((op) => (op.kind === 'delete' && statOr(op.abs)?.isDirectory() ? op.abs + path.sep : op.abs)));
  const fence = ops.length ? await perimeterOf(ctx) : null;
  for (const op of ops) {
    // git's directories wherever they are, its configuration files, the clients' hook files, the guard's state
    const outside = refStoreWriteProblem({ path: op.shown, kind: op.kind === 'delete' ? 'delete' : 'write', cwd: null }, op.abs) ?? perimeterProblem(fence!, op);
    if (outside) return { deny: outside };
    if (!(await isProtected(ctx, op.abs))) continue;
    if (!ctx.session) return { deny: `${neutral(op.shown)} is a protected handoff file, and ${STRANGER}: it may change no session's handoff file. ${STRANGER_WAY}` };
    const v = judgeFile(op, ctx.session);
    if (v.deny) return { deny: v.deny };
    if (v.warning) warnings.push(v.warning);
  }
  return warnings.length ? { context: warnings.join('\n'), notice: warnings.join('\n') } : {};
}

// verbs judged, not run (a line of their own: test/design/one-funnel.test.ts reads a git argument list on one line)
const REWRITING = new Set([
  ...['commit', 'rebase', 'reset', 'filter-branch', 'checkout', 'switch', 'branch', 'push', 'fetch', 'tag'],
  // a branch moved by plumbing (rules/rewrite.ts), a commit made by it (its message read)
  'update-ref',
  'symbolic-ref',
  'commit-tree',
  'hash-object',
]);
const MAX_COMMANDS = 2000;
// Text a write target built by expansion could be protected by: the line names a handoff file, git's directory, refs,
// git's configuration or a client's hook file (`.claude`, `.gemini`, `.codex`, …: the table in src/clients/hook-files.ts).
const PROTECTED_TEXT = /handoff|\.git|refs\/|packed-refs|memory|config\/git/i;
const COULD_PROTECT = { test: (text: string) => PROTECTED_TEXT.test(text) || NAMES_HOOK_FILE.test(text) };
const HARMLESS = new Set(['cd', 'pushd', 'popd', 'echo', 'printf', 'true', 'pwd']);

const PARSE_BUDGET_MS = 5_000;

async function shellDecision(ctx: GuardContext, command: string, cwd: string | null, budget: Budget): Promise<Decision> {
  if (command.length > MAX_COMMAND) return cannotRead(ctx, 'long', namesProtected(ctx.event.action));
  // read once: the first look's reading of this very line when it has one
  // an xargs whose input is literal words (`printf 'memory\0' | xargs -0 rm -rf`) is judged as what it runs
  const cmds = withXargsInput(ctx.shellLine ?? bounded(() => parseShell(command, cwd ?? ctx.event.cwd), PARSE_BUDGET_MS));
  // the line as read, for the command quoted as written (rules/as-written.ts): a one-command line is not read again
  const read: ReadLine | undefined =
    ctx.shellLine && ctx.event.action.type === 'shell' && command === ctx.event.action.command ? { line: command, cwd: cwd ?? ctx.event.cwd, cmds: ctx.shellLine } : undefined;
  // what the text rules read: the line as the shell reads it (quotes removed: `hand''off` is handoff)
  const whole = lineText(cmds);
  // too many commands to read one by one: refused when it names, quoted or not, what the guard protects or a pattern
  const mayReach = () => namesProtected(ctx.event.action) || /handoff|\.git|refs\/|memory|[*?[]|\bgit\b/i.test(whole);
  if (cmds.length > MAX_COMMANDS) return cannotRead(ctx, 'many', mayReach());
  // the line as written counts too (a comment naming memory): quoting can hide a word there, never add one
  const protects = COULD_PROTECT.test(whole) || COULD_PROTECT.test(command);
  const ops: FileOp[] = [];
  const interpreted = new Set<string | null>();
  let inject = false;
  // git-handoff's hook stubs, for a client whose shell turns git's hooks off (src/clients/record.ts shellHooksOff)
  let hooks: string | null = null;
  let handoff = false;
  // Variables set by earlier steps of the line (`X=1;`, `export X=1 &&`) still hold for the later ones.
  const carried: Record<string, string> = {};
  // …and the ones `unset` removed (rules/git-invocation.ts sessionEnvironmentProblem)
  const unset = new Set<string>();
  const earlier = new Earlier();
  const push = (op: FileOp) => {
    ops.push(op);
    for (const to of earlier.through(op.abs)) ops.push({ ...op, abs: to, shown: `${op.shown} (a link made earlier on this line to ${path.relative(ctx.event.cwd, to) || to})` });
  };
  for (const cmd of cmds) {
    budget.spend(0);
    Object.assign(carried, setsForLine(cmd));
    for (const a of cmd.argv[0] === 'unset' ? cmd.argv.slice(1).filter((w) => !w.startsWith('-')) : []) {
      unset.add(a);
      delete carried[a];
    }
    const unseen = cmd.unseen ? cannotRead(ctx, 'unseen', protects, cmd.unseen) : {};
    if (unseen.deny) return unseen;
    const interp = interpreterProblem(cmd, whole);
    if (interp) return { deny: interp };
    // a script the guard cannot read (`echo … | sh` of an unknown producer, `source <(…)`, `$(…)` as the program)
    const script = cmd.unread ? cannotRead(ctx, cmd.builtBy ? 'built' : 'script', protects || !!cmd.builtBy, cmd.unread, cmd.builtBy ?? '') : {};
    if (script.deny) return script;
    const git = gitInvocation(cmd);
    const runs = cmd.argv.length > 0 && !DECLARES.has(cmd.argv[0]) && !isHandoffCommand(git ?? handoffByInterpreter(cmd, whole));
    const vars = { ...carried, ...cmd.assigns };
    const variables = productVariableProblem(vars, ctx.session, runs);
    if (variables) return { deny: variables };
    const envFiles: WriteTarget[] = [];
    const here = (git?.cwd ?? cmd.cwd) || ctx.event.cwd;
    const loc = ctx.locate(here);
    const top = loc?.worktree ?? null;
    // what it does to the worktree's uncommitted state (rules/worktree.ts): every rule below reads this one answer
    const effect = git ? worktreeEffect(git, here, loc && headBranch(loc)) : null;
    if (git) {
      const show = asWritten(command, git, cmd.cwd ?? '/', read);
      const own = (what: 'git-dir' | 'work-tree', value: string) =>
        loc !== null && !expands(value) && (what === 'git-dir' ? [loc.gitDir, loc.commonDir] : [loc.worktree]).includes(path.resolve(here, value));
      const problem =
        gitEnvironmentProblem(git, cmd, vars, envFiles, own) ??
        sessionEnvironmentProblem(git, vars, [...unset, ...(cmd.unsets ?? [])], ctx.session, show) ??
        gitOptionProblem(cmd, git, own) ?? oneOffConfigProblem(git, show) ?? separateGitDirProblem(git, cmd, (d) => ctx.locate(d), show);
      if (problem) return { deny: problem };
      // a repository of git-handoff's own (the witness, an installed copy): run there, or pushed into
      if (!harmlessCommand(cmd) && !READING_VERBS.has(git.sub)) {
        const repos = await repositoriesOf(ctx, git, here, loc, earlier.remotes);
        const outside = repos.filter((r) => !loc || !(r === loc.worktree || r.startsWith(loc.worktree + path.sep)));
        // git-handoff's own folders are worked out only for a repository outside this worktree
        const problem = outside.length ? ownRepositoryProblem(ownDirsOf(ctx, loc), outside, show) : null;
        if (problem) return { deny: problem };
      }
      // the whole worktree moved to another commit: the clients' tracked hook files as that commit has them
      const target = effect?.target === '-' ? '@{-1}' : effect?.target;
      if (target && loc && !git.gitDir) {
        const repo = await ctx.repo(loc);
        const wiring = switchedWiringProblem(await perimeterOf(ctx), loc.worktree, target, show, (args) => repo.git(args, { cwd: loc.worktree, allowFail: true }));
        if (wiring) return { deny: wiring };
      }
    }
    const gitFiles = git ? gitFileTargets(git, cmd, top, effect) : [];
    const patched = patchTargets(cmd, git, (p, c) => ctx.abs(p, c), top);
    const code = interpreterWrites(cmd, whole, interpreted, ctx.env);
    if (code.unresolved) {
      const fence = await perimeterOf(ctx);
      const reaches = code.fromBase || code.strings.some((s) => namesPerimeterPart(fence, s));
      const unresolved = cannotRead(ctx, 'code', reaches, path.basename(cmd.argv[0] ?? ''), code.unresolved);
      if (unresolved.deny) return unresolved;
    }
    // what the index changed earlier on the line loses when this command makes the worktree match it (rules/earlier.ts)
    const lost = earlier.discarded(effect, top);
    if (lost.swept && git && !git.gitDir && loc) lost.targets.push(...(await statusPaths(ctx, loc)));
    for (const t of [...writeTargets(cmd), ...code.targets, ...linkSources(cmd), ...unknownWriterTargets(cmd), ...extractTargets(cmd), ...gitFiles, ...patched, ...envFiles, ...lost.targets]) {
      const refProblem = refStoreWriteProblem(t, ctx.abs(t.path, t.cwd));
      if (refProblem) return { deny: refProblem };
      const paths = expandWord(t.path, vars, t.cwd, budget);
      if (paths === null) {
        const unresolved = cannotRead(ctx, 'target', protects, t.path);
        if (unresolved.deny) return unresolved;
        continue;
      }
      for (const [i, p] of paths.entries()) {
        const abs = ctx.abs(p, t.cwd);
        if (i > 0) {
          const problem = refStoreWriteProblem({ ...t, path: p }, abs);
          if (problem) return { deny: problem };
        }
        push({ abs, shown: i === 0 ? t.path : p, kind: t.kind === 'delete' ? 'delete' : 'shell' });
        // a deleted directory or one written as a tree takes the handoff files and the perimeter's files under it (a
        // find narrowed by names reaches into them by name); through a symlink, where it leads
        const follows = t.kind !== 'delete' || /\/\.?$/.test(p) ? realOf(abs) : abs;
        const fenced = (t.kind === 'delete' || t.tree ? (await perimeterOf(ctx).then((fence) => [...new Set([abs, follows])].flatMap((d) => perimeterUnder(fence, d)))).filter((f) => pathspecCovers(t, f)) : []).flatMap((f) => [f, ...namedUnder(f, t.names, budget)]);
        const reached = [...(t.kind === 'delete' || t.tree ? (gitFiles.includes(t) ? pathspecMatches({ ...t, path: abs }, budget) : handoffFilesUnder(abs, budget)) : t.children ? handoffFilesIn(abs, budget) : []), ...fenced];
        const under = reached.filter((f) => f !== abs && namesReach(t.names, abs, f) && copiedOver(t, f, abs, vars, budget, ctx));
        // what a checkout, reset or stash writes over: only the tracked files it changes
        const changed = effect && effect.kind !== 'remove' && gitFiles.includes(t) && t.kind !== 'delete' ? await changedByCheckout(ctx, effect, under, abs) : under;
        for (const f of changed) push({ abs: f, shown: `${path.relative(ctx.event.cwd, f) || f}${t.why ? ` (${t.why})` : ''}`, kind: t.kind === 'delete' ? 'delete' : 'shell' });
      }
    }
    earlier.note(cmd, git, effect, (p, c) => {
      const e = expandWord(p, vars, c, budget);
      return e && e.length === 1 ? ctx.abs(e[0], c) : null;
    });
    if (cmd.xargs && !harmlessCommand(cmd)) {
      const problem = await unseenArgumentsProblem(ctx, cmd, budget);
      if (problem) return { deny: problem };
      noteEffect(ctx, [], `\`xargs ${cmd.argv.join(' ')}\` takes its file names from its input`);
    }
    const inv = git ?? handoffByInterpreter(cmd, whole);
    const show = () => (inv ? asWritten(command, inv, cmd.cwd ?? '/', read) : cmd.argv.join(' '));
    const run = handoffRun(cmd, inv);
    const anchored = reinstallProblem(cmd, cmd.argv.join(' ')) ?? codeRunsAnchors(cmd, whole) ?? (run ? personOnlyProblem(run, vars, ctx.session, show()) : null);
    if (anchored) return { deny: anchored };
    if (!inv) continue;
    const source = handoffSource(run, inv);
    // the repository the command works on, as git finds it (null: given by --git-dir, or none)
    const repoLoc = inv.gitDir ? null : ctx.locate((inv.cwd ?? cmd.cwd) || ctx.event.cwd);
    const carriedAway =
      anchorEnvironmentProblem(inv, carried, [...unset, ...(cmd.unsets ?? [])], ctx.env) ??
      anchorEnvironmentProblem(inv, cmd.assigns, [], ctx.env) ??
      (source !== null ? await unconfiguredSource(ctx, repoLoc, source, show) : null);
    if (carriedAway) return { deny: carriedAway };
    if (isHandoffCommand(inv)) {
      handoff = true;
      if (!ctx.session) {
        if (needsSession(inv)) return { deny: `\`${neutral(lineText([cmd]))}\` writes as a session, and ${STRANGER}. ${STRANGER_WAY}` };
        continue;
      }
      const v = judgeHandoffCommand(inv, { ...cmd, assigns: vars }, ctx.event, ctx.session, ctx.env);
      if (v.kind === 'deny') return { deny: v.reason };
      if (v.kind === 'inject') inject = true;
      continue;
    }
    if (ctx.session && commitNeedsSession(inv, ctx.event, ctx.session, ctx.env)) {
      inject = true;
      hooks ??= RECORDS[ctx.event.client].shellHooksOff ? await stubsDir(ctx, repoLoc) : null;
    }
    // shared.ts (git starts only if another live session has claims in this worktree) and rewrite.ts (it reads commits,
    // so it brings the modules that start git) are loaded only for the verbs they rule on
    const rewrite = REWRITING.has(inv.sub) ? await import('./rewrite') : null;
    const hooksPathScope = inv.sub === 'config' ? hooksPathRemovalScope(inv.args) : null;
    const problem =
      refCommandProblem(inv, cmd, whole, show()) ??
      (inv.sub === 'config' ? includedRemoteSettingProblem(inv.args, inv.cwd ?? cmd.cwd, show(), (await perimeterOf(ctx)).config) : null) ??
      (hooksPathScope && repoLoc ? await hooksPathRemoval(ctx, repoLoc, hooksPathScope, command) : null) ??
      (effect ? await untrackedProblem(ctx, inv, effect, command) : null) ??
      (effect ? await (await import('./shared')).sharedCheckoutProblem(ctx, inv, effect) : null) ??
      rewrite?.plumbingClaimProblem(inv, cmd, ctx.session, show()) ??
      // a stranger (no session read) owns no commit: every session's is another's
      (rewrite && loc && !inv.gitDir && rewrite.rewrites(inv) ? rewrite.foreignRewriteProblem(await ctx.repo(loc), inv, ctx.session ?? '', show()) : null);
    if (problem) return { deny: problem };
  }
  const files = await fileDecision(ctx, ops, budget);
  if (files.deny) return files;
  if (inject && ctx.session) return { ...injectDecision(ctx, command, cmds, hooks), ...(files.context ? { context: files.context, notice: files.notice } : {}) };
  const onPath = handoff ? pluginPathPrefix(ctx.event.client, ctx.env) : null;
  if (onPath) return { ...files, updatedInput: { ...ctx.event.toolInput, command: `${onPath} ${command}` } };
  return files;
}

/** Why a command takes handoffs from `source`, which is not a remote the person configured (git asked which there are), or null. */
async function unconfiguredSource(ctx: GuardContext, loc: Location | null, source: string, show: () => string): Promise<string | null> {
  // a scratch repository of the session's own is not the one its handoffs and other sessions' live in
  if (loc && loc.commonDir !== ctx.locate()?.commonDir) return null;
  const remotes = loc ? remoteNames(await ctx.repo(loc)) : [];
  return remotes.includes(source) ? null : unconfiguredSourceProblem(show(), source, remotes);
}

/** The paths git status lists, as deletes: what a line that changed the index wholesale may lose to a later discard. */
async function statusPaths(ctx: GuardContext, loc: Location): Promise<WriteTarget[]> {
  const repo = await ctx.repo(loc);
  const out = repo.git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'], { cwd: loc.worktree, allowFail: true }).stdout;
  return out
    .split('\0')
    .filter((e) => e.length > 3)
    .slice(0, 10_000)
    .map((e): WriteTarget => ({ path: path.join(loc.worktree, e.slice(3)), kind: 'delete', cwd: null }));
}

/** For a tree copied from a source the guard can resolve: whether the source has this file (else it is not written). */
function copiedOver(t: WriteTarget, f: string, abs: string, vars: Record<string, string>, budget: Budget, ctx: GuardContext): boolean {
  if (!t.from) return true;
  const from = expandWord(t.from, vars, t.cwd, budget);
  if (from === null || from.length !== 1 || isPattern(from[0])) return true;
  return existsSync(path.join(ctx.abs(from[0], t.cwd), path.relative(abs, f)));
}

// What the guard cannot read before the shell runs it: refused where the line could reach what the guard protects (with
// the kind's refusal, else as failing closed), otherwise allowed and noted as paths it cannot tell (claims refuse those:
// ../claims.ts). `$1`, `$2` are the words cannotRead fills in.
const CANNOT_READ: Record<string, [why: string, refusal?: string]> = {
  long: [`the command is longer than ${MAX_COMMAND / 1024} KiB`],
  many: [`the line runs more than ${MAX_COMMANDS} commands`],
  unseen: [
    '$1 is run as a command built by an expansion',
    '$1 is run as a command, and its value is built by an expansion the guard cannot see before the shell runs it, ' +
      'on a line that names handoff files, .git or refs. Give the value literally (GIT_PAGER=less git log), or run the command it stands for itself.',
  ],
  script: [
    '$1 runs commands it cannot read',
    '$1 runs commands the guard cannot read before they run, and this line names handoff files, .git or refs. ' +
      'Run those commands themselves (the guard reads them), or use `git handoff …` for handoffs.',
  ],
  // always refused: the producer on the line is known, so the commands can be given plainly
  built: [
    '',
    '$1, made on this line by `$2`, runs commands the guard cannot read before they run (their text is on the line ' +
      'in a form only `$2` shows). Run those commands themselves, as plain text, and the guard reads them.',
  ],
  code: [
    '`$1` runs code that writes files and $2',
    '`$1` runs code that writes files and $2, so the guard cannot tell which files it writes, and it may reach ' +
      "what git-handoff stands on (the home's git configuration, the clients' settings, git-handoff's own files). Name the file it writes as a plain string " +
      'in the code (or as its argument), and the guard reads it.',
  ],
  target: [
    '`$1` is built by an expansion, a pattern, or a directory changed to one',
    'the guard cannot tell which file `$1` is (it is built by an expansion, a pattern, or a directory changed to one), ' +
      'and this command names handoff files, .git or refs. Write to a literal path (cd to a literal directory first), or use `git handoff write` for a handoff.',
  ],
};

function cannotRead(ctx: GuardContext, kind: string, refuse: boolean, ...words: string[]): Decision {
  const [why, refusal] = CANNOT_READ[kind];
  const filled = (text: string) => text.replace(/\$([12])/g, (_, i: string) => words[Number(i) - 1]);
  if (refuse) return refusal ? { deny: filled(refusal) } : failClosed(filled(why));
  noteEffect(ctx, [], filled(why));
  return {};
}

/** Why this removal of core.hooksPath turns git-handoff's git hooks off (git asked where its hooks are now), or null. */
async function hooksPathRemoval(ctx: GuardContext, loc: Location, scope: string[], command: string): Promise<string | null> {
  const repo = await ctx.repo(loc);
  // the scope removed from holds no core.hooksPath: nothing changes
  if (repo.git(['config', ...scope, '--get-all', 'core.hooksPath'], { allowFail: true }).stdout.trim() === '') return null;
  const { stubsIn } = await import('../../git/hook-stub');
  return hooksPathRemovalProblem(command.trim().slice(0, 200), repo.hooksDir(), path.join(repo.commonDir, 'hooks'), stubsIn);
}

/** The folder git runs this repository's hooks from, when it holds git-handoff's stubs and can be given back as it is. */
async function stubsDir(ctx: GuardContext, loc: Location | null): Promise<string | null> {
  if (!loc) return null;
  // from the configuration cache, without git: this runs on every commit of a client whose shell turns hooks off
  const dir = hooksDirIn(loc, await ctx.config(loc), userHome(ctx.env));
  return plainHooksDir(dir) && holdsStub(dir) ? dir : null;
}

/** Adds the session to the command where the client can rewrite it safely, else refuses with the exact retry. */
function injectDecision(ctx: GuardContext, command: string, cmds: SimpleCommand[], hooks: string | null): Decision {
  const e = ctx.event;
  const session = ctx.session!;
  const onPath = e.tool === 'PowerShell' ? null : pluginPathPrefix(e.client, ctx.env);
  const rewritten = `${onPath ? `${onPath} ` : ''}${sessionPrefix(session, e.client, e.tool === 'PowerShell', hooks)} ${command}`;
  const onlyHandoff = cmds.every((c) => c.argv.length === 0 || HARMLESS.has(path.basename(c.argv[0])) || isHandoffCommand(gitInvocation(c)));
  // a client that runs a rewritten input without asking: only a command made of git handoff steps may go that way
  const canRewrite = RECORDS[e.client].runsAnyRewrite === true || (RECORDS[e.client].runsHandoffRewrite === true && onlyHandoff);
  if (canRewrite) {
    return { updatedInput: { ...e.toolInput, command: rewritten }, context: `git-handoff: ran as session ${session} (GIT_HANDOFF_SESSION added to the command)` };
  }
  return {
    deny:
      `this shell does not know your session id, so git handoff would refuse to write. You are session ${session}. ` +
      `Run exactly this instead:\n${rewritten}`,
  };
}
