// Issue 25 item 1, from outside: git's own maintenance with the hooks installed, over every kind of ref the product
// keeps (live handoffs loose and packed, archive entries, receipts, the loss record), in the main and a linked
// worktree; and SECURITY.md's purge step for a redacted secret, run as SECURITY.md writes it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, refOf, type TestRepo } from '../helpers/repo';
import { hookedRepo } from './helpers';
import { ok } from '../sync/world';
import { viaGit } from '../helpers/faults';

const env = { GIT_HANDOFF_SESSION: 'maint-owner-1' };
const allRefs = (repo: TestRepo) => repo.git(['for-each-ref', '--format=%(objectname) %(refname)']).stdout;

/** Runs a shell line in the repository as a person would (no session), returns its status and stderr. */
function sh(repo: TestRepo, line: string, cwd = repo.dir) {
  const r = spawnSync('sh', ['-c', line], { cwd, env: repo.env, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe("git's maintenance with the hooks installed", () => {
  it('pack-refs, gc (also --aggressive --prune=now) and maintenance run over live, archived and read handoffs, in a linked worktree too', async () => {
    const repo = await hookedRepo();
    for (const t of ['alpha-notes', 'beta-notes', 'gamma-notes']) await ok(repo, ['write', t, '-m', `about ${t}`], 0, env);
    await ok(repo, ['archive', 'beta-notes'], 0, env);
    await ok(repo, ['show', 'alpha-notes'], 0, { GIT_HANDOFF_SESSION: 'maint-reader-2' });
    const linked = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'side', linked]);
    const side = await repo.cli(['write', 'side-notes', '-m', 'on side'], { cwd: linked, env });
    expect(side.exitCode, String(side.stderr)).toBe(0);

    const lines = [
      'git pack-refs --all',
      'git gc -q',
      'git gc -q --aggressive --prune=now',
      'git maintenance run --task=gc',
      'git maintenance run --task=loose-objects --task=incremental-repack',
    ];
    for (const [i, line] of lines.entries()) {
      // a loose version between runs: the next run packs it
      await ok(repo, ['write', 'gamma-notes', '-m', `version ${i}`], 0, env);
      const before = allRefs(repo);
      for (const cwd of [repo.dir, linked]) {
        const r = sh(repo, line, cwd);
        expect(r.status, `${line} in ${cwd}: ${r.stderr}`).toBe(0);
        expect(r.stderr, line).not.toMatch(/git-handoff|aborted by hook/);
      }
      expect(allRefs(repo), line).toBe(before);
    }
    expect(repo.git(['fsck', '--no-progress', '--no-dangling']).status).toBe(0);
    // everything still works on packed refs, and nothing is reported lost
    const list = await viaGit(repo, ['list', '--all'], { env });
    expect(list.exitCode).toBe(0);
    expect(String(list.stderr)).toBe('');
    await ok(repo, ['restore', 'beta-notes'], 0, env);
    await ok(repo, ['write', 'alpha-notes', '-m', 'after maintenance'], 0, env);
    // and the hooks still refuse what they refuse, packed or not
    expect(repo.git(['update-ref', '-d', 'refs/handoffs/main/alpha-notes'], { allowFail: true, env: { GIT_HANDOFF_SESSION: 'other-3' } }).status).not.toBe(0);
  });

  it("SECURITY.md's purge step removes a redacted secret's originals, with the hooks installed and the loss record kept", async () => {
    const repo = await hookedRepo();
    const GH = 'ghp_' + 'Pq8'.repeat(12);
    const REF = 'refs/handoffs/main/leak-notes';
    await ok(repo, ['write', 'leak-notes', '-m', 'clean start'], 0, env);
    // a version with a secret made with plumbing by its owner (write refuses it), then a clean one on top
    const blob = repo.git(['hash-object', '-w', '--stdin'], { input: `token ${GH}\n` }).stdout.trim();
    const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
    const leak = repo.git(['commit-tree', tree, '-p', refOf(repo, REF)!], { input: `handoff(leak-notes): leak\n\nClaude-Session-Id: ${env.GIT_HANDOFF_SESSION}\nHandoff-Branch: main\nHandoff-Topic: leak-notes\n`, env }).stdout.trim();
    repo.git(['update-ref', REF, leak], { env });
    await ok(repo, ['write', 'leak-notes', '-m', 'clean again'], 0, env);
    await ok(repo, ['list'], 0, env); // the record takes the plumbing version in
    await ok(repo, ['redact', 'leak-notes'], 0, env);
    const redacted = refOf(repo, REF)!;

    const security = readFileSync(path.join(ROOT, 'SECURITY.md'), 'utf8');
    const step = /It leaves the original objects[^]*?\(`([^`]+)` removes them at once\)/.exec(security)?.[1];
    expect(step).toBe('git reflog expire --expire=now --all && git gc --prune=now');
    const r = sh(repo, step!);
    expect(r.status, r.stderr).toBe(0);
    const objects = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: repo.dir, env: repo.env }).stdout;
    expect(objects.includes(GH)).toBe(false);
    expect(repo.git(['cat-file', '-e', leak], { allowFail: true }).status).not.toBe(0);
    expect(repo.git(['fsck', '--no-progress', '--no-dangling']).status).toBe(0);

    // the loss record still keeps every redacted version: deleted with raw git, recover brings all three back
    repo.git(['-c', 'core.hooksPath=/dev/null', 'update-ref', '-d', REF]);
    sh(repo, 'git reflog expire --expire=now --all && git -c core.hooksPath=/dev/null gc -q --prune=now');
    await ok(repo, ['recover', REF], 0, env);
    expect(refOf(repo, REF)).toBe(redacted);
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('3');
  });
});
