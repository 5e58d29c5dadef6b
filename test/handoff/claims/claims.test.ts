// Claims on one clone (SPEC 10): claim, refusal naming the holder, renewal, release, takeover on the record, expiry
// taken by compare-and-swap, and a killed holder's claim freed at once on its machine.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, json, makeRepo, refOf, tempDir } from '../../helpers/repo';

const REF = 'refs/claims/main';

async function ok(repo: ReturnType<typeof makeRepo>, args: string[], code = 0, env?: Record<string, string>) {
  const r = await repo.cli(args, { env });
  if (r.exitCode !== code) throw new Error(`git handoff ${args.join(' ')} exited ${r.exitCode}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

describe('claim, claims, release on one clone', () => {
  it('claims by compare-and-swap, refuses an overlap with exit 3 naming holder, since, note and handoff topic', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('src/auth/login.ts', 'x\n');
    await ok(repo, ['write', 'auth-oauth-move', '-m', 'Goal: OAuth', '--session', 'sess-a']);
    const a = json(await ok(repo, ['claim', 'src/auth/', '--note', 'moving login to OAuth', '--session', 'sess-a', '--json']));
    expect(a).toMatchObject({ session: 'sess-a', paths: ['src/auth/'], note: 'moving login to OAuth', topic: 'auth-oauth-move', branch: 'main', renewed: false, published: { where: 'local' } });
    expect(refOf(repo, REF)).toBe(a.oid);
    // the commit carries the session trailer, the paths, the note and the expiry
    const msg = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(msg).toContain('Claude-Session-Id: sess-a');
    expect(msg).toContain('Handoff-Claim-Path: src/auth/');
    expect(msg).toContain('Handoff-Claim-Note: moving login to OAuth');
    expect(msg).toMatch(/Handoff-Claim-Expires: \d{4}-\d\d-\d\dT/);

    const refused = await ok(repo, ['claim', 'src/auth/login.ts', '--session', 'sess-b'], 3);
    expect(refused.stderr).toContain('claimed by session sess-a since');
    expect(refused.stderr).toContain('"moving login to OAuth"');
    expect(refused.stderr).toContain('handoff: auth-oauth-move');
    expect(refused.stderr).toContain('--take-over --reason');
    const refusedJson = json(await ok(repo, ['claim', 'src/**/*.ts', '--session', 'sess-b', '--json'], 3));
    expect(refusedJson.error).toMatchObject({ code: 'claimed', data: { holders: [expect.objectContaining({ session: 'sess-a' })] } });
    expect(refOf(repo, REF)).toBe(a.oid);

    // another path is no overlap; a glob of other files neither
    await ok(repo, ['claim', 'src/db/', '--session', 'sess-b']);
    await ok(repo, ['claim', 'src/**/*.md', '--session', 'sess-c'], 3);
    await ok(repo, ['claim', 'docs/**/*.md', '--session', 'sess-c']);
    const list = json(await ok(repo, ['claims', '--json']));
    expect(list.map((c: any) => [c.session, c.paths])).toEqual([['sess-a', ['src/auth/']], ['sess-b', ['src/db/']], ['sess-c', ['docs/**/*.md']]]);
    expect((await ok(repo, ['claims'])).stdout).toContain('moving login to OAuth');

    // the holder claiming the same paths again renews it
    const renewed = json(await ok(repo, ['claim', 'src/auth/', '--session', 'sess-a', '--ttl', '3h', '--json']));
    expect(renewed).toMatchObject({ id: a.id, renewed: true, note: 'moving login to OAuth' });
    expect(Date.parse(renewed.expires)).toBeGreaterThan(Date.parse(a.expires));

    // release of a path not held is refused and changes nothing; release frees it for the next session
    const before = refOf(repo, REF);
    expect((await ok(repo, ['release', 'src/db/', '--session', 'sess-a'], 2)).stderr).toContain('you hold no claim on src/db/');
    expect(refOf(repo, REF)).toBe(before);
    await ok(repo, ['release', 'src/auth/', '--session', 'sess-a']);
    await ok(repo, ['claim', 'src/auth/login.ts', '--session', 'sess-b']);
    // every change is a commit on top of the last (history kept)
    expect(Number(repo.git(['rev-list', '--count', REF]).stdout.trim())).toBe(6);
  });

  it('takes over a live claim only with --reason, on the record', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['claim', 'lib/', '--session', 'sess-a', '--note', 'mine']);
    expect((await ok(repo, ['claim', 'lib/x.ts', '--session', 'sess-b', '--take-over'], 2)).stderr).toContain('--reason');
    const t = json(await ok(repo, ['claim', 'lib/x.ts', '--session', 'sess-b', '--take-over', '--reason', 'sess-a is stuck', '--json']));
    expect(t.takenFrom).toEqual([expect.objectContaining({ session: 'sess-a', paths: ['lib/'] })]);
    const msg = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(msg).toContain('Handoff-Claim: take-over');
    expect(msg).toContain('Handoff-Takeover-From: sess-a');
    expect(msg).toContain('Handoff-Reason: sess-a is stuck');
    expect(json(await ok(repo, ['claims', '--json'])).map((c: any) => c.session)).toEqual(['sess-b']);
  });

  it('an expired claim is taken by a compare-and-swap against the version the taker read', async () => {
    const repo = makeRepo({ commit: true });
    const a = json(await ok(repo, ['claim', 'app/', '--session', 'sess-a', '--ttl', '1s', '--json']));
    while (Date.now() <= Date.parse(a.expires)) await new Promise((r) => setTimeout(r, 100));
    expect(json(await ok(repo, ['claims', '--json']))).toEqual([]);
    const b = json(await ok(repo, ['claim', 'app/', '--session', 'sess-b', '--json']));
    expect(repo.git(['rev-parse', `${b.oid}^`]).stdout.trim()).toBe(a.oid);
    expect(json(await ok(repo, ['claims', '--json'])).map((c: any) => c.session)).toEqual(['sess-b']);
  });

  it("a killed holder's claim is freed at once on its machine", async () => {
    const repo = makeRepo({ commit: true });
    const out = path.join(tempDir(), 'out');
    // the holder: a client process (CLAUDE_PID names it, an ancestor of the claim) that goes on running
    const holder = spawn('sh', ['-c', `export CLAUDE_PID=$$; "${BIN}" claim web/ --session sess-a --json >"${out}" 2>&1; exec sleep 600`], { cwd: repo.dir, env: repo.env, stdio: 'ignore' });
    try {
      while (!existsSync(out) || !readFileSync(out, 'utf8').includes('}')) await new Promise((r) => setTimeout(r, 50));
      expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ pid: holder.pid, host: expect.any(String) });
      await ok(repo, ['claim', 'web/index.ts', '--session', 'sess-b'], 3);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    await ok(repo, ['claim', 'web/index.ts', '--session', 'sess-b']);
  });

  it('refuses bad input with exit 2 and no session with exit 5, writing nothing', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['claim', '../outside', '--session', 's-1'])).exitCode).toBe(2);
    expect((await repo.cli(['claim', 'x', '--session', 's-1', '--ttl', 'soon'])).exitCode).toBe(2);
    expect((await repo.cli(['claim', 'x'])).exitCode).toBe(5);
    expect(refOf(repo, REF)).toBeNull();
  });
});
