// pre-commit decided in the stub (git-hooks/stub.sh) where nothing can concern the commit: it asks the handler
// exactly when a claim is live in the repository, or (a session committing) another session's ledger is there or a
// refused reset left its note in this worktree's git directory. The names come from the TypeScript (stub-lines.ts),
// and the two directories from one rev-parse: in a linked worktree the ledger and the claims are the common dir's,
// the refused reset's note this worktree's own.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installStub } from '../../src/hooks/install';
import { openRepo } from '../../src/git/repo';
import { claimsMarker } from '../../src/handoff/claims/marker';
import { ledgerDir } from '../../src/handoff/state/ledger';
import { refusedResetFile } from '../../src/hooks/refusal';
import { makeRepo } from '../helpers/repo';
import { A, B, hooksDir, script } from './helpers';

describe('the pre-commit stub', () => {
  it('asks the handler only for a live claim, another session’s ledger or a refused reset here, in the main and a linked worktree', () => {
    const repo = makeRepo({ commit: true });
    const calls = path.join(repo.home, 'calls');
    const launcher = script(path.join(repo.home, 'git-handoff'), `#!/bin/sh\necho "$*" >> '${calls}'\n`);
    installStub(hooksDir(repo), 'pre-commit', launcher);
    const hook = path.join(hooksDir(repo), 'pre-commit');
    const linked = path.join(repo.home, 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'side', linked]);
    const main = openRepo(repo.dir);
    const side = openRepo(linked);
    expect(side.gitDir).not.toBe(side.commonDir);
    /** Whether the stub, run as git runs pre-commit (in the worktree's top), asked the handler. */
    const asks = (cwd: string, session: string | null): boolean => {
      rmSync(calls, { force: true });
      const env = { ...repo.env, ...(session ? { GIT_HANDOFF_SESSION: session } : {}) };
      const r = spawnSync('sh', [hook], { cwd, env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return existsSync(calls);
    };
    const both = (session: string | null) => [asks(repo.dir, session), asks(linked, session)];
    expect(both(null)).toEqual([false, false]);
    expect(both(A)).toEqual([false, false]);
    // this session's own ledger: nothing to compare with
    mkdirSync(ledgerDir(main.commonDir), { recursive: true });
    writeFileSync(path.join(ledgerDir(main.commonDir), `${A}.jsonl`), '');
    expect(both(A)).toEqual([false, false]);
    // another session's: asked, for a session only (a person's commit is never refused for it)
    writeFileSync(path.join(ledgerDir(main.commonDir), `${B}.jsonl`), '');
    expect(both(A)).toEqual([true, true]);
    expect(both(null)).toEqual([false, false]);
    rmSync(path.join(ledgerDir(main.commonDir), `${B}.jsonl`));
    // a live claim in the repository: asked, for everyone
    writeFileSync(claimsMarker(main.commonDir), '{}');
    expect(both(null)).toEqual([true, true]);
    expect(both(A)).toEqual([true, true]);
    rmSync(claimsMarker(main.commonDir));
    // a refused reset's note is its worktree's: the linked one's asks there only, the main one's in the main only
    writeFileSync(refusedResetFile(side), '{}');
    expect(both(A)).toEqual([false, true]);
    expect(both(null)).toEqual([false, false]);
    rmSync(refusedResetFile(side));
    writeFileSync(refusedResetFile(main), '{}');
    expect(both(A)).toEqual([true, false]);
  });
});
