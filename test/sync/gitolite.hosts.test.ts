// Handoffs through a real gitolite 3 over ssh on 127.0.0.1 (test/sync/gitolite.sh sets it up: root and apt, as
// on CI). The receive check is installed the gitolite way (a repo-specific hook in LOCAL_CODE, listed after a site
// policy in gitolite.conf); two clones sync through it; eight clobbering pushes are refused.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, ROOT, type TestRepo } from '../helpers/repo';
import { ok, receiptLines } from './world';
import { raceRound } from '../handoff/claims/world';

const SCRIPT = path.join(ROOT, 'test', 'sync', 'gitolite.sh');
const dir = mkdtempSync(path.join(tmpdir(), 'gh-hosts-'));
const started = spawnSync('bash', [SCRIPT, 'start', dir], { encoding: 'utf8' });
const skipReason = started.status === 77 ? started.stderr.trim() : null;
if (skipReason) {
  // CI sets GIT_HANDOFF_HOSTS_REQUIRED: there the machine is root with apt, so a skip is a failure
  if (process.env.GIT_HANDOFF_HOSTS_REQUIRED) throw new Error(`test:hosts must run here: ${skipReason}`);
  console.log(`test:hosts skipped: ${skipReason}`);
} else if (started.status !== 0) {
  throw new Error(`gitolite.sh start failed (${started.status}):\n${started.stderr}`);
}
const info: Record<string, string> = Object.fromEntries(
  (started.stdout ?? '')
    .trim()
    .split('\n')
    .filter((l) => l.includes('='))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

const REF = 'refs/handoffs/main/auth-refactor';
const NOTES = 'refs/notes/handoff-reads';
const PATH = `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;

/** A shell command as the gitolite user (what its admin does on the server). */
function asGitolite(cmd: string, cwd = info.home) {
  const r = spawnSync('sh', ['-c', cmd], {
    cwd,
    uid: Number(info.uid),
    gid: Number(info.gid),
    env: { HOME: info.home, USER: info.user, PATH, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  });
  return { status: r.status ?? 128, stdout: r.stdout, stderr: r.stderr };
}

const sshCommand = (key: string) =>
  `ssh -i ${key} -p ${info.port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
const url = (repo: string) => `ssh://${info.user}@127.0.0.1:${info.port}/${repo}`;
const serverRepo = (name: string) => path.join(info.home, 'repositories', `${name}.git`);
/** A ref as the server holds it (read on disk, as root). */
const onServer = (name: string, ref: string) => {
  const r = spawnSync('git', ['--git-dir', serverRepo(name), 'rev-parse', '-q', '--verify', ref], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

const keys = path.join(dir, 'keys');
const admin = path.join(dir, 'gitolite-admin');
const adminGit = (args: string[]) => {
  const r = spawnSync('git', ['-c', 'user.name=Admin', '-c', 'user.email=admin@example.com', ...args], {
    cwd: admin,
    env: { PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_SSH_COMMAND: sshCommand(info.adminKey), LC_ALL: 'C' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r;
};

// The rules docs/hosting.md gives, verbatim: branches and tags as before (RW+D: once a rule of a repository names
// D, + alone no longer deletes), handoffs fast-forward and deleted by an archive, entries and receipts created
// and fast-forwarded only.
const TEAM_RULES = `    RW+D    refs/heads/ refs/tags/      =   @team
    RWD     refs/handoffs/              =   @team
    RW      refs/handoff-archive/       =   @team
    RW      refs/notes/handoff-reads    =   @team
    RW      refs/claims/                =   @team
    RW+     refs/handoff-records/       =   @team`;

function conf(hooks: boolean): string {
  return `@team = alice bob

repo gitolite-admin
    RW+     =   admin

# every ref open to the team (RW+): only the receive check stands between a push and a clobber
repo project
    RW+     =   @team
${hooks ? '    option hook.pre-receive = site-policy git-handoff\n' : ''}
repo strict
${TEAM_RULES}
${hooks ? '    option hook.pre-receive = git-handoff\n' : ''}
# plain RW on handoffs: no delete right, so an archive cannot reach the others
repo plainrw
    RW+     refs/heads/                 =   @team
    RW      refs/handoffs/              =   @team
    RW      refs/handoff-archive/       =   @team
    RW      refs/notes/handoff-reads    =   @team
`;
}

/** Commits gitolite.conf (and the users' keys) to gitolite-admin and pushes it: gitolite compiles on the push. */
function pushConf(text: string): string {
  writeFileSync(path.join(admin, 'conf', 'gitolite.conf'), text);
  for (const u of ['alice', 'bob']) cpSync(path.join(keys, `${u}.pub`), path.join(admin, 'keydir', `${u}.pub`));
  adminGit(['add', '-A']);
  adminGit(['commit', '-q', '--allow-empty', '-m', 'conf']);
  return adminGit(['push', '-q', 'origin', 'HEAD']).stderr;
}

/** A clone of a gitolite repository as alice or bob, with its own HOME. */
function clone(user: 'alice' | 'bob', repo: string): TestRepo {
  const c = makeRepo({ commit: true });
  c.git(['config', 'core.sshCommand', sshCommand(path.join(keys, user))]);
  c.git(['remote', 'add', 'origin', url(repo)]);
  return c;
}

function forge(repo: TestRepo, tree: string, parents: string[], session: string, message = 'handoff(auth-refactor): forged'): string {
  return repo.git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])], { input: `${message}\n\nClaude-Session-Id: ${session}\n` }).stdout.trim();
}

describe.skipIf(!!skipReason)(`gitolite ${info.gitolite ?? ''} over ssh on 127.0.0.1`, () => {
  beforeAll(() => {
    mkdirSync(keys);
    for (const u of ['alice', 'bob']) spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', u, '-f', path.join(keys, u)]);
    // git-handoff on the server as a team installs it: a copy of the package the gitolite user can read
    const pkg = path.join(dir, 'pkg');
    for (const part of ['bin', 'git-hooks', 'package.json']) cpSync(path.join(ROOT, part), path.join(pkg, part), { recursive: true });
    cpSync(path.join(ROOT, 'dist'), path.join(pkg, 'dist'), { recursive: true, filter: (f) => !/claude-plugin|gemini-extension/.test(f) });
    mkdirSync(admin);
    spawnSync('chmod', ['-R', 'a+rX', pkg]);
    adminGit(['clone', '-q', url('gitolite-admin'), '.']);
    pushConf(conf(false));
    // the site's own policy, a repo-specific hook like ours: nothing may be pushed to refs/heads/closed
    const policy = path.join(info.home, 'local', 'hooks', 'repo-specific', 'site-policy');
    writeFileSync(policy, '#!/bin/sh\nif grep -q " refs/heads/closed$"; then echo "site policy: closed is closed" >&2; exit 1; fi\nexit 0\n');
    chmodSync(policy, 0o755);
    spawnSync('chown', [`${info.uid}:${info.gid}`, policy]);
  });
  afterAll(() => {
    spawnSync('bash', [SCRIPT, 'stop', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('install --server recognises gitolite: the check goes to LOCAL_CODE, hooks/pre-receive stays its driver, doctor follows', () => {
    const bin = path.join(dir, 'pkg', 'bin', 'git-handoff');
    for (const name of ['project', 'strict']) {
      const r = asGitolite(`'${bin}' install --server`, serverRepo(name));
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`${info.home}/local/hooks/repo-specific/git-handoff`);
      expect(r.stdout).toMatch(new RegExp(`not enabled yet[\\s\\S]*repo ${name}\\n    option hook.pre-receive = git-handoff`));
      const d = asGitolite(`'${bin}' doctor`, serverRepo(name));
      expect(d.stdout).toMatch(/server\s+missing\s+gitolite: .* is there but this repository does not run it/);
      expect(d.stdout).not.toMatch(/claude|gemini|codex/i);
    }
    // the admin lists it after the site's policy; gitolite's compile links both behind its driver
    const compiled = pushConf(conf(true));
    expect(compiled).not.toMatch(/doesn't exist or is not executable/);
    const hooks = path.join(serverRepo('project'), 'hooks');
    expect(readlinkSync(path.join(hooks, 'pre-receive'))).toMatch(/multi-hook-driver$/);
    expect(readlinkSync(path.join(hooks, 'pre-receive.h00-site-policy'))).toMatch(/repo-specific\/site-policy$/);
    expect(readlinkSync(path.join(hooks, 'pre-receive.h01-git-handoff'))).toMatch(/repo-specific\/git-handoff$/);
    const d = asGitolite(`'${bin}' doctor`, serverRepo('project'));
    expect(d.stdout).toMatch(/server\s+ok\s+pre-receive check installed through gitolite \(option hook.pre-receive = site-policy git-handoff; pre-receive.h01-git-handoff\)/);
    // install --server again changes nothing and never renames gitolite's driver
    const again = asGitolite(`'${bin}' install --server`, serverRepo('project'));
    expect(again.stdout).toMatch(/already there[\s\S]*enabled for project/);
    expect(readlinkSync(path.join(hooks, 'pre-receive'))).toMatch(/multi-hook-driver$/);
  });

  it('the site policy chained before the check still refuses what it refused; branches go through', () => {
    const a = clone('alice', 'project');
    const closed = a.git(['push', 'origin', 'HEAD:refs/heads/closed'], { allowFail: true });
    expect(closed.status).not.toBe(0);
    expect(closed.stderr).toContain('site policy: closed is closed');
    expect(onServer('project', 'refs/heads/closed')).toBeNull();
    a.git(['push', '-q', 'origin', 'HEAD:refs/heads/main']);
    expect(onServer('project', 'refs/heads/main')).toBe(a.git(['rev-parse', 'HEAD']).stdout.trim());
  });

  it('refuses the eight clobbering pushes; the server keeps its handoffs, archive and receipts', async () => {
    const a = clone('alice', 'project');
    const b = clone('bob', 'project');
    await ok(a, ['write', 'auth-refactor', '-m', 'the real one', '--session', 'sess-a']);
    await ok(a, ['write', 'old-topic', '-m', 'done', '--session', 'sess-a']);
    await ok(a, ['archive', 'old-topic', '--session', 'sess-a']);
    await ok(a, ['show', 'auth-refactor', '--session', 'reader-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const kept = onServer('project', REF)!;
    // one of the archive's two entries (SPEC 2 "Format version"): either is held the same way
    const entry = a.git(['for-each-ref', '--format=%(refname)', 'refs/handoff-archive/']).stdout.trim().split('\n')[0];
    const entryOid = onServer('project', entry)!;
    const notes = onServer('project', NOTES)!;
    expect([kept, entryOid, notes].every(Boolean)).toBe(true);
    const tree = b.git(['rev-parse', `${kept}^{tree}`]).stdout.trim();
    b.git(['fetch', '-q', 'origin', `+${NOTES}:${NOTES}`]);
    const refused = (args: string[], why: RegExp) => {
      const r = b.git(['push', ...args], { allowFail: true });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).not.toBe(0);
      expect(r.stderr).toMatch(why);
    };
    // 1. forced rewrite  2. fast-forward steal  3. deletion without archive
    refused(['--force', 'origin', `${forge(b, tree, [], 'sess-b')}:${REF}`], /remote: git-handoff: refused refs\/handoffs\/main\/auth-refactor: history rewritten/);
    refused(['origin', `${forge(b, tree, [kept], 'sess-b')}:${REF}`], /remote: git-handoff: refused .*session sess-b adds to session sess-a's handoff without a takeover/);
    refused(['origin', `:${REF}`], /remote: git-handoff: refused .*deleting a handoff is done only by archiving it/);
    // 4. moving an archive entry  5. deleting one
    refused(['--force', 'origin', `${forge(b, tree, [entryOid], 'sess-a')}:${entry}`], /remote: git-handoff: refused .*an archive entry never moves/);
    refused(['origin', `:${entry}`], /remote: git-handoff: refused .*archived handoffs are kept/);
    // 6. dropping receipts with a fast-forward  7. rewriting them  8. deleting them
    const empty = b.git(['mktree'], { input: '' }).stdout.trim();
    refused(['origin', `${b.git(['commit-tree', empty, '-p', notes], { input: 'drop\n' }).stdout.trim()}:${NOTES}`], /remote: git-handoff: refused refs\/notes\/handoff-reads: the update drops 1 receipt line/);
    b.git(['notes', `--ref=${NOTES}`, 'add', '-f', '-m', 'forger 1 read', kept]);
    refused(['--force', 'origin', `${NOTES}:${NOTES}`], /remote: git-handoff: refused refs\/notes\/handoff-reads: the update drops 1 receipt line/);
    refused(['origin', `:${NOTES}`], /remote: git-handoff: refused .*deleting the read receipts is refused/);
    expect([onServer('project', REF), onServer('project', entry), onServer('project', NOTES)]).toEqual([kept, entryOid, notes]);
  });

  it('two clones sync through the documented rules: write, push, fetch, diverge, resolve, receipts, archive', async () => {
    const a = clone('alice', 'strict');
    const b = clone('bob', 'strict');
    await ok(a, ['write', 'auth-refactor', '-m', 'v1 from alice', '--session', 'sess-a']);
    await ok(a, ['sync']);
    expect(onServer('strict', REF)).toBe(a.git(['rev-parse', REF]).stdout.trim());
    await ok(b, ['fetch']);
    expect(b.git(['rev-parse', REF]).stdout).toBe(a.git(['rev-parse', REF]).stdout);
    // both sessions write on top of v1 (b takes over on the record): diverged
    await ok(a, ['write', 'auth-refactor', '-m', 'v2 from alice', '--session', 'sess-a']);
    await ok(b, ['write', 'auth-refactor', '-m', 'v2 from bob', '--session', 'sess-b', '--take-over', '--reason', 'alice asked']);
    await ok(a, ['sync']);
    const diverged = await b.cli(['sync']);
    expect(diverged.exitCode).toBe(4);
    expect(String(diverged.stderr)).toContain('--resolve auth-refactor');
    await ok(b, ['sync', '--resolve', 'auth-refactor', '--keep', 'both', '--session', 'sess-b']);
    await ok(b, ['sync']);
    await ok(a, ['sync']);
    expect(a.git(['rev-parse', REF]).stdout).toBe(b.git(['rev-parse', REF]).stdout);
    expect(String((await ok(a, ['show', 'auth-refactor', '--raw'])).stdout)).toMatch(/v2 from alice[\s\S]*v2 from bob|v2 from bob[\s\S]*v2 from alice/);
    // receipts in both clones, merged by union through the server
    await ok(a, ['show', 'auth-refactor', '--session', 'reader-a']);
    await ok(b, ['show', 'auth-refactor', '--session', 'reader-b']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    await ok(a, ['sync']);
    const readers = (c: TestRepo) => receiptLines(c).map((l) => l.split(' ').slice(1).join(' '));
    expect(readers(a)).toEqual(['reader-a read', 'reader-b read']);
    expect(readers(b)).toEqual(readers(a));
    // archive: the deletion RWD allows, with its entry, reaches the other clone
    await ok(b, ['archive', 'auth-refactor', '--session', 'sess-b']);
    await ok(b, ['sync']);
    expect(onServer('strict', REF)).toBeNull();
    await ok(a, ['sync']);
    expect(a.git(['rev-parse', '-q', '--verify', REF], { allowFail: true }).status).not.toBe(0);
    expect(a.git(['for-each-ref', 'refs/handoff-archive/']).stdout).toContain('auth-refactor');
  });

  it('without the delete right an archive is refused by gitolite: said once, with its reason, exit 7; nothing is lost', async () => {
    const a = clone('alice', 'plainrw');
    const b = clone('bob', 'plainrw');
    await ok(a, ['write', 'auth-refactor', '-m', 'v1', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const tip = onServer('plainrw', REF);
    await ok(a, ['archive', 'auth-refactor', '--session', 'sess-a']);
    const r = await a.cli(['sync']);
    expect(r.exitCode).toBe(7);
    const err = String(r.stderr);
    // gitolite names deletion `+` when no rule of the repository uses D
    expect(err).toMatch(/remote: FATAL: \+ refs\/handoffs\/main\/auth-refactor plainrw alice DENIED by fallthru/);
    expect(err.match(/FATAL: \+ refs\/handoffs\/main\/auth-refactor/g)).toHaveLength(1);
    expect(err).toMatch(/archiving deletes refs\/handoffs\/…: the host must grant the delete right there \(docs\/hosting.md\)/);
    expect(err).not.toMatch(/now local-ahead|after a re-fetch/);
    expect(err).toMatch(/check your access to origin/);
    expect(onServer('plainrw', REF)).toBe(tip);
    // bob still has it, live, as the server does
    await ok(b, ['sync']);
    expect(b.git(['rev-parse', REF]).stdout.trim()).toBe(tip);
    // without + gitolite itself refuses a rewind, before any hook
    const tree = b.git(['rev-parse', `${tip}^{tree}`]).stdout.trim();
    const rewind = b.git(['push', '--force', '--no-verify', 'origin', `${forge(b, tree, [], 'sess-b')}:${REF}`], { allowFail: true });
    expect(rewind.status).not.toBe(0);
    expect(rewind.stderr).toMatch(/FATAL: \+ refs\/handoffs\/main\/auth-refactor plainrw bob DENIED by fallthru/);
    expect(onServer('plainrw', REF)).toBe(tip);
  });
  // issue 38: the claim races of test/handoff/claims/race-transports.slow.test.ts through gitolite and the documented rules (3 rounds
  // here; CLAIM_RACE_ROUNDS=200 for the full run, docs/testing.md)
  const ROUNDS = Number(process.env.CLAIM_RACE_ROUNDS) || 3;
  it(`claim races through the documented rules: ${ROUNDS} rounds of 3 clones × 4 sessions, one winner each; sync publishes the loss record`, async () => {
    const clones = [clone('alice', 'strict'), clone('bob', 'strict'), clone('alice', 'strict')];
    const serverGit = (args: string[]) => {
      const r = spawnSync('git', ['--git-dir', serverRepo('strict'), ...args], { encoding: 'utf8' });
      return { status: r.status ?? 128, stdout: r.stdout, stderr: r.stderr };
    };
    const server = { dir: serverRepo('strict'), git: serverGit } as unknown as TestRepo;
    const winners = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) winners.add(await raceRound(server, clones, 4, round));
    expect(winners.size).toBe(ROUNDS);
    // the loss record of a clone travels under refs/handoff-records/ (its right is in the rules above): one more
    // ref there, this clone's (the clones of the test before published theirs)
    const records = () => serverGit(['for-each-ref', '--format=%(refname)', 'refs/handoff-records/']).stdout.split('\n').filter(Boolean);
    const before = records();
    await ok(clones[1], ['write', 'claims-done', '-m', 'all claimed', '--session', 'sess-b']);
    const r = await ok(clones[1], ['sync']);
    expect(String(r.stderr)).not.toMatch(/record was not published/);
    expect(records().filter((x) => !before.includes(x))).toHaveLength(1);
  }, 24 * 3_600_000);
});
