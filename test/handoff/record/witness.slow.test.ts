// The record's witness outside .git (issue 36): the store wiped (refs, the record, the tool's state, gc --prune=now),
// the git dir relocated, or .git deleted and the project cloned again — each is noticed at the next session start
// (the SessionStart hook's view, what the agent is given), which says what is missing and restores it from the
// witness under $XDG_STATE_HOME: every version of the live handoffs, the archive entries, and a drop's kept versions
// (so `restore` still undoes the drop). A witness deleted alone is rebuilt without a word.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { gitRecorder, handoffRefs, makeWorld, ok } from '../../sync/world';
import { guard, payload } from '../../guard/helpers';
import { OTHER_REF, raw, RECORD, REF, seeded } from './helpers';

const versions = (repo: TestRepo, ref: string) => repo.git(['rev-list', ref]).stdout.split('\n').filter(Boolean);
const witnessRoot = (repo: TestRepo) => path.join(repo.home, '.local', 'state', 'git-handoff', 'witness');
const gitDirOf = (repo: TestRepo) => path.resolve(repo.dir, repo.git(['rev-parse', '--git-common-dir']).stdout.trim());
const DROPPED = 'refs/handoff-dropped/';
/** ref → oid under some prefixes */
const refsUnder = (repo: TestRepo, ...prefixes: string[]) => repo.git(['for-each-ref', '--format=%(refname) %(objectname)', ...prefixes]).stdout;
/** The state the owner made: live handoffs (every version of REF), archive entries, and the drop's kept tip. */
interface Was {
  tip: string;
  history: string[];
  other: string;
  live: string;
  archive: string;
  dropped: string;
}

/** Everything of the store gone: handoff, archive, receipts and record refs, the tool's state, and the objects pruned. */
function wipe(repo: TestRepo) {
  for (const ref of repo.git(['for-each-ref', '--format=%(refname)']).stdout.split('\n').filter((r) => r && !r.startsWith('refs/heads/'))) raw(repo, ['update-ref', '-d', ref]);
  rmSync(path.join(gitDirOf(repo), 'handoff'), { recursive: true, force: true });
  repo.git(['reflog', 'expire', '--expire=now', '--all']);
  repo.git(['gc', '-q', '--prune=now']);
}

/** The next session starts: Claude Code runs the SessionStart hook, whose context (the boot view) the agent reads. */
async function sessionStart(repo: TestRepo): Promise<string> {
  const r = await guard(repo, payload(repo, 'claude-code/session-start.json', {}, 'sess-owner'));
  expect(r.exitCode).toBe(0);
  return r.answer.hookSpecificOutput.additionalContext;
}

async function expectRestoredAtSessionStart(repo: TestRepo, was: Was) {
  // the objects themselves are gone from the store: only the witness can bring them back
  expect(repo.git(['cat-file', '-e', was.tip], { allowFail: true }).status).not.toBe(0);
  expect(repo.git(['cat-file', '-e', was.dropped], { allowFail: true }).status).not.toBe(0);
  const out = await sessionStart(repo);
  expect(out).toMatch(/against its witness outside \.git/);
  expect(out).toContain(REF);
  expect(out).toMatch(/restored at session start/);
  expect(out).toMatch(/refs\/handoff-dropped\/main\/scratch-notes\/\d+-[0-9a-f]{12} restored at/);
  // the view the agent gets lists the handoffs restored
  expect(out).toContain('login-redirect-loop · owner sess-owner (you)');
  expect(refOf(repo, REF)).toBe(was.tip);
  expect(versions(repo, REF)).toEqual(was.history);
  expect(refOf(repo, OTHER_REF)).toBe(was.other);
  expect(refsUnder(repo, 'refs/handoffs/')).toBe(was.live);
  expect(refsUnder(repo, 'refs/handoff-archive/')).toBe(was.archive);
  // the drop's undo is back: restore brings the dropped handoff back live, as it was
  expect(refsUnder(repo, DROPPED).split(' ')[1]?.trim()).toBe(was.dropped);
  expect((await ok(repo, ['list'])).stderr).toBe('');
  expect((await ok(repo, ['recover'])).stdout).toMatch(/nothing lost/);
  // nothing said again at the next session start
  expect(await sessionStart(repo)).not.toMatch(/witness|restored|lost/);
  await ok(repo, ['restore', 'scratch-notes', '--session', 'sess-owner']);
  expect(refOf(repo, 'refs/handoffs/main/scratch-notes')).toBe(was.dropped);
}

