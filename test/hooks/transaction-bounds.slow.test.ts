// Issue 13 item 11: the reference-transaction hook reads history without buffering messages (520 commits of 1 MiB
// each are checked, not waved through), and for handoff refs any error fails closed, as the server does.
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf, tempDir } from '../helpers/repo';
import { hookedRepo } from './helpers';
import { ok } from '../sync/world';

const REF = 'refs/handoffs/main/auth-refactor';

describe('reference-transaction reads bounded and fails closed for handoff refs', () => {
  it('520 commits with 1 MiB messages on top of a handoff are checked and refused (foreign owner), not allowed by an overflow', async () => {
    const repo = await hookedRepo();
    await ok(repo, ['write', 'auth-refactor', '-m', 'mine', '--session', 'sess-a']);
    const tip = refOf(repo, REF)!;
    const filler = 'x'.repeat(1024 * 1024) + '\n\n';
    // 520 MiB of messages: streamed to fast-import from a file (no string that large exists in this process either)
    const stream = path.join(tempDir(), 'import');
    const fd = openSync(stream, 'w');
    for (let i = 0; i < 520; i++) {
      const msg = `handoff(auth-refactor): ${i}\n\n${filler}Claude-Session-Id: sess-b\n`;
      writeSync(fd, `commit refs/scratch/big\ncommitter M <m@x> ${1700000000 + i} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n${i === 0 ? `from ${tip}\n` : ''}\n`);
    }
    closeSync(fd);
    const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, env: repo.env, stdio: [openSync(stream, 'r'), 'pipe', 'pipe'] });
    expect(imported.status, String(imported.stderr)).toBe(0);
    const top = refOf(repo, 'refs/scratch/big')!;
    const r = repo.git(['update-ref', REF, top, tip], { allowFail: true });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/session sess-b adds to session sess-a's handoff without a takeover/);
    expect(r.stderr).not.toMatch(/allowed/);
    expect(refOf(repo, REF)).toBe(tip);
  }, 240_000);

  it('an error while checking a handoff ref refuses the update; the same error on a branch lets it through', async () => {
    const repo = await hookedRepo();
    await ok(repo, ['write', 'auth-refactor', '-m', 'mine', '--session', 'sess-a']);
    await ok(repo, ['write', 'auth-refactor', '-m', 'mine again', '--session', 'sess-a']);
    const tip = refOf(repo, REF)!;
    const parent = refOf(repo, `${REF}~1`)!;
    // a git whose history reads fail, as a broken or overloaded git would, seen by the hook only: git puts its exec
    // path first on a hook's PATH, so the stand-in lives in a copy of that directory given as GIT_EXEC_PATH
    const execPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
    const bin = path.join(tempDir(), 'exec');
    mkdirSync(bin);
    for (const f of readdirSync(execPath)) if (f !== 'git') symlinkSync(path.join(execPath, f), path.join(bin, f));
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\ncase "$1" in rev-list|log) echo "simulated failure" >&2; exit 1;; esac\nexec '${path.join(execPath, 'git')}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const env = { GIT_EXEC_PATH: bin };
    // a forward move of the handoff's own history (back to parent then forward would be a rewrite: use a fresh child)
    repo.git(['update-ref', '-d', 'refs/scratch/x'], { allowFail: true });
    const child = repo.git(['commit-tree', `${tip}^{tree}`, '-p', tip], { input: 'handoff(auth-refactor): x\n\nClaude-Session-Id: sess-a\n' }).stdout.trim();
    const r = repo.git(['update-ref', REF, child, tip], { allowFail: true, env });
    expect(r.status).not.toBe(0);
    expect(r.stderr, r.stderr).toMatch(/could not check an update of handoff refs .*refused/);
    expect(refOf(repo, REF)).toBe(tip);
    expect(parent).not.toBe(tip);
    // without the failure the same move is allowed
    expect(repo.git(['update-ref', REF, child, tip], { allowFail: true }).status).toBe(0);
    // a branch update meeting the same failure is let through (fail-open for what the hook does not protect)
    const c = repo.git(['commit-tree', 'HEAD^{tree}'], { input: 'a root: not a fast-forward, so the hook reads history\n' }).stdout.trim();
    const b = repo.git(['update-ref', 'refs/heads/main', c, 'HEAD'], { allowFail: true, env: { ...env, GIT_HANDOFF_SESSION: 'sess-a' } });
    expect(b.status, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/could not check .*allowed/);
  });
});
