// `install --server`: a bare remote holds pushed handoff refs to the ownership invariant.
import { writeFileSync, chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inThisSet, quickDescribe } from '../helpers/sets';
import { refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok, type Transport } from './world';

const REF = 'refs/handoffs/main/auth-refactor';

/** A commit with the given tree, parents and session, made with plumbing (what a hand-rolled script would do). */
function forge(repo: TestRepo, tree: string, parents: string[], session: string, extra = ''): string {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
  return repo.git(args, { input: `handoff(auth-refactor): forged\n\nClaude-Session-Id: ${session}\n${extra}` }).stdout.trim();
}

describe.each<Transport>(inThisSet<Transport>([], ['file', 'git', 'http']))('install --server over %s', (transport) => {
  it('rejects a forced clobber and a steal with a message the pusher sees; the server keeps its value', async () => {
    const { a, b, bare } = await makeWorld(transport, { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'the real one', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const kept = refOf(bare, REF)!;
    await ok(b, ['fetch']);
    const tree = b.git(['rev-parse', `${kept}^{tree}`]).stdout.trim();

    const rewrite = forge(b, tree, [], 'sess-b');
    const forced = b.git(['push', '--force', 'origin', `${rewrite}:${REF}`], { allowFail: true });
    expect(forced.status).not.toBe(0);
    expect(forced.stderr).toMatch(/remote: git-handoff: refused refs\/handoffs\/main\/auth-refactor: history rewritten/);
    expect(refOf(bare, REF)).toBe(kept);

    const steal = forge(b, tree, [kept], 'sess-b');
    const stolen = b.git(['push', 'origin', `${steal}:${REF}`], { allowFail: true });
    expect(stolen.status).not.toBe(0);
    expect(stolen.stderr).toMatch(/remote: git-handoff: refused .*session sess-b adds to session sess-a's handoff without a takeover/);
    expect(refOf(bare, REF)).toBe(kept);

    const deleted = b.git(['push', 'origin', `:${REF}`], { allowFail: true });
    expect(deleted.stderr).toMatch(/deleting a handoff is done only by archiving it/);
    expect(refOf(bare, REF)).toBe(kept);

    // What the invariant allows goes through: a takeover on the record, then an archive.
    await ok(b, ['write', 'auth-refactor', '-m', 'taking over', '--session', 'sess-b', '--take-over', '--reason', 'A is gone']);
    await ok(b, ['sync']);
    expect(refOf(bare, REF)).toBe(refOf(b, REF));
    await ok(b, ['archive', 'auth-refactor', '--session', 'sess-b']);
    await ok(b, ['sync']);
    expect(refOf(bare, REF)).toBeNull();
    // Branches are never looked at.
    b.git(['push', '-q', 'origin', 'HEAD:refs/heads/feature']);
    expect(refOf(bare, 'refs/heads/feature')).toBe(refOf(b, 'HEAD'));
  });
});

quickDescribe('install --server', () => {
  it('git handoff push reports a server refusal as an integrity error (exit 6)', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'the real one', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    // B writes on top of A's handoff without a takeover, by hand, then asks git handoff to push it.
    const kept = refOf(bare, REF)!;
    const steal = forge(b, b.git(['rev-parse', `${kept}^{tree}`]).stdout.trim(), [kept], 'sess-b');
    b.git(['update-ref', REF, steal, kept]);
    const r = await b.cli(['push']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/rejected by origin/);
    expect(r.stderr).toMatch(/without a takeover/);
    expect(refOf(bare, REF)).toBe(kept);
  });

  it('keeps and restores a pre-receive hook that was there, is idempotent, and needs a bare repository', async () => {
    const { bare, a } = await makeWorld('file');
    const hooks = bare.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim();
    const original = '#!/bin/sh\ncat >/dev/null\necho "their hook ran" >&2\n';
    writeFileSync(path.join(hooks, 'pre-receive'), original);
    chmodSync(path.join(hooks, 'pre-receive'), 0o755);
    await ok(bare, ['install', '--server']);
    expect((await ok(bare, ['install', '--server'])).stdout).toMatch(/already installed/);
    expect(readFileSync(path.join(hooks, 'pre-receive.pre-handoff'), 'utf8')).toBe(original);
    expect((await ok(bare, ['doctor'])).stdout).toMatch(/server\s+ok/);
    const pushed = a.git(['push', 'origin', 'HEAD:refs/heads/main']);
    expect(pushed.stderr).toContain('their hook ran');
    await ok(bare, ['uninstall', '--server']);
    expect(readFileSync(path.join(hooks, 'pre-receive'), 'utf8')).toBe(original);
    expect(existsSync(path.join(hooks, 'pre-receive.pre-handoff'))).toBe(false);
    // a plain uninstall (everything) in the bare repository takes the check out too, and gives the hook back
    await ok(bare, ['install', '--server']);
    expect((await ok(bare, ['uninstall'])).stdout).toContain('server: previous pre-receive hook restored');
    expect(readFileSync(path.join(hooks, 'pre-receive'), 'utf8')).toBe(original);
    expect((await a.cli(['install', '--server'])).exitCode).toBe(2);
  });

  it('a pre-receive that runs $0.* by name is left as it is: the check joins it, the site policy still refuses', async () => {
    const { bare, a } = await makeWorld('file');
    const hooks = bare.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim();
    // the shape of gitolite's multi-hook driver, and a site policy it runs
    const driver = '#!/bin/sh\nstdin=`cat`\nfor h in $0.*; do\n  [ -x $h ] || continue\n  echo "$stdin" | $h || exit 1\ndone\n';
    writeFileSync(path.join(hooks, 'pre-receive'), driver);
    writeFileSync(path.join(hooks, 'pre-receive.h00-policy'), '#!/bin/sh\nif grep -q " refs/heads/closed$"; then echo "site policy: closed is closed" >&2; exit 1; fi\n');
    for (const f of ['pre-receive', 'pre-receive.h00-policy']) chmodSync(path.join(hooks, f), 0o755);
    expect((await ok(bare, ['install', '--server'])).stdout).toMatch(/left as it is/);
    expect(readFileSync(path.join(hooks, 'pre-receive'), 'utf8')).toBe(driver);
    expect(existsSync(path.join(hooks, 'pre-receive.pre-handoff'))).toBe(false);
    const closed = a.git(['push', 'origin', 'HEAD:refs/heads/closed'], { allowFail: true });
    expect(closed.status).not.toBe(0);
    expect(closed.stderr).toContain('site policy: closed is closed');
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const kept = refOf(bare, REF)!;
    const forced = a.git(['push', '--force', '--no-verify', 'origin', `${forge(a, a.git(['rev-parse', `${kept}^{tree}`]).stdout.trim(), [], 'sess-b')}:${REF}`], { allowFail: true });
    expect(forced.stderr).toMatch(/git-handoff: refused refs\/handoffs\/main\/auth-refactor: history rewritten/);
    expect(refOf(bare, REF)).toBe(kept);
    // doctor in the bare repository speaks about the server only
    const d = String((await ok(bare, ['doctor'])).stdout);
    expect(d).toMatch(/server\s+ok\s+pre-receive check installed beside the existing driver/);
    expect(d).not.toMatch(/claude|gemini|codex|git hooks/i);
    await ok(bare, ['uninstall', '--server']);
    expect(existsSync(path.join(hooks, 'pre-receive.zz-git-handoff'))).toBe(false);
    expect(readFileSync(path.join(hooks, 'pre-receive'), 'utf8')).toBe(driver);
  });

  it("Gitea's generated pre-receive (runs pre-receive.d/*) is left as it is: the check goes into pre-receive.d", async () => {
    const { bare, a } = await makeWorld('file');
    const hooks = bare.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim();
    // the template Gitea writes into every repository (modules/repository/hooks.go)
    const gitea =
      '#!/usr/bin/env bash\n# AUTO GENERATED BY GITEA, DO NOT MODIFY\ndata=$(cat)\nexitcodes=""\nhookname=$(basename $0)\nGIT_DIR=${GIT_DIR:-$(dirname $0)/..}\n\n' +
      'for hook in ${GIT_DIR}/hooks/${hookname}.d/*; do\ntest -x "${hook}" && test -f "${hook}" || continue\necho "${data}" | "${hook}"\nexitcodes="${exitcodes} $?"\ndone\n\n' +
      'for i in ${exitcodes}; do\n[ ${i} -eq 0 ] || exit ${i}\ndone\n';
    writeFileSync(path.join(hooks, 'pre-receive'), gitea);
    mkdirSync(path.join(hooks, 'pre-receive.d'));
    writeFileSync(path.join(hooks, 'pre-receive.d', 'gitea'), '#!/bin/sh\nif grep -q " refs/heads/protected$"; then echo "gitea: protected branch" >&2; exit 1; fi\n');
    for (const f of ['pre-receive', 'pre-receive.d/gitea']) chmodSync(path.join(hooks, f), 0o755);
    expect((await ok(bare, ['install', '--server'])).stdout).toMatch(/runs every pre-receive\.d\/\* by name, so it is left as it is/);
    expect(readFileSync(path.join(hooks, 'pre-receive'), 'utf8')).toBe(gitea);
    expect(existsSync(path.join(hooks, 'pre-receive.d', 'zz-git-handoff'))).toBe(true);
    expect(a.git(['push', 'origin', 'HEAD:refs/heads/protected'], { allowFail: true }).stderr).toContain('gitea: protected branch');
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const kept = refOf(bare, REF)!;
    const steal = a.git(['push', '--no-verify', 'origin', `${forge(a, a.git(['rev-parse', `${kept}^{tree}`]).stdout.trim(), [kept], 'sess-b')}:${REF}`], { allowFail: true });
    expect(steal.stderr).toMatch(/git-handoff: refused .*without a takeover/);
    expect(refOf(bare, REF)).toBe(kept);
    expect(String((await ok(bare, ['doctor'])).stdout)).toMatch(/server\s+ok\s+pre-receive check installed beside the existing driver/);
    await ok(bare, ['uninstall', '--server']);
    expect(existsSync(path.join(hooks, 'pre-receive.d', 'zz-git-handoff'))).toBe(false);
    expect(readFileSync(path.join(hooks, 'pre-receive'), 'utf8')).toBe(gitea);
  });

  it('without git-handoff on the server: handoff updates are refused, branches still go through', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    // file:// runs the server side in the pusher's environment: point the stub at nothing.
    const env = { GIT_HANDOFF_BIN: '/nonexistent/git-handoff', PATH: '/usr/bin:/bin' };
    const handoff = a.git(['push', 'origin', `${REF}:${REF}`], { allowFail: true, env });
    expect(handoff.status).not.toBe(0);
    expect(handoff.stderr).toMatch(/git-handoff is not installed here/);
    expect(refOf(bare, REF)).toBeNull();
    a.git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { env });
    expect(refOf(bare, 'refs/heads/main')).toBe(refOf(a, 'HEAD'));
  });
});
