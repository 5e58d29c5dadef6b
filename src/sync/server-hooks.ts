// Where the receive check goes on a server that already has a hook manager (gitolite: LOCAL_CODE/hooks/repo-specific/;
// a `$0.*` driver: one more `pre-receive.*`; a `<hook>.d/` driver: an entry there). A hook is never renamed.
import { spawnSync } from '../process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';
import { readTextOr } from '../read-file';

const STUB_MARK = 'git-handoff pre-receive stub';
/** The name of the check among gitolite's repo-specific hooks (`option hook.pre-receive = … git-handoff`). */
const GITOLITE_CODE = 'git-handoff';
/** Beside a `$0.*` driver of another make: sorted after the site's own hooks, so they run first. */
const DRIVER_SIBLING = 'pre-receive.zz-git-handoff';
/** In the directory a `<hook>.d/*` driver runs (Gitea's generated hooks, GitLab's custom_hooks). */
const DIR_ENTRY = path.join('pre-receive.d', 'zz-git-handoff');

export const isStub = (file: string) => !!readTextOr(file)?.includes(STUB_MARK);

/** Writes a hook file (and its directory), executable. */
export function writeHook(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

type HookManager = { kind: 'gitolite' } | { kind: 'driver'; file: string } | { kind: 'dir-driver'; file: string } | { kind: 'none' };

/** gitolite manages this repository (its gl-conf, or hooks/update linked to gitolite's common hook). */
function isGitolite(repo: Repo, hooks: string): boolean {
  if (existsSync(path.join(repo.commonDir, 'gl-conf'))) return true;
  try {
    return /\.gitolite\/hooks\/common\/update$/.test(realpathSync(path.join(hooks, 'update')));
  } catch {
    return false;
  }
}

/** A pre-receive that dispatches on its own name (`$0.*`, `$(basename $0).d/*`): renaming it would make it run nothing. */
function driverKind(file: string): 'driver' | 'dir-driver' | null {
  try {
    if (lstatSync(file).isSymbolicLink() && /multi-hook-driver/.test(readlinkSync(file))) return 'driver';
    const text = readFileSync(file, 'utf8');
    if (/(\$0|\$\{0\}|"\$0")\.\*/.test(text)) return 'driver';
    if (/\.d\/\*/.test(text) && /basename\s+"?\$0|pre-receive\.d/.test(text)) return 'dir-driver';
    return null;
  } catch {
    return null;
  }
}

export function hookManagerOf(repo: Repo, hooks: string): HookManager {
  if (isGitolite(repo, hooks)) return { kind: 'gitolite' };
  const file = path.join(hooks, 'pre-receive');
  const kind = existsSync(file) && !isStub(file) ? driverKind(file) : null;
  return kind ? { kind, file } : { kind: 'none' };
}

/** `gitolite query-rc <name>` as the gitolite user runs it (empty when unset or gitolite is not on PATH). */
function queryRc(repo: Repo, name: string): string {
  const r = spawnSync('gitolite', ['query-rc', name], { cwd: repo.commonDir, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

interface GitoliteState {
  localCode: string;
  /** LOCAL_CODE/hooks/repo-specific/git-handoff */
  file: string;
  /** the repository's name in gitolite.conf */
  name: string;
  /** the codes `option hook.pre-receive` lists for this repository, as gitolite linked them */
  codes: string[];
  /** hooks/pre-receive.hNN-git-handoff, when gitolite linked it */
  linked: string | null;
}

function gitoliteState(repo: Repo, hooks: string): GitoliteState {
  const localCode = queryRc(repo, 'LOCAL_CODE');
  const base = queryRc(repo, 'GL_REPO_BASE');
  const rel = base ? path.relative(base, repo.commonDir) : path.basename(repo.commonDir);
  const name = rel.replace(/\.git$/, '');
  // gitolite links each code of `option hook.pre-receive` as pre-receive.hNN-<code>, in the order listed
  const chained = readdirSync(hooks).filter((f) => /^pre-receive\.h\d+-/.test(f)).sort();
  const codes = chained.map((f) => f.replace(/^pre-receive\.h\d+-/, ''));
  const linked = chained.find((f) => f.endsWith(`-${GITOLITE_CODE}`));
  return { localCode, file: localCode ? path.join(localCode, 'hooks', 'repo-specific', GITOLITE_CODE) : '', name, codes, linked: linked ? path.join(hooks, linked) : null };
}

const confLine = (s: GitoliteState) => `repo ${s.name}\n    option hook.pre-receive = ${[...s.codes.filter((c) => c !== GITOLITE_CODE), GITOLITE_CODE].join(' ')}`;

const NO_LOCAL_CODE =
  "gitolite runs a repository's own hooks from LOCAL_CODE: in ~/.gitolite.rc enable 'repo-specific-hooks' (in ENABLE) and set LOCAL_CODE => \"$ENV{HOME}/local\", then run `git handoff install --server` again (docs/hosting.md)";

/** The check as a gitolite repo-specific hook: the file in LOCAL_CODE, and the gitolite.conf line it still needs. */
export function installGitolite(repo: Repo, hooks: string, stub: string): string[] {
  const s = gitoliteState(repo, hooks);
  if (!s.localCode) throw new HandoffError('environment', 'gitolite-no-local-code', `this repository is managed by gitolite; ${NO_LOCAL_CODE}`);
  const out: string[] = [];
  const had = readTextOr(s.file);
  if (had !== stub) {
    writeHook(s.file, stub);
    out.push(`server (gitolite): pre-receive check ${had === null ? 'installed' : 'updated'} as the repo-specific hook ${s.file}`);
  } else out.push(`server (gitolite): the repo-specific hook ${s.file} is already there`);
  if (s.codes.includes(GITOLITE_CODE) && s.linked) {
    out.push(`server (gitolite): enabled for ${s.name} (option hook.pre-receive = ${s.codes.join(' ')}); hooks/pre-receive stays gitolite's driver`);
  } else {
    out.push(`server (gitolite): not enabled yet. Add to gitolite.conf (after the site's own hooks, which keep running first), then push gitolite-admin:\n${confLine(s)}`);
  }
  return out;
}

export function uninstallGitolite(repo: Repo, hooks: string): string[] {
  const s = gitoliteState(repo, hooks);
  if (!s.file || !isStub(s.file)) return [];
  unlinkSync(s.file);
  return [`server (gitolite): removed ${s.file}; take \`${GITOLITE_CODE}\` out of \`option hook.pre-receive\` in gitolite.conf (every repository that lists it)`];
}

const entryOf = (kind: 'driver' | 'dir-driver') => (kind === 'driver' ? DRIVER_SIBLING : DIR_ENTRY);

/** A driver of another make: the check is one more hook it runs (`pre-receive.*`, or in `pre-receive.d/`). */
export function installBesideDriver(hooks: string, stub: string, kind: 'driver' | 'dir-driver'): string[] {
  const file = path.join(hooks, entryOf(kind));
  if (readTextOr(file) === stub) return [`server: pre-receive check already installed (${file}, run by the existing pre-receive driver)`];
  writeHook(file, stub);
  return [`server: hooks/pre-receive runs every ${kind === 'driver' ? 'pre-receive.*' : 'pre-receive.d/*'} by name, so it is left as it is; the check is ${file}, run after the site's hooks`];
}

export function uninstallBesideDriver(hooks: string, kind: 'driver' | 'dir-driver'): string[] {
  const file = path.join(hooks, entryOf(kind));
  if (!isStub(file)) return [];
  unlinkSync(file);
  return [`server: pre-receive check removed (${file})`];
}

/** doctor on a bare repository with a hook manager; null when there is none (the plain hook is checked). */
export function doctorManaged(repo: Repo, hooks: string): DoctorItem | null {
  const m = hookManagerOf(repo, hooks);
  if (m.kind === 'driver' || m.kind === 'dir-driver') {
    const file = path.join(hooks, entryOf(m.kind));
    return isStub(file)
      ? { component: 'server', status: 'ok', detail: `pre-receive check installed beside the existing driver (${file})` }
      : { component: 'server', status: 'missing', detail: `hooks/pre-receive is a driver running ${m.kind === 'driver' ? 'pre-receive.*' : 'pre-receive.d/*'}; pushes are not held to the ownership invariant: run \`git handoff install --server\` (it adds the check beside the driver)` };
  }
  if (m.kind !== 'gitolite') return null;
  const s = gitoliteState(repo, hooks);
  if (!s.localCode) return { component: 'server', status: 'missing', detail: `gitolite without repo-specific hooks: ${NO_LOCAL_CODE}` };
  if (!isStub(s.file)) return { component: 'server', status: 'missing', detail: `gitolite: no check in ${s.file}: run \`git handoff install --server\` as the gitolite user` };
  if (!s.codes.includes(GITOLITE_CODE) || !s.linked) return { component: 'server', status: 'missing', detail: `gitolite: ${s.file} is there but this repository does not run it; add to gitolite.conf and push gitolite-admin:\n${confLine(s)}` };
  if (!isStub(s.linked)) return { component: 'server', status: 'broken', detail: `gitolite: ${s.linked} does not lead to the check (${s.file}); push gitolite-admin again so gitolite relinks it` };
  return { component: 'server', status: 'ok', detail: `pre-receive check installed through gitolite (option hook.pre-receive = ${s.codes.join(' ')}; ${path.basename(s.linked)})` };
}
