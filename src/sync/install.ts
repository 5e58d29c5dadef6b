// Wiring for sync: the handoff fetch refspecs on a remote, and the receive-side check on a bare server.
// Every git step goes through src/git/run.ts (repo.git), like the rest of the product: one module spawns git.
import { existsSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import { remoteNames } from '../git/config';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX } from '../handoff/store/names';
import type { DoctorItem } from '../wiring';
import { handoffRefspecs, resolveRemote } from './remote';
import { doctorManaged, hookManagerOf, installBesideDriver, installGitolite, isStub, uninstallBesideDriver, uninstallGitolite, writeHook } from './server-hooks';
import { readTextOr } from '../read-file';


const FETCH_KEYS = '^remote\\..*\\.fetch$';

/** Adds the two handoff fetch refspecs to R (each once); never a push refspec, never one onto refs/handoffs. */
export async function installRemote(repo: Repo, remote: string): Promise<string[]> {
  const names = remoteNames(repo);
  if (!names.includes(remote)) {
    throw new HandoffError('usage', 'unknown-remote', `no remote named "${remote}" (remotes: ${names.join(', ') || 'none'}); add it with \`git remote add ${remote} <url>\``, { remote });
  }
  const have = repo.localConfig(FETCH_KEYS).get(`remote.${remote}.fetch`) ?? [];
  const out: string[] = [];
  for (const spec of handoffRefspecs(remote)) {
    if (have.includes(spec)) {
      out.push(`remote ${remote}: fetch refspec ${spec} already there`);
      continue;
    }
    repo.changeLocalConfig(`remote.${remote}.fetch`, { add: spec });
    out.push(`remote ${remote}: added fetch refspec ${spec}`);
  }
  return out;
}

/** Removes exactly the refspecs installRemote adds, from R or from every remote. */
export async function uninstallRemote(repo: Repo, remote?: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of remote ? [remote] : remoteNames(repo)) {
    const have = repo.localConfig(FETCH_KEYS).get(`remote.${name}.fetch`) ?? [];
    for (const spec of handoffRefspecs(name)) {
      if (!have.includes(spec)) continue;
      repo.changeLocalConfig(`remote.${name}.fetch`, { remove: spec });
      out.push(`remote ${name}: removed fetch refspec ${spec}`);
    }
  }
  return out;
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
  if (manager.kind === 'gitolite') return installGitolite(repo, hooks, stubText());
  if (manager.kind === 'driver' || manager.kind === 'dir-driver') return installBesideDriver(hooks, stubText(), manager.kind);
  const file = path.join(hooks, 'pre-receive');
  const text = stubText();
  const ours = isStub(file);
  if (ours && readTextOr(file) === text) return [`server: pre-receive check already installed (${file})`];
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
  if (manager.kind === 'gitolite') return uninstallGitolite(repo, hooks);
  if (manager.kind === 'driver' || manager.kind === 'dir-driver') return uninstallBesideDriver(hooks, manager.kind);
  const file = path.join(hooks, 'pre-receive');
  if (!isStub(file)) return [];
  unlinkSync(file);
  const out = [`server: pre-receive check removed`];
  if (existsSync(file + CHAINED)) {
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
    const hooks = path.join(local, 'hooks');
    const checked = [path.join(hooks, 'pre-receive'), path.join(hooks, 'pre-receive.zz-git-handoff'), path.join(hooks, 'pre-receive.d', 'zz-git-handoff'), path.join(hooks, 'pre-receive.h01-git-handoff')].some(isStub);
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
  if (repo.bare) {
    const hooks = repo.hooksDir();
    const file = path.join(hooks, 'pre-receive');
    const managed = doctorManaged(repo, hooks);
    if (managed) items.push(managed);
    else items.push(
      isStub(file)
        ? { component: 'server', status: 'ok', detail: `pre-receive check installed (${file})` }
        : { component: 'server', status: 'missing', detail: 'pushes are not held to the ownership invariant: run `git handoff install --server`' },
    );
  }
  return items;
}
