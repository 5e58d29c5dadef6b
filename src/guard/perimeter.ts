// The ground prevention stands on, computed for each call from git and the clients rather than listed by name: git's
// directories, every configuration file git reads here, every client's hook files, the guard's own state, git-handoff
// where it is installed, and PATH's places ahead of what it runs by name (SECURITY.md). A write, move, delete, link or
// checkout over any of them is refused with what a person runs instead; an edit of a client's settings that keeps the
// guard's wiring may pass.
import path from 'node:path';
import { hookFiles, keepsFile, keepsWiring, keptThere, type HookFile } from '../clients/hook-files';
import { worktreesOf } from '../git/refs-read';
import { neutral } from '../terminal-text';
import type { GuardContext } from './context';
import { configFiles, userConfigFiles } from '../git/config-files';
import { includedFiles, type Location } from './locate';
import type { FileOp } from './rules/files';
import { refStoreWriteProblem } from './rules/refs';
import { userDirs, userHome } from '../user-dirs';
import { installedDirs, pathProgramNames, pathShadows, under } from './path-programs';
import { readTextOr, realpathOr } from '../read-file';

export interface Perimeter {
  gitDirs: string[]; // the repository's own and common git directories, as named and resolved
  config: Set<string>; // configuration files git reads here
  hooks: HookFile[];
  hookDirs: HookFile[]; // directories whose JSON files a client reads hooks from
  pluginDirs: HookFile[]; // directories whose every module a client loads around its tools
  state: string[]; // the guard's own state outside the git directory
  installed: () => string[]; // git-handoff's installed folders, worked out when a path outside the worktree asks
  programs: () => string[]; // where a file on PATH would run in place of a program run by name
  worktree: string | null;
}

/** Whether a path (as named and as its links lead) is inside the call's worktree, where no installation is counted. */
const inWorktree = (p: Perimeter, abs: string) => p.worktree !== null && under(abs, p.worktree) && under(realpathOr(abs), realpathOr(p.worktree));
/** Whether a path, as named or as its links lead, is under `dir`. */
const reaches = (abs: string, dir: string) => under(abs, dir) || under(realpathOr(abs), dir);

/** The perimeter for the repository at `loc` (null: none) and this user: git is asked nothing beyond the cached settings. */
export async function computePerimeter(ctx: GuardContext, loc: Location | null): Promise<Perimeter> {
  const env = ctx.env;
  const home = userHome(env);
  const config = new Set<string>();
  // the user's and the system's files whatever this process's environment says: the session's git may read them
  for (const f of userConfigFiles(env)) config.add(path.resolve(f.file));
  const gitDirs: string[] = [];
  if (loc) {
    for (const f of configFiles(loc, env)) config.add(path.resolve(f));
    for (const f of includedFiles(await ctx.config(loc))) config.add(path.resolve(f));
    for (const d of new Set([loc.gitDir, loc.commonDir, realpathOr(loc.gitDir), realpathOr(loc.commonDir)])) gitDirs.push(d);
  }
  for (const f of [...config]) config.add(realpathOr(f));
  // every worktree's wiring and the clients' trust files, from the client records
  const { files, dirs, plugins } = hookFiles(loc ? worktreesOf(loc.commonDir, loc.worktree) : [], home, env);
  const state = userDirs(env);
  let installed: string[] | undefined;
  let programs: string[] | undefined;
  const worktree = loc?.worktree ?? null;
  return {
    gitDirs,
    config,
    hooks: files,
    hookDirs: dirs,
    pluginDirs: plugins,
    state,
    installed: () => (installed ??= installedDirs(worktree, ctx.event.cwd, env)),
    programs: () => (programs ??= pathShadows(env, ctx.event.cwd)),
    worktree,
  };
}

/** A file tool's edits applied to a text (each replacement at its first place, and everywhere: both must keep the wiring). */
const edited = (text: string, edits: Array<{ oldText: string; newText: string }>, all: boolean): string | null => {
  let out = text;
  for (const e of edits) {
    if (e.oldText === '') return null;
    if (!out.includes(e.oldText)) continue; // the tool refuses an edit whose text is not there: nothing changes
    out = all ? out.split(e.oldText).join(e.newText) : out.replace(e.oldText, () => e.newText);
  }
  return out;
};

/** The way on for what only the person changes: from their own terminal, never from a session (the guard refuses it there). */
const PERSON_WAY = 'Only the person changes this, from their own terminal (git-handoff refuses it to sessions): tell them what you need and why.';
const HOOKS_WAY = `What git-handoff wires is changed by \`git handoff install|uninstall --agent <client>\`, which only the person runs. ${PERSON_WAY}`;

