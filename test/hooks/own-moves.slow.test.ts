// The store's own moves (write, archive, restore, a read receipt: MoveOptions.own) go without the reference-transaction hook only where
// that hook is git-handoff's stub alone: the stub would start node to check again what the store has just checked. A
// chained hook, a core.hooksPath, another tool's hook: git runs them as before. A raw move is checked as before.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { A, B, gitAs, hookedRepo, hooksDir, nodeSpy, script } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';

const hookRuns = (starts: string[]) => starts.filter((s) => s.includes('githook reference-transaction'));

/** write (create, then a second version), archive, restore, as session A; each must succeed. */
async function lifecycle(repo: TestRepo, env: Record<string, string>): Promise<void> {
  const as = { ...env, GIT_HANDOFF_SESSION: A };
  for (const args of [['write', 'auth-refactor', '-m', 'state: one'], ['write', 'auth-refactor', '-m', 'state: two'], ['archive', 'auth-refactor']]) {
    const r = await repo.cli(args, { env: as });
    expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
  const archived = repo.git(['for-each-ref', '--format=%(refname)', 'refs/handoff-archive/']).stdout.split('\n').find((r) => r.includes('auth-refactor'))!;
  const r = await repo.cli(['restore', archived], { env: as });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(refOf(repo, REF)).not.toBeNull();
}

describe("the store's own moves and the reference-transaction hook", () => {
  it('with git-handoff’s stub alone: write, archive, restore and a read receipt start no hook node; a raw move is still checked', async () => {
    const repo = await hookedRepo();
    const spy = nodeSpy();
    await lifecycle(repo, spy.env);
    expect(spy.starts().filter((s) => / (write|archive|restore) /.test(s))).toHaveLength(4);
    expect(hookRuns(spy.starts())).toEqual([]);
    // another session's read: its receipt is added to the notes ref, without the hook either
    expect(refOf(repo, 'refs/notes/handoff-reads')).toBeNull();
    const shown = await repo.cli(['show', 'auth-refactor'], { env: { ...spy.env, GIT_HANDOFF_SESSION: B } });
    expect(shown.exitCode, String(shown.stderr)).toBe(0);
    expect(refOf(repo, 'refs/notes/handoff-reads')).not.toBeNull();
    expect(hookRuns(spy.starts())).toEqual([]);
    // another session's raw deletion goes through the stub and node, and is refused; the ref stays
    const tip = refOf(repo, REF);
    const raw = gitAs(repo, B, ['update-ref', '-d', REF], spy.env);
    expect(raw.status).not.toBe(0);
    expect(raw.stderr).toContain('ownership invariant');
    expect(refOf(repo, REF)).toBe(tip);
    expect(hookRuns(spy.starts()).length).toBeGreaterThan(0);
  });

  it('with a chained hook (one that was there before install): git runs the stub, so the chained hook and our check see every move', async () => {
    const repo = makeRepo({ commit: true });
    const seen = path.join(repo.home, 'chained-saw');
    script(path.join(hooksDir(repo), 'reference-transaction'), `#!/bin/sh\nwhile read -r old new ref; do echo "$1 $ref" >> '${seen}'; done\nexit 0\n`);
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    expect(existsSync(path.join(hooksDir(repo), 'reference-transaction.handoff-chained'))).toBe(true);
    const spy = nodeSpy();
    await lifecycle(repo, spy.env);
    expect(hookRuns(spy.starts()).length).toBeGreaterThanOrEqual(4);
    expect(readFileSync(seen, 'utf8')).toContain(`prepared ${REF}`);
  });

  it('with core.hooksPath elsewhere (our stubs left in .git/hooks): the hooks there run', async () => {
    const repo = await hookedRepo();
    const other = path.join(repo.home, 'other-hooks');
    mkdirSync(other);
    const seen = path.join(repo.home, 'other-saw');
    script(path.join(other, 'reference-transaction'), `#!/bin/sh\nwhile read -r old new ref; do echo "$1 $ref" >> '${seen}'; done\nexit 0\n`);
    repo.git(['config', 'core.hooksPath', other]);
    await lifecycle(repo, nodeSpy().env);
    expect(readFileSync(seen, 'utf8')).toContain(`prepared ${REF}`);
  });

  it("another tool's hook that refuses: write is refused by it, nothing moves", async () => {
    const repo = makeRepo({ commit: true });
    script(path.join(hooksDir(repo), 'reference-transaction'), '#!/bin/sh\ncat >/dev/null\n[ "$1" = prepared ] && { echo "no ref moves here" >&2; exit 1; }\nexit 0\n');
    const r = await repo.cli(['write', 'auth-refactor', '-m', 'state: one'], { env: { GIT_HANDOFF_SESSION: A } });
    expect(r.exitCode).not.toBe(0);
    expect(String(r.stderr)).toContain('no ref moves here');
    expect(refOf(repo, REF)).toBeNull();
  });

  it('a symlink in the stub’s place (to a copy that holds its marker and notes each run): not taken for the stub, run as git runs it', async () => {
    const repo = await hookedRepo();
    const hook = path.join(hooksDir(repo), 'reference-transaction');
    const seen = path.join(repo.home, 'linked-saw');
    const copy = path.join(repo.home, 'stub-copy');
    writeFileSync(copy, readFileSync(hook, 'utf8').replace('#!/bin/sh\n', `#!/bin/sh\necho "$1" >> '${seen}'\n`));
    chmodSync(copy, 0o755);
    rmSync(hook);
    symlinkSync(copy, hook);
    await lifecycle(repo, nodeSpy().env);
    expect(readFileSync(seen, 'utf8')).toContain('prepared');
  });
});
