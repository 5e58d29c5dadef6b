// The store through the real CLI: ownership, takeover, archive/restore, commit format, odd repositories.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, tempDir, type TestRepo } from '../../helpers/repo';

const A = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const B = '9e1b7c33-0000-4000-8000-00000000000b';
const REF = 'refs/handoffs/main/auth-refactor';

async function writeAs(repo: TestRepo, session: string, body: string, extra: string[] = []) {
  return repo.cli(['write', 'auth-refactor', '--session', session, '-m', body, ...extra]);
}

describe('write and ownership', () => {
  it('creates, then refuses another session (exit 3) naming the owner, and moves nothing', async () => {
    const repo = makeRepo({ commit: true });
    const w = await writeAs(repo, A, 'first');
    expect(w.exitCode).toBe(0);
    expect(w.stdout).toMatch(/^refs\/handoffs\/main\/auth-refactor [0-9a-f]{7} \(created\)$/);
    const before = refOf(repo, REF);
    const r = await writeAs(repo, B, 'clobber');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('5f0c6a52');
    expect(r.stderr).toContain('9e1b7c33');
    expect(r.stderr).toMatch(/new topic/);
    expect(r.stderr).toMatch(/--take-over --reason/);
    expect(refOf(repo, REF)).toBe(before);
    const j = await repo.cli(['write', 'auth-refactor', '--session', B, '-m', 'x', '--json']);
    expect(j.exitCode).toBe(3);
    expect(json(j).error.code).toBe('owned-by-another-session');
    expect(json(j).error.data.owner).toBe(A);
  });

  it('takeover needs a reason, records Takeover-From and Reason, and keeps every version', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'one');
    await writeAs(repo, A, 'two');
    const noReason = await writeAs(repo, B, 'three', ['--take-over']);
    expect(noReason.exitCode).toBe(2);
    expect(noReason.stderr).toMatch(/--reason/);
    const t = await repo.cli(['write', 'auth-refactor', '--session', B, '-m', 'three', '--take-over', '--reason', 'A ended', '--json']);
    expect(t.exitCode).toBe(0);
    const res = json(t);
    expect(res).toMatchObject({ ref: REF, session: B, created: false, takeover: true, warnings: [] });
    const msg = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(msg).toContain(`Handoff-Takeover-From: ${A}`);
    expect(msg).toContain('Handoff-Reason: A ended');
    const log = json(await repo.cli(['log', 'auth-refactor', '--json']));
    expect(log.map((e: any) => e.session)).toEqual([B, A, A]);
    expect(log[0].takeoverFrom).toBe(A);
    // the new owner writes freely, the old one is now refused
    expect((await writeAs(repo, B, 'four')).exitCode).toBe(0);
    expect((await writeAs(repo, A, 'five')).exitCode).toBe(3);
  });

  it('writes the commit format of SPEC 2: tree, subject, ordered trailers, parent chain', async () => {
    const repo = makeRepo({ commit: true });
    repo.commit('code', { 'src/auth.ts': 'x\n' });
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const body = '## Goal\nMove login to the token API, see src/auth.ts and docs/none.md\n\n## Next action\nport refresh()\n';
    const w1 = json(await repo.cli(['write', 'auth-refactor', '--session', A, '-F', '-', '--json'], { input: body }));
    expect(w1.created).toBe(true);
    expect(w1.previous).toBeNull();
    expect(repo.git(['ls-tree', '--name-only', REF]).stdout.split('\n').filter(Boolean)).toEqual(['handoff.md', 'state.json']);
    expect(repo.git(['cat-file', 'blob', `${REF}:handoff.md`]).stdout).toBe(body);
    const state = JSON.parse(repo.git(['cat-file', 'blob', `${REF}:state.json`]).stdout);
    expect(state).toEqual({ branch: 'main', head, worktree: repo.dir, dirty: [], files: ['src/auth.ts'] });
    const msg = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    // the scan record's proof is an HMAC under this user's key (issue 24): the same shape, another value each run
    expect(msg.replace(/ proof=[0-9a-f]{64}\n/, '\n')).toBe(
      `handoff(auth-refactor): ## Goal\n\nClaude-Session-Id: ${A}\nHandoff-Branch: main\nHandoff-Topic: auth-refactor\nHandoff-Head: ${head}\nHandoff-Client: cli\nHandoff-Scanned: secretlint-preset-recommend@12.0.0\n\n`,
    );
    expect(repo.git(['log', '-1', '--format=%P', REF]).stdout.trim()).toBe('');
    const w2 = json(await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'x'.repeat(100), '--json']));
    expect(w2.previous).toBe(w1.oid);
    expect(repo.git(['log', '-1', '--format=%P', REF]).stdout.trim()).toBe(w1.oid);
    expect(repo.git(['log', '-1', '--format=%s', REF]).stdout.trim()).toBe(`handoff(auth-refactor): ${'x'.repeat(60)}`);
    expect(repo.git(['log', '-1', '--format=%an <%ae>', REF]).stdout.trim()).toBe('Test User <test@example.com>');
    // handoff history holds no code commits
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('2');
  });

  it('client comes from the environment variable that gave the session', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['write', 'auth-refactor', '-m', 'x', '--json'], { env: { GEMINI_SESSION_ID: 'gem-1' } });
    expect(json(r).session).toBe('gem-1');
    expect(repo.git(['log', '-1', '--format=%(trailers:key=Handoff-Client,valueonly)', REF]).stdout.trim()).toBe('gemini-cli');
    const c = await repo.cli(['write', 'login-redirect-loop', '-m', 'x', '--json'], { env: { CLAUDE_CODE_SESSION_ID: 'cc-1', GIT_HANDOFF_SESSION: 'gh-1' } });
    expect(json(c).session).toBe('gh-1');
  });

  it('no session: exit 5 and says how to pass one', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['write', 'auth-refactor', '-m', 'x']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/--session/);
    expect(r.stderr).toMatch(/GIT_HANDOFF_SESSION/);
    expect(refOf(repo, REF)).toBeNull();
  });

  it('warns on creating a topic that overlaps a sibling', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['write', 'auth-token-refresh', '--session', A, '-m', 'x']);
    const r = await repo.cli(['write', 'fix-auth-token-expiry', '--session', B, '-m', 'y', '--json']);
    expect(r.exitCode).toBe(0);
    expect(json(r).warnings.join('\n')).toMatch(/overlaps "auth-token-refresh"/);
    const plain = await repo.cli(['write', 'auth-token-rotation', '--session', B, '-m', 'y']);
    expect(plain.stderr).toMatch(/warning: .*overlaps/);
  });
});