/** Why one operation writes, moves or deletes the perimeter, or null; `op.abs` already has its symlinks resolved when they lead elsewhere. */
export function perimeterProblem(p: Perimeter, op: FileOp): string | null {
  const abs = path.resolve(op.abs);
  const shown = neutral(op.shown);
  const kind = op.kind === 'delete' ? 'delete' : 'write';
  // git's directory wherever it is: judged as if it were named `.git` (a separate git dir names nothing so)
  for (const d of p.gitDirs) {
    if (under(abs, d)) {
      const problem = refStoreWriteProblem({ path: op.shown, kind, cwd: null }, path.join(path.sep, '.git', path.relative(d, abs)));
      if (problem) return problem;
    }
  }
  for (const f of p.config) {
    if (abs === f) {
      return (
        `${shown} is a configuration file git reads in this repository (${neutral(f)}): writing it can set keys that run programs, turn git's hooks off (core.hooksPath) or the guard (handoff.guard). ` +
        `Set a key with \`git config [--global] <key> <value>\`, which the guard checks; ask the person for anything else (by hand, with GIT_HANDOFF_BYPASS=1 if they choose to).`
      );
    }
  }
  const state = p.state.find((d) => reaches(abs, d));
  if (state) return `${shown} is git-handoff's own state under ${neutral(state)} (its per-user key and caches, the loss record's witness, the plugin copies): only git-handoff writes it. ${PERSON_WAY}`;
  const installed = inWorktree(p, abs) ? undefined : p.installed().find((d) => reaches(abs, d));
  if (installed) return `${shown} is part of git-handoff itself, installed at ${neutral(installed)} (the guard every tool call runs, its hooks and plugins): only the person installs, upgrades or removes it. ${PERSON_WAY}`;
  // a program's name ahead of it on PATH (a delete takes a stand-in away, or the program as the person's system has it)
  if (op.kind !== 'delete' && pathProgramNames().includes(path.basename(abs)) && p.programs().some((f) => f === abs || f === realpathOr(abs))) {
    return `${shown} is where a program git-handoff's guard or git hooks run by name (${neutral(path.basename(abs))}) is found on PATH, or would be found ahead of it: a file there runs in its place on every later tool call or commit. ${PERSON_WAY}`;
  }
  for (const h of p.hooks) {
    // a directory deleted or written whole is judged on the files of the perimeter under it (perimeterUnder, by the rule that reads the command)
    if (abs !== h.file) continue;
    const before = readTextOr(h.file);
    if (op.kind === 'write' || op.kind === 'edit') {
      const afters = op.kind === 'write' ? [op.content ?? ''] : before === null ? [null] : [edited(before, op.edits ?? [], false), edited(before, op.edits ?? [], true)];
      if (afters.every((a) => a !== null && keepsFile(h, before, a))) continue;
      return (
        `${shown} is ${keptThere(h)}, and this ${op.kind} would ${h.trust ? 'change it' : "remove or change git-handoff's guard there or switch hooks off (disableAllHooks and the like)"}. ` +
        `Change the rest of the file and keep the git-handoff entries and hook switches as they are. ${HOOKS_WAY}`
      );
    }
    if (op.kind === 'delete' && before === null) continue;
    return `${shown} is ${keptThere(h)}: a shell command's write or removal cannot be checked to keep git-handoff's guard wired. Edit it with your file tool (the guard checks the result). ${HOOKS_WAY}`;
  }
  for (const d of p.pluginDirs) {
    if (path.dirname(abs) === d.file && (d.every || /\.[cm]?[jt]s$/.test(abs)) && !p.hooks.some((h) => h.file === abs)) {
      return `${shown} is a ${d.every ? 'hook' : 'module'} ${d.client} runs around every tool call (${neutral(d.file)}): one written there runs in later sessions beside git-handoff's and may change a call after the guard judged it. Ask the person to add it. ${HOOKS_WAY}`;
    }
  }
  for (const d of p.hookDirs) {
    if (path.dirname(abs) === d.file && abs.endsWith('.json') && (op.kind === 'shell' || op.kind === 'delete')) {
      const before = readTextOr(abs);
      if (before !== null && /git[- ]handoff/.test(before)) return `${shown} is a hooks file ${d.client} reads (${neutral(d.file)}) that wires git-handoff's guard: a shell command's write or removal cannot be checked to keep it. ${HOOKS_WAY}`;
    }
  }
  return null;
}

