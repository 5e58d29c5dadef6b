// Before a tool runs: the rules of SPEC 6 on the normalized event. Cheap checks come first; git is started
// only for a command that can rewrite commits, and the config only for a path that could be protected.
import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { GuardContext } from '../context';
import type { Decision } from '../event';
import { gitInvocation, parseShell, SHELLS, writeTargets, type SimpleCommand } from '../shell';
import { isProtected, judgeFile, parsePatch, type FileOp } from './files';
import { isHandoffCommand, judgeHandoffCommand, sessionPrefix } from './inject';
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

async function fileDecision(ctx: GuardContext, ops: FileOp[]): Promise<Decision> {
  const warnings: string[] = [];
  for (const op of ops) {
    const refProblem = refStoreWriteProblem({ path: op.shown, kind: op.kind === 'delete' ? 'delete' : 'write', cwd: null }, op.abs);
    if (refProblem) return { deny: refProblem };
    if (!(await isProtected(ctx, op.abs))) continue;
    if (!ctx.session) continue;
    const v = judgeFile(ctx, op, ctx.session);
    if (v.deny) return { deny: v.deny };
    if (v.warning) warnings.push(v.warning);
  }
  return warnings.length ? { context: warnings.join('\n') } : {};
}

const REWRITING = new Set(['commit', 'rebase', 'reset', 'filter-branch']);
const SWEEP_VERBS = new Set(['add', 'commit', 'stash', 'checkout', 'switch', 'reset', 'restore', 'clean']);
const DECLARES = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
const HARMLESS = new Set(['cd', 'pushd', 'popd', 'echo', 'printf', 'true', 'pwd']);

/** find's -name glob as a regular expression over a file name. */
function globRe(g: string): RegExp {
  try {
    return new RegExp(`^${g.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  } catch {
    return /^/; // a glob we cannot read may match anything
  }
}

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

async function shellDecision(ctx: GuardContext, command: string, cwd: string | null): Promise<Decision> {
  const cmds = parseShell(command, cwd ?? ctx.event.cwd);
  const ops: FileOp[] = [];
  let inject = false;
  // Variables set by earlier steps of the line (`X=1;`, `export X=1 &&`) still hold for the later ones.
  const carried: Record<string, string> = {};
  for (const cmd of cmds) {
    if (cmd.argv.length === 0) Object.assign(carried, cmd.assigns);
    else if (DECLARES.has(cmd.argv[0])) {
      for (const a of cmd.argv.slice(1)) if (/^[A-Za-z_]\w*=/.test(a)) carried[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
    }
    const interp = interpreterProblem(cmd, command, SHELLS);
    if (interp) return { deny: interp };
    for (const t of writeTargets(cmd)) {
      const abs = ctx.abs(t.path, t.cwd);
      const refProblem = refStoreWriteProblem(t, abs);
      if (refProblem) return { deny: refProblem };
      ops.push({ abs, shown: t.path, kind: t.kind === 'delete' ? 'delete' : 'shell' });
      // `rm -r dir`, `find dir … -delete`: the handoff files under a deleted directory are deleted too.
      const named = t.names?.map(globRe);
      if (t.kind === 'delete') for (const f of handoffFilesUnder(abs)) if (!named || named.some((re) => re.test(path.basename(f)))) ops.push({ abs: f, shown: path.relative(ctx.event.cwd, f) || f, kind: 'delete' });
    }
    const inv = gitInvocation(cmd);
    if (!inv) continue;
    if (isHandoffCommand(inv)) {
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
      const sweep = loc ? sweepOf(inv, cmd, ctx.event.cwd, ctx.branch(loc)) : null;
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
  if (inject && ctx.session) return { ...injectDecision(ctx, command, cmds), ...(files.context ? { context: files.context } : {}) };
  return files;
}

/** Adds the session to the command where the client can rewrite it safely, else refuses with the exact retry. */
function injectDecision(ctx: GuardContext, command: string, cmds: SimpleCommand[]): Decision {
  const e = ctx.event;
  const session = ctx.session!;
  const rewritten = `${sessionPrefix(session, e.client, e.tool === 'PowerShell')} ${command}`;
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