describe('bad input: a clear error and no ref created', () => {
  const cases: Array<[string, string[], number, RegExp]> = [
    ['a stopword-only topic', ['write', 'fix-main', '--session', A, '-m', 'x'], 2, /stopwords/],
    ['a one-word topic', ['write', 'main', '--session', A, '-m', 'x'], 2, /\^\[a-z0-9\]/],
    ['an uppercase topic', ['write', 'Auth-Refactor', '--session', A, '-m', 'x'], 2, /topic/],
    ['a session id with a space', ['write', 'auth-refactor', '--session', 'a b', '-m', 'x'], 2, /invalid session id/],
    ['a session id with a newline', ['write', 'auth-refactor', '--session', 'a\nHandoff-Topic: evil', '-m', 'x'], 2, /invalid session id/],
    ['an empty body', ['write', 'auth-refactor', '--session', A, '-m', '  '], 2, /empty/],
    ['no body at all', ['write', 'auth-refactor', '--session', A], 2, /-m/],
  ];
  for (const [name, args, code, re] of cases) {
    it(name, async () => {
      const repo = makeRepo({ commit: true });
      const r = await repo.cli(args);
      expect(r.exitCode).toBe(code);
      expect(r.stderr).toMatch(re);
      expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
      const j = await repo.cli([...args, '--json']);
      expect(j.exitCode).toBe(code);
      expect(json(j).error).toMatchObject({ code: expect.any(String), message: expect.any(String), data: expect.any(Object) });
    });
  }

  it('a session id from the environment is validated too', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['write', 'auth-refactor', '-m', 'x'], { env: { CLAUDE_CODE_SESSION_ID: 'bad id' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/CLAUDE_CODE_SESSION_ID/);
  });

  it('NUL bytes, invalid UTF-8 and a body over 1 MiB', async () => {
    const repo = makeRepo({ commit: true });
    const dir = tempDir();
    const files: Array<[string, Buffer, RegExp]> = [
      ['nul.md', Buffer.from('a\0b\n'), /NUL/],
      ['latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), /UTF-8/],
      ['big.md', Buffer.alloc(1024 * 1024 + 1, 'a'), /1 MiB/],
    ];
    for (const [name, content, re] of files) {
      writeFileSync(path.join(dir, name), content);
      const r = await repo.cli(['write', 'auth-refactor', '--session', A, '-F', path.join(dir, name)]);
      expect(r.exitCode, name).toBe(2);
      expect(r.stderr).toMatch(re);
    }
    writeFileSync(path.join(dir, 'max.md'), Buffer.alloc(1024 * 1024, 'a'));
    expect((await repo.cli(['write', 'auth-refactor', '--session', A, '-F', path.join(dir, 'max.md')])).exitCode).toBe(0);
  });

  it('not a git repository: exit 7', async () => {
    const repo = makeRepo();
    const outside = tempDir();
    const r = await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'x'], { cwd: outside });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/not a git repository/);
    const l = await repo.cli(['list', '--json'], { cwd: outside });
    expect(l.exitCode).toBe(7);
    expect(json(l).error.code).toBe('not-a-repository');
  });

  it('an unknown topic on show/log is exit 2; -C works like git', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['show', 'auth-refactor'])).exitCode).toBe(2);
    expect((await repo.cli(['log', 'auth-refactor'])).exitCode).toBe(2);
    await writeAs(repo, A, 'x');
    const elsewhere = tempDir();
    const r = await repo.cli(['-C', repo.dir, 'show', 'auth-refactor', '--raw'], { cwd: elsewhere });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('x');
  });
});

