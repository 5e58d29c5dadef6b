// Issue 40: every command in the README runs as written. The sh blocks of "Commands", "Archived handoffs", "Sync
// between machines" and "Uninstall" are pasted into sh as a person pastes them (comments stripped, nothing else
// changed but where a test says so), with this checkout's bin/ first on PATH, in the world each block needs (a
// repository with a commit, clones of a bare file:// remote, an archived topic, a divergence). Each line's exit code is
// checked, and what a user sees of it: its output, the refs, the files. The blocks before these (First commands, the
// repository wiring lines) are run in test/docs/docs.test.ts, the Install block in test/docs/readme-install.slow.test.ts.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, json, makeRepo, refOf, ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { makeRemote, ok, receiptLines } from '../sync/world';
import { pasted, readmeBlock, tree } from './readme-helpers';

const onPath = (env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, ...extra });

/** Pastes `lines` into one sh in `cwd`; every exit code must be the expected one (0 unless `codes` says). Each line's output. */
async function paste(lines: string[], cwd: string, env: NodeJS.ProcessEnv, codes: number[] = lines.map(() => 0)): Promise<string[]> {
  const ran = await pasted(lines, cwd, env);
  expect(
    ran.map((r) => [r.line, r.code]),
    ran.map((r) => r.out).join('\n'),
  ).toEqual(lines.map((l, i) => [l, codes[i]]));
  return ran.map((r) => r.out);
}

/** A clone of the remote on another machine (its own HOME), on main. */
function cloneOf(url: string): TestRepo {
  const c = makeRepo();
  c.git(['remote', 'add', 'origin', url]);
  c.git(['pull', '-q', 'origin', 'main']);
  return c;
}

/** A repository with a first commit, pushed to a new bare file:// remote. */
async function published(files: Record<string, string> = {}): Promise<{ bare: TestRepo; url: string; a: TestRepo }> {
  const { bare, url } = await makeRemote('file');
  const a = makeRepo({ commit: true });
  if (Object.keys(files).length) a.commit('files', files);
  a.git(['remote', 'add', 'origin', url]);
  a.git(['push', '-q', 'origin', 'main']);
  return { bare, url, a };
}

