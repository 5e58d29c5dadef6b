// Wiring for sync: the handoff fetch refspecs on a remote, and the receive-side check on a bare server, beside a hook
// manager the server has already (gitolite: LOCAL_CODE/hooks/repo-specific/; a `$0.*` driver: one more `pre-receive.*`;
// a `<hook>.d/` driver: an entry there). A manager's hook is never renamed.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from '../process';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import { remoteNames } from '../git/config';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX } from '../handoff/store/names';
import type { DoctorItem } from '../wiring';
import { handoffRefspecs, resolveRemote } from './remote';
import { readTextOr, realpathOr } from '../read-file';

const FETCH_KEYS = '^remote\\..*\\.fetch$';

/** Adds the two handoff fetch refspecs to R (each once); never a push refspec, never one onto refs/handoffs. */
export async function installRemote(repo: Repo, remote: string): Promise<string[]> {
  const names = remoteNames(repo);
  if (!names.includes(remote)) {
    throw new HandoffError('usage', 'unknown-remote', `no remote named "${remote}" (remotes: ${names.join(', ') || 'none'}); add it with \`git remote add ${remote} <url>\``, { remote });
  }
  const have = repo.localConfig(FETCH_KEYS).get(`remote.${remote}.fetch`) ?? [];
  return handoffRefspecs(remote).map((spec) => {
    if (have.includes(spec)) return `remote ${remote}: fetch refspec ${spec} already there`;
    repo.changeLocalConfig(`remote.${remote}.fetch`, { add: spec });
    return `remote ${remote}: added fetch refspec ${spec}`;
  });
}

/** Removes exactly the refspecs installRemote adds, from R or from every remote. */
export async function uninstallRemote(repo: Repo, remote?: string): Promise<string[]> {
  const fetch = repo.localConfig(FETCH_KEYS);
  return (remote ? [remote] : remoteNames(repo)).flatMap((name) =>
    handoffRefspecs(name)
      .filter((spec) => fetch.get(`remote.${name}.fetch`)?.includes(spec))
      .map((spec) => {
        repo.changeLocalConfig(`remote.${name}.fetch`, { remove: spec });
        return `remote ${name}: removed fetch refspec ${spec}`;
      }),
  );
}

/** Where a plain hook that was there before goes; the stub runs it first, uninstall puts it back. */
const CHAINED = '.pre-handoff';

// The bundle lives in dist/; the stub and the launcher sit beside it in the package.
const packageRoot = () => path.resolve(__dirname, '..');

function stubText(): string {
  const template = readFileSync(path.join(packageRoot(), 'git-hooks', 'pre-receive'), 'utf8');
  const bin = path.join(packageRoot(), 'bin', 'git-handoff').replace(/'/g, `'\\''`);
  return template.replace('@GIT_HANDOFF_BIN@', bin);
}

/** Puts the pre-receive check on a bare repository (a hook that was there is kept and run first). */
export async function installServer(repo: Repo): Promise<string[]> {
  if (!repo.bare) {
    throw new HandoffError('usage', 'not-bare', '--server is for the bare repository that receives pushes; in a working repository use `git handoff install --hooks`');
  }
  const hooks = repo.hooksDir();
  const manager = hookManagerOf(repo, hooks);
  const text = stubText();
  if (manager === 'gitolite') return installGitolite(repo, hooks, text);
  const file = checkFileOf(hooks, manager);
  const ours = isStub(file);
  const beside = manager ? ', run by the existing pre-receive driver' : '';
  if (ours && readTextOr(file) === text) return [`server: pre-receive check already installed (${file}${beside})`];
  if (manager) {
    writeHook(file, text);
    return [`server: hooks/pre-receive runs every ${driverGlob(manager)} by name, so it is left as it is; the check is ${file}, run after the site's hooks`];
  }
  const out: string[] = [];
  if (!ours && existsSync(file)) {
    renameSync(file, file + CHAINED);
    out.push(`server: the existing pre-receive hook is kept as ${path.basename(file + CHAINED)} and runs first`);
  }
  writeHook(file, text);
  out.push(`server: pre-receive check ${ours ? 'updated' : 'installed'} (${file}): pushed handoff refs are held to the ownership invariant`);
  return out;
}

export async function uninstallServer(repo: Repo): Promise<string[]> {
  const hooks = repo.hooksDir();
  const manager = hookManagerOf(repo, hooks);
  if (manager === 'gitolite') return uninstallGitolite(repo, hooks);
  const file = checkFileOf(hooks, manager);
  if (!isStub(file)) return [];
  unlinkSync(file);
  const out = [`server: pre-receive check removed${manager ? ` (${file})` : ''}`];
  if (!manager && existsSync(file + CHAINED)) {
    renameSync(file + CHAINED, file);
    out.push(`server: previous pre-receive hook restored`);
  }
  return out;
}