describe('repositories of every shape', () => {
  it('an unborn branch: head null, Handoff-Head none', async () => {
    const repo = makeRepo();
    const r = await writeAs(repo, A, 'first note');
    expect(r.exitCode).toBe(0);
    expect(repo.git(['log', '-1', '--format=%(trailers:key=Handoff-Head,valueonly)', REF]).stdout.trim()).toBe('none');
    expect(JSON.parse(repo.git(['cat-file', 'blob', `${REF}:state.json`]).stdout).head).toBeNull();
    const s = json(await repo.cli(['show', 'auth-refactor', '--json']));
    // still unborn, as when written: nothing moved (test/handoff/store/verify.slow.test.ts shows it turn `ahead` after commits)
    expect(s.verify).toMatchObject({ head: 'same', commitsSince: 0 });
  });

  it('a detached HEAD needs --branch', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['checkout', '-q', '--detach']);
    const r = await writeAs(repo, A, 'x');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--branch/);
    const ok = await writeAs(repo, A, 'x', ['--branch', 'main']);
    expect(ok.exitCode).toBe(0);
    expect(refOf(repo, REF)).not.toBeNull();
  });

  it('no git identity: falls back to git-handoff <git-handoff@localhost>', async () => {
    const repo = makeRepo({ identity: false });
    const r = await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'x'], { env: { EMAIL: undefined } });
    expect(r.exitCode).toBe(0);
    expect(repo.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>', REF]).stdout.trim()).toBe('git-handoff <git-handoff@localhost>|git-handoff <git-handoff@localhost>');
  });

  it('a SHA-256 repository', async () => {
    const repo = makeRepo({ init: ['--object-format=sha256'], commit: true });
    const r = json(await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'x', '--json']));
    expect(r.oid).toMatch(/^[0-9a-f]{64}$/);
    expect((await writeAs(repo, A, 'y')).exitCode).toBe(0);
    expect((await writeAs(repo, B, 'z')).exitCode).toBe(3);
    const l = json(await repo.cli(['log', 'auth-refactor', '--json']));
    expect(l).toHaveLength(2);
    expect(json(await repo.cli(['show', 'auth-refactor', '--json'])).verify.head).toBe('same');
    expect((await repo.cli(['archive', 'auth-refactor', '--session', A])).exitCode).toBe(0);
  });

  it('packed refs: CAS still holds, history continues', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'one');
    repo.git(['pack-refs', '--all']);
    expect((await writeAs(repo, B, 'two')).exitCode).toBe(3);
    expect((await writeAs(repo, A, 'two')).exitCode).toBe(0);
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('2');
  });

  it('a linked worktree writes to the shared refs', async () => {
    const repo = makeRepo({ commit: true });
    const wt = path.join(tempDir(), 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'feature/x', wt]);
    const r = await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'from the worktree', '--json'], { cwd: wt });
    expect(json(r).ref).toBe('refs/handoffs/feature%2Fx/auth-refactor');
    expect(refOf(repo, 'refs/handoffs/feature%2Fx/auth-refactor')).toBe(json(r).oid);
    const state = JSON.parse(repo.git(['cat-file', 'blob', 'refs/handoffs/feature%2Fx/auth-refactor:state.json']).stdout);
    expect(state.worktree).toBe(wt);
    const l = json(await repo.cli(['list', '--all', '--json']));
    expect(l.map((x: any) => x.branch)).toEqual(['feature/x']);
    // the main worktree sees it and is refused the same way
    expect((await repo.cli(['write', 'auth-refactor', '--branch', 'feature/x', '--session', B, '-m', 'x'])).exitCode).toBe(3);
  });

  it('unicode and 300-byte branch names, and a branch a next to a/b', async () => {
    const repo = makeRepo({ commit: true });
    const long = 'f/' + 'abcdefghi/'.repeat(29) + 'abcdefgh'; // 300 bytes in short components
    expect(Buffer.byteLength(long)).toBe(300);
    for (const b of ['ümlaut/Ñame', long, 'a', 'a/b']) {
      repo.git(['checkout', '-q', '-b', b === 'a' ? 'a-tmp' : b]);
      if (b === 'a') {
        repo.git(['checkout', '-q', 'main']);
        continue;
      }
      const r = await repo.cli(['write', 'auth-refactor', '--session', A, '-m', `on ${b}`, '--json']);
      expect(r.exitCode, b).toBe(0);
      expect(json(r).ref.split('/')).toHaveLength(4);
      repo.git(['checkout', '-q', 'main']);
    }
    // a handoff for branch "a" coexists with one for "a/b" (refs/heads/a cannot, since a/b exists)
    expect((await repo.cli(['write', 'auth-refactor', '--branch', 'a', '--session', A, '-m', 'on a'])).exitCode).toBe(0);
    const rows = json(await repo.cli(['list', '--all', '--json']));
    expect(rows.map((r: any) => r.branch).sort()).toEqual(['a', 'a/b', long, 'ümlaut/Ñame'].sort());
    const longRow = rows.find((r: any) => r.branch === long);
    expect(longRow.ref.length).toBeLessThan(250);
    expect(longRow.ref).toMatch(/\+[0-9a-f]{16}\//);
    const s = json(await repo.cli(['show', 'auth-refactor', '--branch', long, '--json']));
    expect(s.body).toBe(`on ${long}\n`);
    expect(repo.git(['fsck', '--no-progress']).status).toBe(0);
  });
});

