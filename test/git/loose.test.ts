// Objects written in this process (src/git/loose.ts) must be byte for byte what git writes: the same ids as
// hash-object, mktree and commit-tree, readable and fsck-clean; every case it cannot prove goes to git.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/git/config';
import { countLooseCommits } from '../../src/git/loose';
import { openRepo } from '../../src/git/repo';
import { WRITE_COMMIT } from '../../src/git/storage';
import { makeRepo, tempDir, type TestRepo } from '../helpers/repo';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

/** The repository as the CLI opens it, in its environment, with every git process this test's code starts logged. */
function open(t: TestRepo, extra: Record<string, string> = {}) {
  const bin = tempDir();
  const log = path.join(bin, 'log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_') && !k.startsWith('GIT_HANDOFF')) delete process.env[k];
  Object.assign(process.env, t.env, extra, { PATH: `${bin}:${t.env.PATH}` });
  const repo = openRepo(t.dir);
  const config = readConfig(repo);
  const all = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  const before = all().length;
  const spawned = () => all().slice(before);
  return { repo, config, spawned };
}

const BODY = '# auth-refactor\n\n## Goal\nMove sessions — with ümlauts and a tab\there.\n';

/** The commit git writes from the same tree, parents, message and stamps as `oid`. */
function gitsCommit(t: TestRepo, oid: string, env: Record<string, string> = {}): string {
  const raw = t.git(['cat-file', 'commit', oid]).stdout;
  const header = raw.slice(0, raw.indexOf('\n\n'));
  const message = raw.slice(raw.indexOf('\n\n') + 2);
  const field = (k: string) => header.split('\n').filter((l) => l.startsWith(`${k} `)).map((l) => l.slice(k.length + 1));
  const stamp = (k: string) => field(k)[0].replace(/^.* (\d+ [+-]\d{4})$/, '@$1');
  const args = ['commit-tree', field('tree')[0], ...field('parent').flatMap((p) => ['-p', p]), '-F', '-'];
  return t.git(args, { input: message, env: { ...env, GIT_AUTHOR_DATE: stamp('author'), GIT_COMMITTER_DATE: stamp('committer') } }).stdout.trim();
}