/** Hosts whose rules cover branches and tags only, and that run no pre-receive hook of a user's (docs/hosting.md). */
const HOSTED = /(^|[@/.])(github\.com|gitlab\.com|bitbucket\.org)([:/]|$)/i;

/**
 * The handoff remote's host (docs/hosting.md): a hosted service whose rules cannot protect custom refs (said, with
 * what protects them instead), a repository on this machine without the server check (its install step), or a
 * host of one's own (whose pre-receive hook can run the check: install --server there).
 */
function doctorHost(repo: Repo, remotes: Map<string, unknown>): DoctorItem[] {
  let name: string;
  try {
    name = resolveRemote(repo);
  } catch {
    return [];
  }
  if (!remotes.has(name)) return [];
  const url = repo.remoteUrl(name, { push: true });
  const component = `host ${name}`;
  if (HOSTED.test(url)) {
    return [{ component, status: 'info', detail: `${url}: its branch protection and rulesets cover branches and tags only, never refs/handoffs/*, refs/claims/* or refs/notes/handoff-reads, and it runs no hook of yours: anyone with push access can rewrite or delete them there. Each clone still refuses what breaks the ownership invariant when it fetches (docs/hosting.md); for a check on the host, keep handoffs on a remote you run (handoff.remote) with \`git handoff install --server\`` }];
  }
  const local = url.startsWith('file://') ? url.slice('file://'.length) : path.isAbsolute(url) ? url : null;
  if (local && existsSync(local)) {
    const checked = ['pre-receive', DRIVER_SIBLING, DIR_ENTRY, `pre-receive.h01-${GITOLITE_CODE}`].some((f) => isStub(path.join(local, 'hooks', f)));
    return [checked ? { component, status: 'ok', detail: `${local}: the server check is installed` } : { component, status: 'missing', detail: `${local}: pushes there are not held to the ownership invariant: run \`git handoff install --server\` in that repository` }];
  }
  return [{ component, status: 'info', detail: `${url}: a host you run (a bare repository over ssh, git daemon or HTTP, gitolite, GitLab self-managed, Gitea) runs a pre-receive hook: \`git handoff install --server\` in the repository there holds every push to the ownership invariant (docs/hosting.md)` }];
}

/** Sync wiring, read with one `git config` process: refspecs per remote, dangerous ones, the server check. */
export function doctorSync(repo: Repo): DoctorItem[] {
  const items: DoctorItem[] = [];
  const byRemote = new Map<string, { fetch: string[]; push: string[] }>();
  for (const [key, values] of repo.localConfig('^remote\\..*\\.(fetch|push|url)$')) {
    const [, name, kind] = /^remote\.(.+)\.(fetch|push|url)$/.exec(key)!;
    const e = byRemote.get(name) ?? { fetch: [], push: [] };
    if (kind !== 'url') e[kind as 'fetch' | 'push'].push(...values);
    byRemote.set(name, e);
  }
  for (const [name, e] of byRemote) {
    const component = `remote ${name}`;
    const dst = (spec: string) => spec.slice(spec.indexOf(':') + 1);
    const overwriting = e.fetch.filter((spec) => spec.includes(':') && [HANDOFF_PREFIX, ARCHIVE_PREFIX].some((p) => dst(spec).startsWith(p)));
    const pushing = e.push.filter((s) => s.includes('refs/handoff'));
    if (overwriting.length) {
      items.push({ component, status: 'broken', detail: `fetch refspec ${overwriting.join(', ')} writes straight over local handoffs; remove it and run \`git handoff install --remote ${name}\`` });
    } else if (pushing.length) {
      items.push({ component, status: 'broken', detail: `push refspec ${pushing.join(', ')} sends handoff refs with every plain \`git push\`; remove it (git handoff push sends them, fast-forwards only)` });
    } else {
      const missing = handoffRefspecs(name).filter((s) => !e.fetch.includes(s));
      items.push(
        missing.length === 0
          ? { component, status: 'ok', detail: 'handoff fetch refspecs installed: plain `git fetch` updates the tracking copies' }
          : { component, status: 'info', detail: `handoff refspecs not installed (\`git handoff fetch ${name}\` works without them; \`git handoff install --remote ${name}\` adds them)` },
      );
    }
  }
  if (!repo.bare) items.push(...doctorHost(repo, byRemote));
  if (repo.bare) items.push(doctorServer(repo, repo.hooksDir()));
  return items;
}