describe('README blocks, pasted as written', () => {
  it('Commands: the operator writes release-plan for the next Claude Code session and syncs; on another clone the session start shows it (surfaced), the session reads it (read); once both clones synced the terminal sees "read by 3f1c9a2e"', async () => {
    const REF = 'refs/handoffs/main/release-plan';
    const { bare, url, a } = await published({ 'docs/release.md': '- tag v1.2\n- publish\n' });
    // the operator: the person in git config, as in the README's comment
    a.git(['config', 'user.email', 'you@example.com']);
    const b = cloneOf(url);
    const lines = readmeBlock('Commands');
    expect(lines.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(['git handoff write', 'git handoff sync', 'git handoff show', 'git handoff show']);
    const [write, sync, read, seen] = lines;
    expect(write).toContain('--person --to client:claude-code');
    const terminal = onPath(a.env);

    const [wrote, synced] = await paste([write, sync], a.dir, terminal);
    expect(wrote).toMatch(/refs\/handoffs\/main\/release-plan [0-9a-f]{7,} \(created\)/);
    expect(synced).toMatch(/create +main\/release-plan/);
    const v = refOf(a, REF)!;
    expect(refOf(bare, REF)).toBe(v);

    // the session starts in the other clone: Claude Code runs the SessionStart hook with its session id
    const S = '3f1c9a2e-1b7e-4f0e-9f3a-2d4c8e1a7b90';
    const inSession = { CLAUDE_CODE_SESSION_ID: S };
    const start = await b.cli(['guard', '--client', 'claude'], { env: inSession, input: JSON.stringify({ session_id: S, hook_event_name: 'SessionStart', source: 'startup', cwd: b.dir }) });
    expect(start.exitCode, String(start.stderr)).toBe(0);
    const context: string = JSON.parse(String(start.stdout)).hookSpecificOutput.additionalContext;
    // fetched at start, and the first handoff the context shows, with the README's words
    expect(context).toContain('fetched from origin at session start (new: release-plan)');
    expect(context.split('\n').find((l) => l.startsWith('['))).toMatch(/^\[1\] release-plan · for you \(unread\) · owner person:you@example\.com · /);
    expect(receiptLines(b)).toEqual([`${v.slice(0, 12)} ${S} surfaced`]);
    const [shown] = await paste([read], b.dir, onPath(b.env, inSession));
    expect(shown).toContain('Run the release checklist in docs/release.md');
    expect(String((await ok(b, ['list', '--unread'], 0, inSession)).stdout)).toMatch(/^no handoffs unread by you on branch main/);
    expect(receiptLines(b)).toEqual([`${v.slice(0, 12)} ${S} read`, `${v.slice(0, 12)} ${S} surfaced`]);

    // the receipts leave the session's clone when it syncs (the README's comment says so): then the terminal's sync
    await ok(b, ['sync'], 0, inSession);
    const [, after] = await paste([sync, seen], a.dir, terminal);
    expect(after).toMatch(/^read by 3f1c9a2e$/m);
    for (const l of ['owner person:you@example.com (cli)', 'for client:claude-code · tags release', 'refs: docs/release.md', '# Goal\n\nCut v1.2\n\n# Next action\n\nRun the release checklist in docs/release.md']) expect(after).toContain(l);
    // --no-receipt: the terminal's look is not recorded; log --json gives readBy per version
    expect(receiptLines(a)).toEqual(receiptLines(b));
    const log = json(await ok(a, ['log', 'release-plan', '--json']));
    expect(log.map((x: any) => [x.oid, x.readBy.map((r: any) => `${r.reader} ${r.how}`)])).toEqual([[v, [`${S} surfaced`, `${S} read`]]]);
  });

  it('Archived handoffs: the archived topic is listed, shown and logged; restore brings it back; archived again, the first archive entry restored by its name', async () => {
    const repo = makeRepo({ commit: true });
    // the owner's session id is in the environment, as a client puts it there
    const alice = { GIT_HANDOFF_SESSION: 'alice' };
    await ok(repo, ['write', 'auth-refactor', '-m', 'Goal: split the session store', '-m', 'Next action: move the cookie code'], 0, alice);
    await ok(repo, ['write', 'auth-refactor', '-m', 'Goal: split the session store', '-m', 'Next action: run the e2e suite'], 0, alice);
    const v2 = refOf(repo, 'refs/handoffs/main/auth-refactor')!;
    await ok(repo, ['archive', 'auth-refactor'], 0, alice);
    const [entry] = json(await ok(repo, ['list', '--archived', '--all', '--json']));
    const name = entry.ref.replace('refs/handoff-archive/', '');
    expect(name).toMatch(/^main\/auth-refactor\/\d+-[0-9a-f]{12}$/);
    const entries = () => repo.git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/handoff-archive/']).stdout.trim().split('\n');
    const firstEntries = entries();

    // the README's entry name is an example: the one line naming it gets this archive's entry name, nothing else changes
    const EXAMPLE = /main\/auth-refactor\/\d+-[0-9a-f]{12}/;
    const written = readmeBlock('Archived handoffs');
    expect(written.filter((l) => EXAMPLE.test(l))).toHaveLength(1);
    const lines = written.map((l) => l.replace(EXAMPLE, name));
    expect(lines).toEqual([
      'git handoff list --archived --all',
      'git handoff show auth-refactor',
      'git handoff log auth-refactor',
      'git handoff restore auth-refactor',
      'git handoff archive auth-refactor',
      `git handoff restore ${name}`,
    ]);
    const [listed, shown, logged, restored, archived, byName] = await paste(lines, repo.dir, onPath(repo.env, alice));
    expect(listed).toMatch(new RegExp(`^main +auth-refactor +alice +.* ${name}$`, 'm'));
    expect(shown).toContain('archived: `git handoff restore auth-refactor` brings it back');
    expect(shown).toContain('Next action: run the e2e suite');
    expect(logged.match(/^[0-9a-f]{12} +alice /gm)).toHaveLength(3);
    expect(logged).toContain('handoff(auth-refactor): archived');
    expect(restored).toContain(`restored ${entry.ref} to refs/handoffs/main/auth-refactor`);
    expect(archived).toMatch(/archived refs\/handoffs\/main\/auth-refactor as refs\/handoff-archive\/main\/auth-refactor\/\d+-[0-9a-f]{12}/);
    expect(byName).toContain(`restored ${entry.ref} to refs/handoffs/main/auth-refactor`);
    // live again, a new version on top of the entry named, with its body; no archive entry deleted or moved
    expect(repo.git(['rev-parse', 'refs/handoffs/main/auth-refactor^']).stdout.trim()).toBe(entry.oid);
    expect(repo.git(['rev-parse', `${entry.oid}^`]).stdout.trim()).toBe(v2);
    expect(String((await ok(repo, ['show', 'auth-refactor', '--raw'])).stdout)).toContain('Next action: run the e2e suite');
    const now = entries();
    for (const e of firstEntries) expect(now).toContain(e);
    expect(now.length).toBeGreaterThan(firstEntries.length);
  });

  it('Sync between machines: install --remote, a sync that finds a real divergence (exit 4), --resolve --keep both, sync, install --server in the bare repository', async () => {
    const REF = 'refs/handoffs/main/auth-refactor';
    const { bare, url, a } = await published();
    const b = cloneOf(url);
    // the divergence: alice in clone a and bob in clone b write the same topic; alice's is on the remote first
    await ok(a, ['write', 'auth-refactor', '--session', 'alice', '-m', 'Next action: the cookie is set in the middleware']);
    await ok(b, ['write', 'auth-refactor', '--session', 'bob', '-m', 'Next action: the cookie path is wrong']);
    await ok(a, ['push']);
    const aTip = refOf(a, REF)!;
    const bTip = refOf(b, REF)!;

    const lines = readmeBlock('Sync between machines');
    expect(lines).toEqual(['git handoff install --remote origin', 'git handoff sync', 'git handoff sync --resolve auth-refactor --keep both', 'git handoff install --server']);
    const [remote, sync, resolve, server] = lines;
    // in clone b, as bob (the resolver's session id, from its environment); the comment's `then git handoff sync` after
    const bob = onPath(b.env, { GIT_HANDOFF_SESSION: 'bob' });
    const [, diverged, resolved, pushed] = await paste([remote, sync, resolve, sync], b.dir, bob, [0, 4, 0, 0]);
    expect(b.git(['config', '--get-all', 'remote.origin.fetch']).stdout).toContain('+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*');
    expect(diverged).toContain('git handoff sync origin --resolve auth-refactor --keep both');
    expect(resolved).toMatch(/auth-refactor/);
    expect(pushed).toMatch(/main\/auth-refactor/);
    expect(b.git(['rev-parse', `${REF}^1`, `${REF}^2`]).stdout.trim().split('\n')).toEqual([bTip, aTip]);
    expect(refOf(bare, REF)).toBe(refOf(b, REF));

    // in the bare repository: the receive check is installed, and refuses what rewrites a handoff
    await paste([server], bare.dir, onPath(bare.env));
    expect(existsSync(path.join(bare.dir, 'hooks', 'pre-receive'))).toBe(true);
    const body = bare.git(['show', `${REF}:handoff.md`]).stdout;
    expect(body).toContain('the cookie is set in the middleware');
    expect(body).toContain('the cookie path is wrong');
    const forced = a.git(['push', '--force', 'origin', `${aTip}:${REF}`], { allowFail: true });
    expect(forced.status).not.toBe(0);
    expect(forced.stderr).toContain('remote: git-handoff: refused');
    expect(refOf(bare, REF)).toBe(refOf(b, REF));
  });

  it('Uninstall: the plugin uninstall with nothing installed exits 0 and leaves HOME alone; uninstall gives a wired repository back as it was; the rm lines leave HOME as it was, with the code cache elsewhere (XDG_CACHE_HOME)', async () => {
    const root = tempDir('gh-uninstall-');
    const home = path.join(root, 'home');
    const cache = path.join(root, 'xdg-cache');
    for (const d of [home, cache, path.join(home, '.local', 'state')]) mkdirSync(d, { recursive: true });
    // a user whose XDG_CACHE_HOME is not ~/.cache; the state home is the default one under HOME
    const env = onPath(isolatedEnv(home, { XDG_CACHE_HOME: cache, XDG_STATE_HOME: undefined }));
    const git = (cwd: string, ...args: string[]) => execa('git', args, { cwd, env, extendEnv: false });
    await git(root, 'config', '--global', 'user.email', 'you@example.com');
    await git(root, 'config', '--global', 'user.name', 'You');
    const repo = path.join(root, 'repo');
    const other = path.join(root, 'other');
    for (const d of [repo, other]) {
      await git(root, 'init', '-q', '-b', 'main', d);
      await git(d, 'commit', '-q', '--allow-empty', '-m', 'first');
    }
    await git(repo, 'remote', 'add', 'origin', `file://${root}/remote.git`);
    const homeBefore = tree(home);
    const cacheBefore = tree(cache);
    // the repository as it is before any git-handoff: its files, .git's files but the objects and logs, its refs
    const snapshot = async () => [
      // folders inside .git left out: git leaves an emptied refs/handoff-leases/ folder behind, as it does refs/heads/x/
      ...tree(repo, (rel) => /^\.git\/(objects|logs)$/.test(rel)).filter((e) => !(e.startsWith('.git/') && e.endsWith('/'))),
      (await git(repo, 'for-each-ref')).stdout,
    ];
    const repoBefore = await snapshot();

    // wired: Claude Code's settings, note and skill, the git hooks, the remote's refspecs; a session started (lease, state)
    for (const args of [['install', '--agent', 'claude'], ['install', '--remote', 'origin']]) expect((await execa('git', ['handoff', ...args], { cwd: repo, env, extendEnv: false, reject: false })).exitCode).toBe(0);
    const start = await execa('git', ['handoff', 'guard', '--client', 'claude'], { cwd: repo, env, extendEnv: false, reject: false, input: JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: repo }) });
    expect(start.exitCode).toBe(0);
    expect((await git(repo, 'for-each-ref', 'refs/handoff-leases/')).stdout).not.toBe('');
    expect(existsSync(path.join(repo, '.claude', 'settings.json'))).toBe(true);
    // another repository with a handoff: its loss record's witness is in the state home
    expect((await execa('git', ['handoff', 'write', 'auth-refactor', '--session', 's2', '-m', 'Goal: x'], { cwd: other, env, extendEnv: false, reject: false })).exitCode).toBe(0);
    expect(existsSync(path.join(home, '.local', 'state', 'git-handoff'))).toBe(true);
    expect(existsSync(path.join(cache, 'git-handoff'))).toBe(true);

    const lines = readmeBlock('Uninstall');
    expect(lines).toHaveLength(5);
    const [plugin, uninstall, npm, ...rm] = lines;
    expect(plugin).toBe('git handoff uninstall --agent claude --plugin');
    // npm's line runs in the slow set (readme-install.slow.test.ts runs every line of this block after a real `npm link`
    // and after `npm install -g`, into a temporary prefix): here it must be the line that test runs, and parse
    expect(npm).toBe('npm rm -g git-handoff');
    expect((await execa('sh', ['-n', '-c', npm], { reject: false })).exitCode).toBe(0);
    expect(readFileSync(path.join(ROOT, 'test', 'docs', 'readme-install.slow.test.ts'), 'utf8')).toContain("readmeLines('Uninstall')");

    const homeWired = tree(home);
    const [pluginOut] = await paste([plugin], repo, env);
    expect(pluginOut).toContain('the git-handoff plugin is not installed in Claude Code');
    expect(tree(home)).toEqual(homeWired);
    const [uninstalled] = await paste([uninstall], repo, env);
    expect(uninstalled).toContain('.claude/settings.json: deleted (install created it)');
    expect(await snapshot()).toEqual(repoBefore);
    await paste(rm, repo, env);
    expect(tree(home)).toEqual(homeBefore);
    expect(tree(cache)).toEqual(cacheBefore);
  });
});
