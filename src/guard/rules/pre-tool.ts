// Before a tool runs: the rules of SPEC 6 on the normalized event. Cheap checks come first; git is started
// only for a command that can rewrite commits, and the config only for a path that could be protected.
import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { GuardContext } from '../context';
import type { Decision } from '../event';
import { bounded, failClosed, MAX_COMMAND, namesProtected } from '../fail-closed';
import { globMatch, isGlob } from '../glob';
import { gitInvocation, parseShell, SHELLS, writeTargets, type SimpleCommand } from '../shell';
import { isProtected, judgeFile, parsePatch, type FileOp } from './files';
import { interpreterWrites } from './interpreter-writes';
import { isHandoffCommand, judgeHandoffCommand, sessionPrefix } from './inject';
import { pluginPathPrefix } from '../plugin-active';
import { interpreterProblem, refCommandProblem, refStoreWriteProblem } from './refs';

export async function preTool(ctx: GuardContext): Promise<Decision> {
  const a = ctx.event.action;
  if (a.type === 'write') return fileDecision(ctx, [{ abs: ctx.abs(a.path), shown: a.path, kind: 'write', content: a.content }]);
  if (a.type === 'edit') return fileDecision(ctx, [{ abs: ctx.abs(a.path), shown: a.path, kind: 'edit', edits: a.edits }]);
  if (a.type === 'patch') return fileDecision(ctx, patchOps(ctx, a.patch, a.cwd));
  if (a.type === 'shell') return shellDecision(ctx, a.command, a.cwd);
  return {};
}

function patchOps(ctx: GuardContext, patch: string, cwd: string | null): FileOp[] {
  const ops: FileOp[] = [];
  for (const f of parsePatch(patch)) {
    const abs = ctx.abs(f.path, cwd);
    if (f.op === 'add') ops.push({ abs, shown: f.path, kind: 'write', content: f.added.join('\n') });
    else if (f.op === 'delete') ops.push({ abs, shown: f.path, kind: 'delete' });
    else {
      ops.push({ abs, shown: f.path, kind: 'edit', edits: [{ oldText: f.removed.join('\n'), newText: f.added.join('\n') }] });
      if (f.moveTo) {
        ops.push({ abs, shown: f.path, kind: 'delete' });
        ops.push({ abs: ctx.abs(f.moveTo, cwd), shown: f.moveTo, kind: 'shell' });
      }
    }
  }
  return ops;
}

