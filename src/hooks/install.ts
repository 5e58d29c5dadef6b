// Installs the git hook stubs into the hooks directory, chaining what was there before: the previous hook
// is renamed to <hook>.handoff-chained (bytes and mode untouched) and renamed back by uninstall.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { readJsonOr, realpathOr } from '../read-file';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';
import { shellQuote } from '../terminal-text';
import { handoffDir } from '../handoff/state/paths';
import { withStubLines } from './stub-lines';
import { CHAINED_SUFFIX, HOOK_NAMES, holdsStub, isStub, stubsIn } from '../git/hook-stub';

/** Where other hook managers keep a hook they replaced (lefthook: .old, pre-commit: .legacy). */
const MANAGER_SUFFIXES = ['.old', '.legacy'];
const BIN_LINE = /^GIT_HANDOFF_BIN=.*$/m;

/** The launcher the stubs call: this process's bin/git-handoff (a symlink to it is kept as is). */
function defaultLauncher(): string {
  const argv1 = process.argv[1];
  if (argv1 && path.basename(argv1) === 'git-handoff' && existsSync(argv1)) return path.resolve(argv1);
  return path.resolve(__dirname, '..', 'bin', 'git-handoff');
}

function templatePath(): string {
  for (const p of [path.resolve(__dirname, '..', 'git-hooks', 'stub.sh'), path.resolve(__dirname, '..', '..', 'git-hooks', 'stub.sh')]) {
    if (existsSync(p)) return p;
  }
  throw new HandoffError('internal', 'stub-missing', `the hook stub template git-hooks/stub.sh is missing next to ${__dirname}; reinstall git-handoff`);
}

/** The stub's text with the launcher's absolute path recorded (the stub falls back to git-handoff on PATH) and its lines from TypeScript. */
export function stubText(launcher = defaultLauncher()): string {
  return withStubLines(readFileSync(templatePath(), 'utf8').replace(BIN_LINE, () => `GIT_HANDOFF_BIN=${shellQuote(launcher)}`));
}