const STUB_MARK = 'git-handoff pre-receive stub';
/** The name of the check among gitolite's repo-specific hooks (`option hook.pre-receive = … git-handoff`). */
const GITOLITE_CODE = 'git-handoff';
/** Beside a `$0.*` driver of another make: sorted after the site's own hooks, so they run first. */
const DRIVER_SIBLING = 'pre-receive.zz-git-handoff';
/** In the directory a `<hook>.d/*` driver runs (Gitea's generated hooks, GitLab's custom_hooks). */
const DIR_ENTRY = path.join('pre-receive.d', 'zz-git-handoff');

const isStub = (file: string) => !!readTextOr(file)?.includes(STUB_MARK);

function writeHook(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

/** gitolite manages this repository (its gl-conf, or hooks/update linked to gitolite's common hook). */
function isGitolite(repo: Repo, hooks: string): boolean {
  return existsSync(path.join(repo.commonDir, 'gl-conf')) || /\.gitolite\/hooks\/common\/update$/.test(realpathOr(path.join(hooks, 'update')));
}

/** A pre-receive that dispatches on its own name (`$0.*`, `$(basename $0).d/*`): renaming it would make it run nothing. */
function driverKind(file: string): Driver | null {
  // called for a file that exists (hookManagerOf); a directory there reads as no text
  if (lstatSync(file).isSymbolicLink() && /multi-hook-driver/.test(readlinkSync(file))) return 'driver';
  const text = readTextOr(file) ?? '';
  if (/(\$0|\$\{0\}|"\$0")\.\*/.test(text)) return 'driver';
  if (/\.d\/\*/.test(text) && /basename\s+"?\$0|pre-receive\.d/.test(text)) return 'dir-driver';
  return null;
}

/** What runs the server's pre-receive hooks already (null: nothing, the check is the hook itself). */
function hookManagerOf(repo: Repo, hooks: string): 'gitolite' | Driver | null {
  if (isGitolite(repo, hooks)) return 'gitolite';
  const file = path.join(hooks, 'pre-receive');
  return existsSync(file) && !isStub(file) ? driverKind(file) : null;
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
function installGitolite(repo: Repo, hooks: string, stub: string): string[] {
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

function uninstallGitolite(repo: Repo, hooks: string): string[] {
  const s = gitoliteState(repo, hooks);
  if (!s.file || !isStub(s.file)) return [];
  unlinkSync(s.file);
  return [`server (gitolite): removed ${s.file}; take \`${GITOLITE_CODE}\` out of \`option hook.pre-receive\` in gitolite.conf (every repository that lists it)`];
}

type Driver = 'driver' | 'dir-driver';
/** Where the check lives: the hook itself, or beside a driver of another make (one more `pre-receive.*`, or in `pre-receive.d/`). */
const checkFileOf = (hooks: string, driver: Driver | null) => path.join(hooks, !driver ? 'pre-receive' : driver === 'driver' ? DRIVER_SIBLING : DIR_ENTRY);
const driverGlob = (driver: Driver) => (driver === 'driver' ? 'pre-receive.*' : 'pre-receive.d/*');

/** doctor's row on a bare repository: the check as the plain hook, beside a driver, or through gitolite. */
function doctorServer(repo: Repo, hooks: string): DoctorItem {
  const m = hookManagerOf(repo, hooks);
  if (m !== 'gitolite') {
    const file = checkFileOf(hooks, m);
    if (isStub(file)) return { component: 'server', status: 'ok', detail: `pre-receive check installed${m ? ' beside the existing driver' : ''} (${file})` };
    const driver = m ? `hooks/pre-receive is a driver running ${driverGlob(m)}; ` : '';
    return { component: 'server', status: 'missing', detail: `${driver}pushes are not held to the ownership invariant: run \`git handoff install --server\`${m ? ' (it adds the check beside the driver)' : ''}` };
  }
  const s = gitoliteState(repo, hooks);
  if (!s.localCode) return { component: 'server', status: 'missing', detail: `gitolite without repo-specific hooks: ${NO_LOCAL_CODE}` };
  if (!isStub(s.file)) return { component: 'server', status: 'missing', detail: `gitolite: no check in ${s.file}: run \`git handoff install --server\` as the gitolite user` };
  if (!s.codes.includes(GITOLITE_CODE) || !s.linked) return { component: 'server', status: 'missing', detail: `gitolite: ${s.file} is there but this repository does not run it; add to gitolite.conf and push gitolite-admin:\n${confLine(s)}` };
  if (!isStub(s.linked)) return { component: 'server', status: 'broken', detail: `gitolite: ${s.linked} does not lead to the check (${s.file}); push gitolite-admin again so gitolite relinks it` };
  return { component: 'server', status: 'ok', detail: `pre-receive check installed through gitolite (option hook.pre-receive = ${s.codes.join(' ')}; ${path.basename(s.linked)})` };
}