/** A path with its symlinks resolved (the part that exists; the rest appended), so a link cannot hide a protected file. */
export function realOf(abs: string): string {
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

async function fileDecision(ctx: GuardContext, given: FileOp[]): Promise<Decision> {
  const warnings: string[] = [];
  // a symlinked directory or file is judged where it leads as well as where it is named
  const ops = given.flatMap((op) => {
    const real = realOf(op.abs);
    return real === op.abs ? [op] : [op, { ...op, abs: real }];
  });
  for (const op of ops) {
    const refProblem = refStoreWriteProblem({ path: op.shown, kind: op.kind === 'delete' ? 'delete' : 'write', cwd: null }, op.abs);
    if (refProblem) return { deny: refProblem };
    if (!(await isProtected(ctx, op.abs))) continue;
    if (!ctx.session) continue;
    const v = judgeFile(ctx, op, ctx.session);
    if (v.deny) return { deny: v.deny };
    if (v.warning) warnings.push(v.warning);
  }
  return warnings.length ? { context: warnings.join('\n'), notice: warnings.join('\n') } : {};
}

const REWRITING = new Set(['commit', 'rebase', 'reset', 'filter-branch']);
const SWEEP_VERBS = new Set(['add', 'commit', 'stash', 'checkout', 'switch', 'reset', 'restore', 'clean', 'read-tree', 'checkout-index', 'rm', 'mv']);
/** More simple commands than this on one line are not read one by one (a bound, like MAX_COMMAND). */
const MAX_COMMANDS = 2000;
// Text a write target built by expansion could be protected by: the line names a handoff file, git's directory or refs.
const COULD_PROTECT = /handoff|\.git|refs\/|packed-refs|memory/;
const MAX_ALTERNATIVES = 64;

/** `a{b,c}d` → `abd`, `acd` (nested and several groups; bounded); text without a brace list as it is. */
export function braces(word: string, budget = { n: MAX_ALTERNATIVES }): string[] {
  const open = word.indexOf('{');
  if (open < 0) return [word];
  let depth = 0;
  const cuts: number[] = [];
  let close = -1;
  for (let i = open; i < word.length && close < 0; i++) {
    const c = word[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) close = i;
    else if (c === ',' && depth === 1) cuts.push(i);
  }
  if (close < 0 || cuts.length === 0) {
    // not a list: keep the brace as text and expand what follows
    return braces(word.slice(open + 1), budget).map((t) => word.slice(0, open + 1) + t);
  }
  const parts: string[] = [];
  let from = open + 1;
  for (const c of [...cuts, close]) {
    parts.push(word.slice(from, c));
    from = c + 1;
  }
  const out: string[] = [];
  for (const part of parts) {
    for (const t of braces(word.slice(0, open) + part + word.slice(close + 1), budget)) {
      if (--budget.n < 0) return out;
      out.push(t);
    }
  }
  return out;
}

/**
 * The files a write target names once the shell expands it (variables set earlier on the line, brace lists, globs
 * matched against the directory), or null when that cannot be known statically (an unknown variable, a glob in a
 * directory part, a directory changed to an unknown place).
 */
function expandTarget(target: string, vars: Record<string, string>, cwd: string | null): string[] | null {
  const t = target.replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a, b) => (Object.hasOwn(vars, a ?? b) ? vars[a ?? b] : m));
  if (/[$`]/.test(t) || (cwd === null && !path.isAbsolute(t))) return null;
  const out: string[] = [];
  for (const alt of braces(t)) {
    out.push(alt);
    if (!isGlob(alt)) continue;
    const dir = path.dirname(alt);
    if (isGlob(dir)) return null;
    let names: string[];
    try {
      names = readdirSync(path.resolve(cwd ?? '/', dir));
    } catch {
      names = [];
    }
    for (const n of names.slice(0, 2000)) if (globMatch(path.basename(alt), n)) out.push(path.join(dir, n));
  }
  return out;
}
const DECLARES = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
const HARMLESS = new Set(['cd', 'pushd', 'popd', 'echo', 'printf', 'true', 'pwd']);

/** handoff-*.md files under a directory (a bounded walk; nothing for a file or a missing path; .git and node_modules skipped). */
function handoffFilesUnder(dir: string, depth = 0, budget = { n: 2000 }): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (--budget.n < 0) break;
    const p = path.join(dir, e.name);
    if (e.isFile() && /^handoff-.*\.md$/.test(e.name)) out.push(p);
    else if (e.isDirectory() && depth < 6 && e.name !== '.git' && e.name !== 'node_modules') out.push(...handoffFilesUnder(p, depth + 1, budget));
  }
  return out;
}

/** How long reading one command line may take (the guard's whole budget is WATCHDOG_MS). */
const PARSE_BUDGET_MS = 5_000;

async function shellDecision(ctx: GuardContext, command: string, cwd: string | null): Promise<Decision> {
  // bounded input: a command too long to read is refused when it names protected things, allowed otherwise
  if (command.length > MAX_COMMAND) return namesProtected(ctx.event.action) ? failClosed(`the command is longer than ${MAX_COMMAND / 1024} KiB`) : {};
  const cmds = bounded(() => parseShell(command, cwd ?? ctx.event.cwd), PARSE_BUDGET_MS);
  if (cmds.length > MAX_COMMANDS) return namesProtected(ctx.event.action) ? failClosed(`the line runs more than ${MAX_COMMANDS} commands`) : {};
  const ops: FileOp[] = [];
  let inject = false;
  let handoff = false;
  // Variables set by earlier steps of the line (`X=1;`, `export X=1 &&`) still hold for the later ones.
  const carried: Record<string, string> = {};
  for (const cmd of cmds) {
    if (cmd.argv.length === 0) Object.assign(carried, cmd.assigns);
    else if (DECLARES.has(cmd.argv[0])) {
      for (const a of cmd.argv.slice(1)) if (/^[A-Za-z_]\w*=/.test(a)) carried[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
    }
    const interp = interpreterProblem(cmd, command, SHELLS);
    if (interp) return { deny: interp };
    for (const t of [...writeTargets(cmd), ...interpreterWrites(cmd, command, SHELLS)]) {
      const refProblem = refStoreWriteProblem(t, ctx.abs(t.path, t.cwd));
      if (refProblem) return { deny: refProblem };
      const paths = expandTarget(t.path, { ...carried, ...cmd.assigns }, t.cwd);
      if (paths === null) {
        if (COULD_PROTECT.test(command)) return { deny: unresolvedTarget(t.path) };
        continue;
      }
      for (const p of paths.slice(1)) {
        const problem = refStoreWriteProblem({ ...t, path: p }, ctx.abs(p, t.cwd));
        if (problem) return { deny: problem };
        ops.push({ abs: ctx.abs(p, t.cwd), shown: p, kind: t.kind === 'delete' ? 'delete' : 'shell' });
      }
      const abs = ctx.abs(paths[0], t.cwd);
      ops.push({ abs, shown: t.path, kind: t.kind === 'delete' ? 'delete' : 'shell' });
      // `rm -r dir`, `find dir … -delete`: the handoff files under a deleted directory are deleted too.
      const named = t.names;
      if (t.kind === 'delete') for (const f of handoffFilesUnder(abs)) if (!named || named.some((g) => globMatch(g, path.basename(f)))) ops.push({ abs: f, shown: path.relative(ctx.event.cwd, f) || f, kind: 'delete' });
    }
    const inv = gitInvocation(cmd) ?? handoffByInterpreter(cmd, command);
    if (!inv) continue;
    if (isHandoffCommand(inv)) {
      handoff = true;
      if (!ctx.session) continue;
      const v = judgeHandoffCommand(inv, { ...cmd, assigns: { ...carried, ...cmd.assigns } }, ctx.event, ctx.session, ctx.env);
      if (v.kind === 'deny') return { deny: v.reason };
      if (v.kind === 'inject') inject = true;
      continue;
    }
    const refProblem = refCommandProblem(inv, cmd, command);
    if (refProblem) return { deny: refProblem };
    if (SWEEP_VERBS.has(inv.sub)) {
      // Loaded only for these verbs; git starts only if another live session has claims in this worktree.
      const { sweepOf, sharedCheckoutProblem } = await import('./shared');
      const loc = ctx.locate(inv.cwd ?? cmd.cwd ?? ctx.event.cwd);
      // `git add <a file another live session wrote>` names its paths: src/guard/rules/peer-stage.ts
      const sweep = loc ? (sweepOf(inv, cmd, ctx.event.cwd, ctx.branch(loc)) ?? (await import('./peer-stage')).namedAddSweep(inv, cmd, ctx.event.cwd, loc, ctx.session)) : null;
      const problem = sweep ? await sharedCheckoutProblem(ctx, inv, sweep) : null;
      if (problem) return { deny: problem };
    }
    if (ctx.session && REWRITING.has(inv.sub)) {
      // Loaded only here: it reads commits, so it brings the modules that start git.
      const { foreignRewriteProblem, rewrites } = await import('./rewrite');
      const loc = ctx.locate(inv.cwd ?? cmd.cwd ?? ctx.event.cwd);
      if (loc && !inv.gitDir && rewrites(inv)) {
        const problem = foreignRewriteProblem(await ctx.repo(loc), inv, ctx.session);
        if (problem) return { deny: problem };
      }
    }
  }
  const files = await fileDecision(ctx, ops);
  if (files.deny) return files;
  if (inject && ctx.session) return { ...injectDecision(ctx, command, cmds), ...(files.context ? { context: files.context, notice: files.notice } : {}) };
  const onPath = handoff ? pluginPathPrefix(ctx.event.client, ctx.env) : null;
  if (onPath) return { ...files, updatedInput: { ...ctx.event.toolInput, command: `${onPath} ${command}` } };
  return files;
}

/** The refusal for a write whose target the guard cannot resolve, on a line that names something it protects. */
const unresolvedTarget = (target: string) =>
  `the guard cannot tell which file \`${target}\` is (it is built by an expansion, a pattern, or a directory changed to one), ` +
  `and this command names handoff files, .git or refs. Write to a literal path (cd to a literal directory first), or use \`git handoff write\` for a handoff.`;

const RUNTIMES = /^(node|nodejs|bun|deno|tsx|ts-node)(\d[\d.]*)?$/;

/** `node "$(command -v git-handoff)" write …`, `node …/dist/cli.cjs write …`: git-handoff's CLI run by its runtime. */
function handoffByInterpreter(cmd: SimpleCommand, whole: string) {
  const prog = cmd.argv[0] ? path.basename(cmd.argv[0]) : '';
  if (!RUNTIMES.test(prog)) return null;
  let i = 1;
  while (i < cmd.argv.length && cmd.argv[i].startsWith('-')) i++;
  if (prog === 'deno' && cmd.argv[i] === 'run') for (i++; i < cmd.argv.length && cmd.argv[i].startsWith('-'); ) i++;
  const script = cmd.argv[i];
  if (script === undefined) return null;
  const named = /handoff/i.test(script) || (/[$`]/.test(script) && /handoff/i.test(whole)) || /(^|\/)dist\/(cli|fast)\.cjs$/.test(script);
  return named ? { sub: 'handoff', args: cmd.argv.slice(i + 1), cwd: cmd.cwd, gitDir: null } : null;
}

/** Adds the session to the command where the client can rewrite it safely, else refuses with the exact retry. */
function injectDecision(ctx: GuardContext, command: string, cmds: SimpleCommand[]): Decision {
  const e = ctx.event;
  const session = ctx.session!;
  const onPath = e.tool === 'PowerShell' ? null : pluginPathPrefix(e.client, ctx.env);
  const rewritten = `${onPath ? `${onPath} ` : ''}${sessionPrefix(session, e.client, e.tool === 'PowerShell')} ${command}`;
  const onlyHandoff = cmds.every((c) => c.argv.length === 0 || HARMLESS.has(path.basename(c.argv[0])) || isHandoffCommand(gitInvocation(c)));
  // Claude Code and Codex run a rewritten input without asking; only a command made of git handoff steps may go that way.
  const canRewrite = e.client === 'gemini-cli' || ((e.client === 'claude-code' || e.client === 'codex') && onlyHandoff);
  if (canRewrite) {
    return { updatedInput: { ...e.toolInput, command: rewritten }, context: `git-handoff: ran as session ${session} (GIT_HANDOFF_SESSION added to the command)` };
  }
  return {
    deny:
      `this shell does not know your session id, so git handoff would refuse to write. You are session ${session}. ` +
      `Run exactly this instead:\n${rewritten}`,
  };
}