/** Whether a file or a link is there (a link to nothing too). */
const exists = (p: string) => lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/** The launcher path a stub records, or null. */
function recordedLauncher(p: string): string | null {
  const m = BIN_LINE.exec(readFileSync(p, 'utf8'));
  const v = m ? m[0].slice('GIT_HANDOFF_BIN='.length) : '';
  return v.length > 2 ? v.slice(1, -1).replace(/'\\''/g, "'") : null;
}

/** Same bytes and mode: a regenerated copy of the hook that is already chained. */
function sameFile(a: string, b: string): boolean {
  try {
    return statSync(a).mode === statSync(b).mode && readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

const chainOccupied = (hook: string, chained: string) =>
  new HandoffError('environment', 'chain-occupied', `cannot chain ${hook}: ${chained} already exists and differs. Move one of them away, then run install again.`, { hook, chained });

/** Installs one stub into `hooksDir` (a bare server's too), chaining a foreign hook; returns what it did. */
export function installStub(hooksDir: string, name: string, launcher = defaultLauncher()): string {
  const hook = path.join(hooksDir, name);
  const chained = hook + CHAINED_SUFFIX;
  const text = stubText(launcher);
  mkdirSync(hooksDir, { recursive: true });
  let action: string;
  if (isStub(hook)) {
    if (readFileSync(hook, 'utf8') === text && (statSync(hook).mode & 0o111) !== 0) return `${name}: already installed`;
    action = `${name}: stub updated`;
  } else if (exists(hook) && exists(chained) && sameFile(hook, chained)) {
    // A hook manager rewrote its hook over our stub (husky regenerates .husky/_): the chained copy already holds those bytes.
    unlinkSync(hook);
    action = `${name}: reinstalled over a regenerated copy of ${path.basename(chained)}`;
  } else if (exists(hook)) {
    if (exists(chained)) throw chainOccupied(hook, chained);
    renameSync(hook, chained);
    action = `${name}: installed; the existing hook runs after it (kept as ${path.basename(chained)})`;
  } else {
    action = `${name}: installed`;
  }
  const tmp = `${hook}.handoff-tmp`;
  writeFileSync(tmp, text, { mode: 0o755 });
  chmodSync(tmp, 0o755);
  renameSync(tmp, hook);
  return action;
}

/** git-handoff's own stubs here brought up to this build, each with its launcher and chained hook; one line each rewritten. */
export function refreshStubs(repo: Repo): string[] {
  const dir = repo.hooksDir();
  const out: string[] = [];
  for (const name of HOOK_NAMES) {
    const hook = path.join(dir, name);
    if (!isStub(hook) || !lstatSync(hook).isFile()) continue;
    const recorded = recordedLauncher(hook);
    const launcher = recorded && existsSync(recorded) ? recorded : defaultLauncher();
    if (readFileSync(hook, 'utf8') !== stubText(launcher)) out.push(installStub(dir, name, launcher));
  }
  return out;
}

/** Removes our stub (or the copy a hook manager kept as .old/.legacy) and puts the chained hook back. */
function uninstallStub(hooksDir: string, name: string): string {
  const hook = path.join(hooksDir, name);
  const chained = hook + CHAINED_SUFFIX;
  const at = [hook, ...MANAGER_SUFFIXES.map((s) => hook + s)].find(isStub);
  if (!at) return exists(chained) ? `${name}: not ours (another tool replaced the stub); ${path.basename(chained)} left in place` : `${name}: not installed`;
  unlinkSync(at);
  if (exists(chained)) {
    renameSync(chained, at);
    return `${name}: removed; the previous hook is back`;
  }
  return `${name}: removed`;
}

/** Reports one hook: ok, chained, missing or broken. */
function stubStatus(hooksDir: string, name: string): DoctorItem {
  const component = `git hook ${name}`;
  const hook = path.join(hooksDir, name);
  const chained = hook + CHAINED_SUFFIX;
  const managed = MANAGER_SUFFIXES.map((s) => hook + s).find(isStub);
  if (!isStub(hook)) {
    if (managed) return { component, status: 'chained', detail: `run by another hook manager from ${managed}` };
    if (exists(chained)) return { component, status: 'broken', detail: `${hook} is not the git-handoff stub but ${chained} is left over: run \`git handoff install --hooks\`` };
    return { component, status: 'missing', detail: exists(hook) ? `${hook} is another tool's hook: \`git handoff install --hooks\` chains it` : `not installed in ${hooksDir}` };
  }
  if ((statSync(hook).mode & 0o111) === 0) return { component, status: 'broken', detail: `${hook} is not executable: run \`git handoff install --hooks\`` };
  const launcher = recordedLauncher(hook);
  if (!launcher || !existsSync(launcher)) {
    return { component, status: 'broken', detail: `the stub's git-handoff (${launcher ?? 'none recorded'}) is gone, so the hook does nothing: run \`git handoff install --hooks\` again` };
  }
  // another copy of the product (an older install, another checkout) would keep enforcing its own rules
  const mine = defaultLauncher();
  if (realpathOr(launcher) !== realpathOr(mine)) {
    return { component, status: 'broken', detail: `the stub runs another copy of git-handoff (${launcher}) than this one (${mine}): run \`git handoff install --hooks\` with this one` };
  }
  if (readFileSync(hook, 'utf8') !== stubText(launcher)) {
    return { component, status: 'broken', detail: `the stub was written by another build of git-handoff: run \`git handoff install --hooks\` to bring it up to date` };
  }
  if (exists(chained)) {
    const runnable = statSync(chained, { throwIfNoEntry: false });
    if (!runnable || (runnable.mode & 0o111) === 0) return { component, status: 'chained', detail: `${path.basename(chained)} is not executable, so git would not have run it either` };
    return { component, status: 'chained', detail: `installed; runs ${path.basename(chained)} after its check` };
  }
  return { component, status: 'ok', detail: `installed in ${hooksDir}` };
}

export function uninstallHooks(repo: Repo): string[] {
  // A bare repository's stubs are the server's (`install --server`): only `uninstall --server` removes them.
  if (repo.bare) return [];
  const dir = repo.hooksDir();
  rmSync(agentsFile(repo), { force: true });
  return HOOK_NAMES.map((n) => uninstallStub(dir, n));
}

/** The agents whose `install --agent` brought the git hooks: `uninstall --agent` removes them with the last one. */
const agentsFile = (repo: Repo) => path.join(handoffDir(repo.commonDir), 'hooks-for-agents.json');

function hooksForAgents(repo: Repo): string[] | null {
  const v = readJsonOr(agentsFile(repo));
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
}

function writeHooksForAgents(repo: Repo, agents: string[]): void {
  mkdirSync(handoffDir(repo.commonDir), { recursive: true });
  writeFileSync(agentsFile(repo), JSON.stringify([...new Set(agents)].sort()));
}

/** Installs the hooks for `install --agent` (`agents`) or on their own (`agents` null), keeping who wanted them. */
export function installHooksFor(repo: Repo, agents: string[] | null): string[] {
  if (repo.bare) throw new HandoffError('usage', 'bare-repository', 'a bare repository has no commits made in it: use `git handoff install --server` to hold pushes to the invariant');
  const before = hooksForAgents(repo);
  const dir = repo.hooksDir();
  const had = stubsIn(dir).length === HOOK_NAMES.length;
  // Refuse before touching anything when a hook cannot be chained.
  for (const name of HOOK_NAMES) {
    const hook = path.join(dir, name);
    const chained = hook + CHAINED_SUFFIX;
    if (!isStub(hook) && exists(hook) && exists(chained) && !sameFile(hook, chained)) throw chainOccupied(hook, chained);
  }
  const out = HOOK_NAMES.map((n) => installStub(dir, n));
  const inside = (root: string | null) => !!root && !path.relative(root, dir).startsWith('..') && !path.isAbsolute(path.relative(root, dir));
  if (!inside(repo.commonDir) && !inside(repo.worktree)) {
    out.push(`note: core.hooksPath sends git to ${dir}, outside this repository: the stubs act in every repository that uses it`);
  }
  if (agents === null) rmSync(agentsFile(repo), { force: true });
  // hooks already there and not brought by an agent were installed on their own: they stay the person's
  else if (before !== null || !had) writeHooksForAgents(repo, [...(before ?? []), ...agents]);
  return out;
}

/** `uninstall --agent`: removes the hooks when the last agent install that brought them is undone, else says why they stay. */
export function uninstallHooksFor(repo: Repo, agents: string[]): string[] {
  if (repo.bare || !holdsStub(repo.hooksDir())) return [];
  const by = hooksForAgents(repo);
  if (by === null) return ['git hooks kept: nothing records that install --agent brought them (install --hooks, a plain install, or an older git-handoff did); git handoff uninstall --hooks removes them'];
  const rest = by.filter((x) => !agents.includes(x));
  if (rest.length) {
    writeHooksForAgents(repo, rest);
    return [`git hooks kept: install --agent ${rest.join(', ')} brought them too; git handoff uninstall --hooks removes them`];
  }
  return uninstallHooks(repo);
}

export function doctorHooks(repo: Repo): DoctorItem[] {
  if (repo.bare) return [];
  const dir = repo.hooksDir();
  const items = HOOK_NAMES.map((n) => stubStatus(dir, n));
  const installed = items.some((i) => i.status === 'ok' || i.status === 'chained');
  // Some stubs without the others is a half-installed state, not a choice.
  if (installed) for (const i of items) if (i.status === 'missing') Object.assign(i, { status: 'broken', detail: `${i.detail} while the other stubs are: run \`git handoff install --hooks\`` });
  // Stubs left in .git/hooks while core.hooksPath sends git elsewhere never run.
  const plain = path.join(repo.commonDir, 'hooks');
  if (path.resolve(plain) !== path.resolve(dir) && HOOK_NAMES.some((n) => isStub(path.join(plain, n)))) {
    items.push({ component: 'git hooks', status: 'broken', detail: `stubs in ${plain} never run: core.hooksPath points git to ${dir}. Run \`git handoff install --hooks\` (and uninstall from the old place with core.hooksPath unset)` });
  }
  return items;
}
