// Issue 13 item 6: `git handoff import` never writes a version as another session. Over an existing handoff the
// importing session writes as itself (whatever the file's marker says): over another's handoff that is exit 3,
// unless it takes over on the record. A new handoff keeps the file's owner (the migration), as SPEC 4 says.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';

const REF = 'refs/handoffs/main/auth-refactor';
const put = (repo: TestRepo, file: string, marker: string, body: string) => {
  mkdirSync(path.dirname(path.join(repo.dir, file)), { recursive: true });
  writeFileSync(path.join(repo.dir, file), `<!-- claude-session: ${marker} -->\n${body}\n`);
};
const sessionOf = (repo: TestRepo, rev: string) => repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', rev]).stdout.trim();

describe('import cannot write as another session (issue 13 item 6)', () => {
  it("B importing a file over A's handoff is refused (exit 3) whatever the marker names, by env or --session", async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', 'A wrote this', '--session', 'sess-a']);
    const tip = refOf(repo, REF)!;
    for (const marker of ['sess-a', 'sess-b', 'sess-c']) {
      put(repo, 'memory/handoff-main-auth-refactor.md', marker, `B's text, marker ${marker}`);
      const viaEnv = await repo.cli(['import', 'memory/handoff-main-auth-refactor.md'], { env: { GIT_HANDOFF_SESSION: 'sess-b' } });
      expect(viaEnv.exitCode, marker + String(viaEnv.stderr)).toBe(3);
      const viaFlag = await repo.cli(['import', 'memory/handoff-main-auth-refactor.md', '--session', 'sess-b']);
      expect(viaFlag.exitCode, marker).toBe(3);
      expect(refOf(repo, REF), marker).toBe(tip);
    }
    // a directory import is held the same way
    expect((await repo.cli(['import', 'memory'], { env: { GIT_HANDOFF_SESSION: 'sess-b' } })).exitCode).toBe(3);
    expect(refOf(repo, REF)).toBe(tip);
  });

  it('with --take-over --reason the importer writes as itself and the takeover is on the record; the owner imports as itself', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', 'A wrote this', '--session', 'sess-a']);
    put(repo, 'handoff-main-auth-refactor.md', 'sess-a', 'A, updated from the file');
    const own = json(await ok(repo, ['import', 'handoff-main-auth-refactor.md', '--session', 'sess-a', '--json']));
    expect(own[0]).toMatchObject({ status: 'updated', session: 'sess-a' });
    put(repo, 'handoff-main-auth-refactor.md', 'sess-a', 'B takes it from here');
    expect((await repo.cli(['import', 'handoff-main-auth-refactor.md', '--session', 'sess-b', '--take-over'])).exitCode).toBe(2);
    const took = json(await ok(repo, ['import', 'handoff-main-auth-refactor.md', '--session', 'sess-b', '--take-over', '--reason', 'A is gone', '--json']));
    expect(took[0]).toMatchObject({ status: 'updated', session: 'sess-b' });
    const msg = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(msg).toContain('Claude-Session-Id: sess-b');
    expect(msg).toContain('Handoff-Takeover-From: sess-a');
  });

  it("a file for a topic nobody owns is imported as the file's owner (the migration), whoever runs it", async () => {
    const repo = makeRepo({ commit: true });
    put(repo, 'memory/handoff-main-auth-refactor.md', 'sess-a', 'A left this in a file');
    const r = await ok(repo, ['import', 'memory']);
    expect(sessionOf(repo, REF)).toBe('sess-a');
    expect(r).toBeTruthy();
    put(repo, 'memory/handoff-main-login-flow.md', 'sess-a', 'another of A');
    await ok(repo, ['import', 'memory/handoff-main-login-flow.md', '--session', 'sess-b']);
    expect(sessionOf(repo, 'refs/handoffs/main/login-flow')).toBe('sess-a');
  });
});