/**
 * The perimeter's files and directories under a directory a command deletes or writes as a tree (for the rule that
 * walks what a target reaches, which narrows them as it narrows handoff files: find's -name, a copy's source).
 */
export function perimeterUnder(p: Perimeter, dir: string): string[] {
  const abs = path.resolve(dir);
  const out: string[] = [];
  for (const f of [...p.config, ...p.hooks.map((h) => h.file), ...p.state, ...(inWorktree(p, abs) ? [] : p.installed()), ...p.gitDirs, ...p.programs()]) if (f !== abs && under(f, abs)) out.push(f);
  return out;
}

/**
 * Whether a string of code names a part of the perimeter: the tail of one of its paths (`.gitconfig`, `.claude/settings.json`,
 * `git-handoff`, `config`), so that a path the code builds around it may land there.
 */
export function namesPerimeterPart(p: Perimeter, s: string): boolean {
  const tail = s.replace(/^(\.?\/)+|\/+$/g, '');
  if (tail === '' || tail === '.' || tail === '..') return false;
  const all = [...p.config, ...p.hooks.map((h) => h.file), ...p.hookDirs.map((h) => h.file), ...p.pluginDirs.map((h) => h.file), ...p.state, ...p.installed(), ...p.gitDirs, ...p.programs()];
  return all.some((f) => f.endsWith(path.sep + tail) || f.includes(path.sep + tail + path.sep));
}

/**
 * Why a git command that is not a plain read works on a repository of git-handoff's own (the loss record's witness, an
 * installed copy) — run there (`-C`, `cd`, `--git-dir`, GIT_DIR) or pushing into it (`git push <witness dir> …`, a
 * remote whose URL leads there) — or null. `repos`: the directories the command's repository and destinations name;
 * `own`: git-handoff's folders (its state and where it is installed).
 */
export function ownRepositoryProblem(own: string[], repos: string[], shown: string): string | null {
  for (const r of repos) {
    const hit = own.find((d) => reaches(path.resolve(r), d));
    if (hit) {
      return (
        `\`${neutral(shown)}\` changes a repository of git-handoff's own under ${neutral(hit)} (the loss record's witness, which recovery trusts, or an installed copy): only git-handoff writes there. ` +
        `Read it if you need to (git --git-dir=<dir> log); ${PERSON_WAY}`
      );
    }
  }
  return null;
}

/**
 * Why moving the worktree to `target` (a commit, as git names it) changes a client's tracked hook file so that the
 * guard's wiring goes or a hook switch turns (`git checkout <an old commit>` without `.claude/`, `git reset --hard` to
 * one whose settings say `disableAllHooks`), or null. `read(args)` runs git in the worktree.
 */
export function switchedWiringProblem(p: Perimeter, worktree: string, target: string, shown: string, read: (args: string[]) => { stdout: string; status: number }): string | null {
  const files = p.hooks.filter((h) => under(h.file, worktree) && h.file !== worktree);
  if (!files.length) return null;
  const rel = files.map((h) => path.relative(worktree, h.file));
  const commit = read(['rev-parse', '--verify', '-q', `${target}^{commit}`]).stdout.trim();
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return null;
  const changed = new Set(read(['diff', '--name-only', '-z', 'HEAD', commit, '--', ...rel.map((r) => `:(literal)${r}`)]).stdout.split('\0').filter(Boolean));
  for (const [i, h] of files.entries()) {
    if (!changed.has(rel[i])) continue;
    const before = readTextOr(h.file);
    // the file as that commit has it (one cat-file: a path it does not hold fails), null when absent there
    const blob = read(['cat-file', 'blob', `${commit}:${rel[i]}`]);
    const there = blob.status === 0 ? blob.stdout : null;
    const after = there ?? (h.file.endsWith('.json') ? '{}' : '');
    if (before === null ? there === null || keepsWiring(h.file, null, after) : keepsWiring(h.file, before, after)) continue;
    return (
      `\`${neutral(shown)}\` moves the worktree to ${neutral(target)}, where ${neutral(rel[i])} (where ${h.client} reads its hooks) ${there === null ? 'is absent' : 'differs'}: ` +
      `git-handoff's guard would no longer be wired there, or hooks would be switched off, for every later session. ` +
      `Take the files you need from it (\`git show ${neutral(target)}:<path>\`, \`git checkout ${neutral(target)} -- <path>\` for paths outside the clients' folders), or ask the person. ${HOOKS_WAY}`
    );
  }
  return null;
}