describe('objects written in this process', () => {
  for (const format of ['sha1', 'sha256'] as const) {
    it(`are the objects git writes (${format}): same ids, readable, fsck --strict clean, no git process`, () => {
      const t = makeRepo({ commit: true, init: format === 'sha256' ? ['--object-format=sha256'] : [] });
      const { repo, spawned } = open(t);
      const [body, state] = repo.writeBlobs([BODY, '{"branch":"main"}\n']);
      const tree = repo.writeTree([
        { name: 'state.json', oid: state },
        { name: 'handoff.md', oid: body },
      ]);
      const head = t.git(['rev-parse', 'HEAD']).stdout.trim();
      const commit = repo[WRITE_COMMIT]({ tree, parents: [head, head], message: 'handoff: auth-refactor\n\nClaude-Session-Id: s-1\n' });
      const lone = repo.writeBlobs([''])[0];
      // …none of it through git (the config was read before, as every writer does)
      expect(spawned()).toEqual([]);
      expect(body).toBe(t.git(['hash-object', '--stdin'], { input: BODY }).stdout.trim());
      expect(lone).toBe(t.git(['hash-object', '--stdin'], { input: '' }).stdout.trim());
      expect(tree).toBe(t.git(['mktree'], { input: `100644 blob ${body}\thandoff.md\n100644 blob ${state}\tstate.json\n` }).stdout.trim());
      expect(gitsCommit(t, commit)).toBe(commit);
      // a duplicate parent is written once, as commit-tree does
      expect(t.git(['rev-list', '--parents', '-1', commit]).stdout.trim().split(' ')).toEqual([commit, head]);
      expect(t.git(['cat-file', '-p', `${commit}:handoff.md`]).stdout).toBe(BODY);
      expect(t.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>', commit]).stdout.trim()).toBe('Test User <test@example.com>|Test User <test@example.com>');
      t.git(['update-ref', 'refs/handoffs/main/auth-refactor', commit]);
      expect(t.git(['fsck', '--strict', '--no-dangling']).status).toBe(0);
      // loose, read-only, as git leaves its objects
      const file = path.join(t.dir, '.git', 'objects', commit.slice(0, 2), commit.slice(2));
      expect(statSync(file).mode & 0o777).toBe(0o444);
      // written again: the same id, the file kept
      expect(repo[WRITE_COMMIT]({ tree, parents: [head], message: 'again\n' })).toMatch(/^[0-9a-f]+$/);
      expect(repo.writeBlobs([BODY])[0]).toBe(body);
    });
  }

  it('strip an identity the way git does (crud at both ends, <, > and newlines anywhere)', () => {
    const t = makeRepo({ commit: true });
    const env = { GIT_AUTHOR_NAME: ' "Ann <the> Coder", ', GIT_COMMITTER_EMAIL: '<ann@example.com>;' };
    const { repo, spawned } = open(t, env);
    const tree = repo.writeTree([]);
    const commit = repo[WRITE_COMMIT]({ tree, parents: [], message: 'x\n', env: { GIT_COMMITTER_NAME: '.Bob.' } });
    expect(spawned()).toEqual([]);
    expect(t.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>', commit]).stdout.trim()).toBe('Ann the Coder <test@example.com>|Bob <ann@example.com>');
    expect(gitsCommit(t, commit, { ...env, GIT_COMMITTER_NAME: '.Bob.' })).toBe(commit);
  });

  it('go to git whenever git would write something else or somewhere else', () => {
    const cases: Array<{ what: string; config?: string[]; env?: Record<string, string>; sign?: boolean; check?: (t: TestRepo, commit: string) => void }> = [
      { what: 'commit.gpgSign (commit-tree signs)', config: ['commit.gpgSign', 'true'] },
      { what: 'i18n.commitEncoding (an encoding header)', config: ['i18n.commitEncoding', 'ISO-8859-1'], check: (t, c) => expect(t.git(['cat-file', 'commit', c]).stdout).toMatch(/^encoding ISO-8859-1$/m) },
      { what: 'core.sharedRepository (group permissions)', config: ['core.sharedRepository', 'group'] },
      { what: 'core.fsync', config: ['core.fsync', 'loose-object'] },
      { what: 'a date in the environment', env: { GIT_COMMITTER_DATE: '@1700000000 +0100' }, check: (t, c) => expect(t.git(['log', '-1', '--format=%ct', c]).stdout.trim()).toBe('1700000000') },
      { what: 'an object directory in the environment', env: { GIT_OBJECT_DIRECTORY: '' } },
    ];
    for (const c of cases) {
      const t = makeRepo({ commit: true });
      if (c.config) t.git(['config', ...c.config]);
      const env = { ...c.env };
      if (env.GIT_OBJECT_DIRECTORY === '') env.GIT_OBJECT_DIRECTORY = path.join(t.dir, '.git', 'objects');
      const { repo, spawned } = open(t, env);
      const tree = repo.writeTree([]);
      let commit: string | null = null;
      try {
        commit = repo[WRITE_COMMIT]({ tree, parents: [], message: 'x\n' });
      } catch (e) {
        // no key here: git tried to sign, which only git does
        expect(c.what, String(e)).toMatch(/^commit.gpgSign/);
      }
      expect(spawned(), c.what).toContain('commit-tree');
      if (/sharedRepository|fsync|object directory/.test(c.what)) expect(spawned(), c.what).toContain('mktree');
      if (commit) c.check?.(t, commit);
    }
  }, 30_000);

  it('a history is counted as rev-list --count counts it, merges included; packed or shallow, git counts', () => {
    const t = makeRepo({ commit: true });
    const { repo } = open(t);
    const tree = t.git(['rev-parse', 'HEAD^{tree}']).stdout.trim();
    const ct = (parents: string[], m: string) => t.git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', m]).stdout.trim();
    const root = ct([], 'root');
    let a = root;
    let b = root;
    for (let i = 0; i < 5; i++) a = ct([a], `a${i}`);
    for (let i = 0; i < 3; i++) b = ct([b], `b${i}`);
    const merge = ct([a, b], 'merge');
    const tip = ct([merge], 'tip');
    const revList = (oid: string) => Number(t.git(['rev-list', '--count', oid]).stdout.trim());
    expect(countLooseCommits(repo.commonDir, tip)).toBe(revList(tip));
    expect(countLooseCommits(repo.commonDir, a)).toBe(revList(a));
    expect(repo.revCount(tip)).toBe(11);
    // a commit's object gone loose (packed by gc): git answers, with the same count
    t.git(['update-ref', 'refs/handoffs/main/count-me', tip]);
    t.git(['gc', '-q', '--prune=now']);
    expect(countLooseCommits(repo.commonDir, tip)).toBeNull();
    expect(repo.revCount(tip)).toBe(11);
    // a shallow clone: git hides the parents it cut, so git counts
    writeFileSync(path.join(t.dir, '.git', 'shallow'), `${merge}\n`);
    expect(countLooseCommits(repo.commonDir, tip)).toBeNull();
    expect(repo.revCount(tip)).toBe(revList(tip));
  });
});