describe('show, list, log, archive, restore', () => {
  it('show: the only handoff without a topic, the list when several; JSON shape of SPEC 4', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'Goal: one');
    const only = json(await repo.cli(['show', '--json']));
    expect(Object.keys(only)).toEqual(expect.arrayContaining(['branch', 'topic', 'ref', 'oid', 'session', 'client', 'updatedAt', 'versions', 'body', 'state', 'verify']));
    expect(only).toMatchObject({ branch: 'main', topic: 'auth-refactor', session: A, client: 'cli', versions: 1, body: 'Goal: one\n' });
    expect(only.verify).toEqual({ head: 'same', commitsSince: 0, missingFiles: [], dirty: false });
    expect(new Date(only.updatedAt).toISOString()).toBe(only.updatedAt);
    await repo.cli(['write', 'login-redirect-loop', '--session', B, '-m', 'two']);
    const many = await repo.cli(['show']);
    expect(many.stdout).toMatch(/2 handoffs/);
    expect(many.stdout).toMatch(/login-redirect-loop/);
    const text = await repo.cli(['show', 'auth-refactor']);
    expect(text.stdout).toMatch(/owner 5f0c6a52/);
    expect(text.stdout).toMatch(/Goal: one/);
  });

  it('show --at an earlier version', async () => {
    const repo = makeRepo({ commit: true });
    const v1 = json(await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1', '--json'])).oid;
    await writeAs(repo, A, 'v2');
    expect((await repo.cli(['show', 'auth-refactor', '--at', v1, '--raw'])).stdout).toBe('v1');
    expect((await repo.cli(['show', 'auth-refactor', '--at', '~1', '--raw'])).stdout).toBe('v1');
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect((await repo.cli(['show', 'auth-refactor', '--at', head])).exitCode).toBe(2);
  });

  it('list: --all, --branch, --mine, JSON rows', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'x');
    await repo.cli(['write', 'login-redirect-loop', '--session', B, '-m', 'y', '--branch', 'feature/Login.v2']);
    const here = json(await repo.cli(['list', '--json']));
    expect(here).toHaveLength(1);
    expect(Object.keys(here[0]).sort()).toEqual(['branch', 'client', 'oid', 'ref', 'session', 'sync', 'topic', 'updatedAt', 'to', 'tags', 'refs'].sort());
    expect(here[0]).toMatchObject({ branch: 'main', topic: 'auth-refactor', session: A, sync: 'local' });
    const all = json(await repo.cli(['list', '--all', '--json']));
    expect(all.map((r: any) => r.ref).sort()).toEqual(['refs/handoffs/feature%2F%4Cogin%2Ev2/login-redirect-loop', REF]);
    expect(json(await repo.cli(['list', '--branch', 'feature/Login.v2', '--json']))).toHaveLength(1);
    const mine = json(await repo.cli(['list', '--all', '--mine', '--session', B, '--json']));
    expect(mine.map((r: any) => r.topic)).toEqual(['login-redirect-loop']);
    const table = await repo.cli(['list', '--all']);
    expect(String(table.stdout).split('\n')[0]).toMatch(/^BRANCH\s+TOPIC\s+SESSION\s+UPDATED\s+SYNC$/);
  });

  it('archive: owner only, keeps every version, restore brings it back', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'one');
    await writeAs(repo, A, 'two');
    const refused = await repo.cli(['archive', 'auth-refactor', '--session', B]);
    expect(refused.exitCode).toBe(3);
    expect(refOf(repo, REF)).not.toBeNull();
    const tip = refOf(repo, REF)!;
    const a = json(await repo.cli(['archive', 'auth-refactor', '--session', A, '--json']));
    // the entry is one more version on the tip, by the archiving session: who archived it is on the record (issue 13)
    const entry = refOf(repo, a.archivedAs)!;
    expect(a.archivedAs).toBe(`refs/handoff-archive/main/auth-refactor/${a.archivedAs.split('/').pop()!.split('-')[0]}-${entry.slice(0, 12)}`);
    expect(refOf(repo, REF)).toBeNull();
    expect(refOf(repo, `${a.archivedAs}^`)).toBe(tip);
    expect(repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', entry]).stdout.trim()).toBe(A);
    expect(repo.git(['rev-parse', `${entry}^{tree}`]).stdout).toBe(repo.git(['rev-parse', `${tip}^{tree}`]).stdout);
    expect(repo.git(['rev-list', '--count', a.archivedAs]).stdout.trim()).toBe('3');
    expect(json(await repo.cli(['list', '--json']))).toEqual([]);
    const arch = json(await repo.cli(['list', '--archived', '--all', '--json']));
    expect(arch.map((r: any) => r.ref)).toEqual([a.archivedAs]);
    // a new handoff of the same topic can be written meanwhile, and blocks the restore
    await writeAs(repo, B, 'new one');
    expect((await repo.cli(['restore', a.archivedAs, '--session', A])).exitCode).toBe(2);
    await repo.cli(['archive', 'auth-refactor', '--session', B]);
    const other = await repo.cli(['restore', a.archivedAs, '--session', B]);
    expect(other.exitCode).toBe(3);
    const back = await repo.cli(['restore', a.archivedAs.replace('refs/handoff-archive/', ''), '--session', A]);
    expect(back.exitCode).toBe(0);
    // a new version by the owner on top of the archive entry (itself a version on the tip); the entry stays
    expect(repo.git(['rev-parse', `${REF}^`]).stdout.trim()).toBe(entry);
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('4');
    expect(repo.git(['log', '-1', '--format=%B', REF]).stdout).not.toContain('Handoff-Takeover-From');
    expect(refOf(repo, a.archivedAs)).toBe(entry);
  });

  it('restore with --take-over keeps the archived tree and records the takeover', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'Goal: the archived note');
    const archived = json(await repo.cli(['archive', 'auth-refactor', '--session', A, '--json'])).archivedAs;
    const tip = refOf(repo, archived)!;
    const r = json(await repo.cli(['restore', archived, '--session', B, '--take-over', '--reason', 'picking it up', '--json']));
    expect(r.takeover).toBe(true);
    expect(repo.git(['rev-parse', `${REF}^{tree}`]).stdout).toBe(repo.git(['rev-parse', `${tip}^{tree}`]).stdout);
    expect(repo.git(['rev-parse', `${REF}^`]).stdout.trim()).toBe(tip);
    const msg = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(msg.split('\n')[0]).toBe('handoff(auth-refactor): Goal: the archived note');
    expect(msg).toContain(`Claude-Session-Id: ${B}`);
    expect(msg).toContain(`Handoff-Takeover-From: ${A}`);
    expect(msg).toContain(`Handoff-Head: ${repo.git(['log', '-1', '--format=%(trailers:key=Handoff-Head,valueonly)', tip]).stdout.trim()}`);
    expect(refOf(repo, archived)).toBe(tip);
  });

  it('archive with --take-over records the takeover first', async () => {
    const repo = makeRepo({ commit: true });
    await writeAs(repo, A, 'one');
    const noReason = await repo.cli(['archive', 'auth-refactor', '--session', B, '--take-over']);
    expect(noReason.exitCode).toBe(2);
    expect(noReason.stderr).toMatch(/--reason/);
    expect(refOf(repo, REF)).not.toBeNull();
    const r = json(await repo.cli(['archive', 'auth-refactor', '--session', B, '--take-over', '--reason', 'abandoned', '--json']));
    expect(r.takeover).toBe(true);
    const log = repo.git(['log', '--format=%(trailers:key=Claude-Session-Id,valueonly)', r.archivedAs]).stdout.split('\n').filter(Boolean);
    expect(log).toEqual([B, A]);
  });
});
