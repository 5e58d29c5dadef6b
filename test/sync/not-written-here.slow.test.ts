// src/handoff/store/ownership.ts notWrittenHere: a version arriving from a remote that names a session which ran in
// this clone (a ledger of its own here) was not written by it, whatever its lineage: a repository or a host without the
// server check let someone put their text under that session's name. The owner's clone refuses it (fetch and sync
// exit 6, `show` and `status` say refused, the way on is the owner's `sync --resolve`); a clone where that session
// never ran takes that session's real versions as before.
import { describe, expect, it } from 'vitest';
import { refOf, type TestRepo } from '../helpers/repo';
import { OTHER, wroteFile } from '../guard/helpers';
import { makeWorld, ok } from './world';

/** A version on top of `tip` with `text` as its body and the tip's own trailers (its owner named), made with plumbing in `repo`. */
function forged(repo: TestRepo, tip: string, from: string, to: string): string {
  const body = repo.git(['hash-object', '-w', '--stdin'], { input: `${to}\n` }).stdout.trim();
  const state = repo.git(['rev-parse', `${tip}:state.json`]).stdout.trim();
  const tree = repo.git(['mktree'], { input: `100644 blob ${body}\thandoff.md\n100644 blob ${state}\tstate.json\n` }).stdout.trim();
  const message = repo.git(['log', '-1', '--format=%B', tip]).stdout.split(from).join(to);
  return repo.git(['commit-tree', tree, '-p', tip], { input: message }).stdout.trim();
}

describe('a version naming a session of this clone that this clone did not write', () => {
  it("is refused in the owner's clone, shown as refused with the owner's way on, and restored by it; another clone takes the owner's real versions", async () => {
    const { a, b } = await makeWorld('file');
    // OTHER runs in clone a: a tool call through the guard gives it a ledger here
    await wroteFile(a, 'src/x.ts', OTHER);
    await ok(a, ['write', 'release-plan', '-m', 'S1 text', '--session', OTHER]);
    await ok(a, ['sync']);
    const branch = a.git(['branch', '--show-current']).stdout.trim();
    const ref = `refs/handoffs/${branch}/release-plan`;
    // clone b, where OTHER never ran, takes OTHER's version
    await ok(b, ['sync']);
    expect(refOf(b, ref)).toBe(refOf(a, ref));
    // someone with push access puts their text on top, under OTHER's name (a plain fast-forward push)
    const tip = refOf(a, ref)!;
    const fake = forged(b, tip, 'S1 text', 'attacker text');
    b.git(['push', '-q', 'origin', `${fake}:${ref}`]);
    const sync = await a.cli(['sync']);
    expect(sync.exitCode).toBe(6);
    expect(String(sync.stdout)).toMatch(new RegExp(`refused +${branch}/release-plan: .*names session ${OTHER}, which runs in this clone, but this clone did not write it`));
    expect(refOf(a, ref)).toBe(tip);
    const show = String((await a.cli(['show', 'release-plan'])).stdout);
    expect(show).toContain('S1 text');
    expect(show).not.toContain('attacker text');
    expect(show).toMatch(/· refused/);
    const status = String((await a.cli(['status'])).stdout);
    expect(status).toMatch(/release-plan .*refused/);
    expect(status).toContain(`git handoff sync origin --resolve release-plan --session ${OTHER}`);
    // the owner's way on: a version on top of both that restores its text, then a fast-forward for every clone
    await ok(a, ['sync', '--resolve', 'release-plan', '--session', OTHER]);
    await ok(a, ['sync']);
    const restored = String((await a.cli(['show', 'release-plan'])).stdout);
    expect(restored).toContain('S1 text');
    expect(restored).toMatch(/· synced/);
    await ok(b, ['sync']);
    expect(refOf(b, ref)).toBe(refOf(a, ref));
    expect(String((await b.cli(['show', 'release-plan'])).stdout)).toContain('S1 text');
  });
});
