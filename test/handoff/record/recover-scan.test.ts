// `recover --scan` keeps only commits that were once a recorded version (issue 36): the commit a writer left behind
// when it lost a write race (or was refused) is in the object store, well-formed, never recorded — it must not come
// back as a live tip or a "kept" handoff.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';
import { OTHER_REF, raw, REF, seeded } from './helpers';

/** A handoff commit on `parent` (null: parentless) by `session`, written and never moved to any ref: a lost writer's. */
function dangling(repo: TestRepo, parent: string | null, session: string): string {
  const tree = repo.git(['rev-parse', `${REF}^{tree}`]).stdout.trim();
  const msg = `handoff(login-redirect-loop): lost the race\n\nClaude-Session-Id: ${session}\nHandoff-Branch: main\nHandoff-Topic: login-redirect-loop\nHandoff-Head: none\nHandoff-Client: cli\n`;
  return repo.git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], { input: msg }).stdout.trim();
}

describe('recover --scan after a write race', () => {
  it("brings back the recorded tips only: a refused writer's dangling commits become neither a tip nor a kept handoff", async () => {
    const repo = await seeded();
    const tip = refOf(repo, REF)!;
    const other = refOf(repo, OTHER_REF)!;
    const onTop = dangling(repo, tip, 'sess-owner');
    const beside = dangling(repo, null, 'sess-racer');
    // a write the store itself refused: with the git hooks on, another session's version on top of the owner's is
    // refused by the reference-transaction hook, and its commit is left in the object store
    await ok(repo, ['install', '--hooks']);
    const refusedWrite = dangling(repo, tip, 'sess-racer');
    expect(repo.git(['update-ref', REF, refusedWrite, tip], { allowFail: true }).status).not.toBe(0);
    expect(refOf(repo, REF)).toBe(tip);
    for (const ref of repo.git(['for-each-ref', '--format=%(refname)']).stdout.split('\n').filter((r) => r && !r.startsWith('refs/heads/'))) raw(repo, ['update-ref', '-d', ref]);
    rmSync(path.join(repo.dir, '.git', 'handoff'), { recursive: true, force: true });
    // the witness outside .git lost too: --scan is what is left (test/handoff/record/witness.slow.test.ts covers the witness)
    rmSync(path.join(repo.home, '.local', 'state', 'git-handoff'), { recursive: true, force: true });
    repo.git(['gc', '-q']);
    const out = json(await ok(repo, ['recover', '--scan', '--json']));
    expect(refOf(repo, REF)).toBe(tip);
    expect(refOf(repo, OTHER_REF)).toBe(other);
    const refs = repo.git(['for-each-ref', '--format=%(objectname)']).stdout;
    expect(refs).not.toContain(onTop);
    expect(refs).not.toContain(beside);
    expect(refs).not.toContain(refusedWrite);
    expect(repo.git(['cat-file', '-e', refusedWrite], { allowFail: true }).status).toBe(0);
    expect(out.actions.filter((a: { action: string }) => a.action === 'kept-aside')).toEqual([]);
  });
});