async function seededWithWitness() {
  const repo = await seeded();
  // an archived handoff and a dropped one too: the wipe takes them, the witness brings them back
  await ok(repo, ['write', 'old-plan', '-m', 'Goal: retired', '--session', 'sess-owner']);
  await ok(repo, ['archive', 'old-plan', '--session', 'sess-owner']);
  await ok(repo, ['write', 'scratch-notes', '-m', 'Goal: scratch', '--session', 'sess-owner']);
  await ok(repo, ['drop', 'scratch-notes', '--session', 'sess-owner']);
  const dropped = refsUnder(repo, DROPPED).split(' ')[1].trim();
  const was: Was = { tip: refOf(repo, REF)!, history: versions(repo, REF), other: refOf(repo, OTHER_REF)!, live: refsUnder(repo, 'refs/handoffs/'), archive: refsUnder(repo, 'refs/handoff-archive/'), dropped };
  expect(was.archive.split('\n').filter(Boolean)).toHaveLength(2);
  // one witness for the project, holding this clone's record
  const projects = readdirSync(witnessRoot(repo));
  expect(projects).toHaveLength(1);
  const witness = path.join(witnessRoot(repo), projects[0]);
  expect(repo.git(['--git-dir', witness, 'for-each-ref', '--format=%(objectname)', 'refs/witness/']).stdout.trim()).toBe(refOf(repo, RECORD));
  return { repo, was, witness };
}

describe('the witness outside .git', () => {
  it('the store wiped (refs, record, state, reflog expire + gc --prune=now): noticed at session start, every version restored', async () => {
    const { repo, was } = await seededWithWitness();
    wipe(repo);
    await expectRestoredAtSessionStart(repo, was);
  });

  it('the git dir relocated (git init --separate-git-dir) and then wiped: the same', async () => {
    const { repo, was } = await seededWithWitness();
    const moved = path.join(path.dirname(repo.dir), 'elsewhere.git');
    repo.git(['init', '-q', '--separate-git-dir', moved]);
    expect(gitDirOf(repo)).toBe(moved);
    wipe(repo);
    await expectRestoredAtSessionStart(repo, was);
  });

  it('.git deleted and the project cloned again at the same place: the fresh clone restores every version', async () => {
    const remote = makeRepo({ init: ['--bare'] });
    const { repo, was } = await seededWithWitness();
    repo.git(['push', '-q', remote.dir, 'main']);
    rmSync(repo.dir, { recursive: true, force: true });
    repo.git(['clone', '-q', remote.dir, repo.dir], { cwd: path.dirname(repo.dir) });
    expect(refOf(repo, RECORD)).toBeNull();
    await expectRestoredAtSessionStart(repo, was);
  });

  it('.git alone deleted (the files stay) and the clone\'s .git brought back from the remote: the same', async () => {
    const remote = makeRepo({ init: ['--bare'] });
    const { repo, was } = await seededWithWitness();
    repo.git(['push', '-q', remote.dir, 'main']);
    rmSync(path.join(repo.dir, '.git'), { recursive: true, force: true });
    const tmp = path.join(path.dirname(repo.dir), 'fresh');
    repo.git(['clone', '-q', '--no-checkout', remote.dir, tmp], { cwd: path.dirname(repo.dir) });
    renameSync(path.join(tmp, '.git'), path.join(repo.dir, '.git'));
    repo.git(['reset', '-q']);
    expect(refOf(repo, RECORD)).toBeNull();
    await expectRestoredAtSessionStart(repo, was);
  });

  it('the clone deleted and the project cloned again elsewhere: the fresh clone takes the gone one\'s record, once', async () => {
    const remote = makeRepo({ init: ['--bare'] });
    const { repo, was } = await seededWithWitness();
    repo.git(['push', '-q', remote.dir, 'main']);
    rmSync(repo.dir, { recursive: true, force: true });
    const elsewhere = { ...repo, dir: path.join(path.dirname(repo.dir), 'elsewhere') };
    repo.git(['clone', '-q', remote.dir, elsewhere.dir], { cwd: path.dirname(repo.dir) });
    const again: TestRepo = { ...repo, dir: elsewhere.dir, git: (args, o = {}) => repo.git(args, { cwd: elsewhere.dir, ...o }), cli: (args, o = {}) => repo.cli(args, { cwd: elsewhere.dir, ...o }) };
    await expectRestoredAtSessionStart(again, was);
    // taken once: a third clone of the project finds no gone clone's record to take
    const third = path.join(path.dirname(repo.dir), 'third');
    repo.git(['clone', '-q', remote.dir, third], { cwd: path.dirname(repo.dir) });
    const boot = await repo.cli(['boot', '--session', 'sess-owner'], { cwd: third });
    expect(String(boot.stdout) + String(boot.stderr)).not.toMatch(/witness|restored/);
    expect(repo.git(['for-each-ref', 'refs/handoffs/'], { cwd: third }).stdout).toBe('');
  });

  it('versions a fetch brought as a pack: the pack is copied into the witness (no push there, no link shared with the clone), and a wipe restores them', async () => {
    const { a, b } = await makeWorld('file');
    for (const t of ['plan-a', 'plan-b', 'plan-c']) await ok(b, ['write', t, '-m', `Goal: ${t}`, '--session', 'sess-there']);
    await ok(b, ['sync'], 0, { GIT_HANDOFF_SESSION: 'sess-there' });
    // the fetch keeps its pack, as one of 100 objects or more does
    a.git(['config', 'fetch.unpackLimit', '1']);
    const calls = gitRecorder(makeRepo().dir);
    await ok(a, ['sync'], 0, calls.env);
    expect(calls.calls().filter((c) => c[0] === 'push' && c.some((x) => x.includes('/witness/')))).toEqual([]);
    const packs = (dir: string) => readdirSync(path.join(dir, 'objects', 'pack')).filter((n) => n.endsWith('.pack'));
    const [project] = readdirSync(witnessRoot(a));
    const fetched = packs(gitDirOf(a));
    expect(fetched).toHaveLength(1);
    expect(packs(path.join(witnessRoot(a), project))).toContain(fetched[0]);
    const inode = (dir: string) => statSync(path.join(dir, 'objects', 'pack', fetched[0])).ino;
    expect(inode(path.join(witnessRoot(a), project))).not.toBe(inode(gitDirOf(a)));
    const was = handoffRefs(a);
    expect(was.split('\n')).toHaveLength(3);
    // the remote out of reach: only the witness can bring them back
    a.git(['remote', 'remove', 'origin']);
    wipe(a);
    expect(await sessionStart(a)).toMatch(/against its witness outside \.git/);
    expect(handoffRefs(a)).toBe(was);
  });

  it('a witness deleted alone is rebuilt at the next command, with no alarm', async () => {
    const { repo, witness } = await seededWithWitness();
    rmSync(witnessRoot(repo), { recursive: true, force: true });
    const r = await ok(repo, ['list']);
    expect(r.stderr).toBe('');
    expect(existsSync(witness)).toBe(true);
    expect(repo.git(['--git-dir', witness, 'for-each-ref', '--format=%(objectname)', 'refs/witness/']).stdout.trim()).toBe(refOf(repo, RECORD));
    expect(await sessionStart(repo)).not.toMatch(/witness|lost|restored/);
  });

  it('redact lets the witness drop the redacted versions too (what no record in it reaches is pruned)', async () => {
    const repo = makeRepo({ commit: true });
    const ref = 'refs/handoffs/main/auth-notes';
    await ok(repo, ['write', 'auth-notes', '-m', 'Goal: clean start', '--session', 'sess-a']);
    // a version with a secret made with plumbing (write would refuse it), taken into the record by the next check
    const secret = 'ghp_' + 'Rd4'.repeat(12);
    const blob = repo.git(['hash-object', '-w', '--stdin'], { input: `leak ${secret}\n` }).stdout.trim();
    const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
    const leak = repo.git(['commit-tree', tree, '-p', ref], { input: 'handoff(auth-notes): leak\n\nClaude-Session-Id: sess-a\nHandoff-Topic: auth-notes\nHandoff-Branch: main\n' }).stdout.trim();
    raw(repo, ['update-ref', ref, leak]);
    await ok(repo, ['list']);
    const witness = path.join(witnessRoot(repo), readdirSync(witnessRoot(repo))[0]);
    expect(repo.git(['--git-dir', witness, 'cat-file', '-e', blob], { allowFail: true }).status).toBe(0);
    await ok(repo, ['redact', 'auth-notes', '--session', 'sess-a']);
    expect(repo.git(['--git-dir', witness, 'cat-file', '-e', blob], { allowFail: true }).status).not.toBe(0);
    // and the witness still holds the record as it is now
    expect(repo.git(['--git-dir', witness, 'for-each-ref', '--format=%(objectname)', 'refs/witness/']).stdout.trim()).toBe(refOf(repo, RECORD));
  });
});
