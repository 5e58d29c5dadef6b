// src/guard/rules/refs.ts: the ref store's protected refs, from one list of names, cover every prefix the product
// writes (handoffs, archive, leases, dropped, the loss record with what it keeps, claims, receipts, replace refs): a
// file write or delete under any of them is refused. `rm .git/refs/claims/<branch>` dropped every local claim.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIMS_PREFIX } from '../../../src/handoff/claims/table';
import { KEPT_PREFIX, RECORD_REF, ROGUE_PREFIX } from '../../../src/handoff/store/tx/record';
import { ARCHIVE_PREFIX, DROPPED_PREFIX, HANDOFF_PREFIX, LEASE_PREFIX, NOTES_REF } from '../../../src/handoff/store/names';
import { refStoreWriteProblem } from '../../../src/guard/rules/refs';
import { expectShell5, world5 } from '../world-wired';
import { ME } from '../helpers';
import { asClient } from './helpers';

describe('the ref store, by the names the product writes', () => {
  it('every prefix the store, the record and the claims write is protected as a file of .git', () => {
    for (const ref of [HANDOFF_PREFIX + 'main/a-b', ARCHIVE_PREFIX + 'main/a-b/1', LEASE_PREFIX + 'x', DROPPED_PREFIX + 'main/a-b/1-abc', RECORD_REF, ROGUE_PREFIX + 'x', KEPT_PREFIX + 'x', CLAIMS_PREFIX + 'main', NOTES_REF, 'refs/replace/abc']) {
      const abs = path.join('/r', '.git', ref);
      expect(refStoreWriteProblem({ path: `.git/${ref}`, kind: 'delete', cwd: null }, abs), ref).not.toBeNull();
      expect(refStoreWriteProblem({ path: `.git/${ref}`, kind: 'write', cwd: null }, abs), ref).not.toBeNull();
    }
    expect(refStoreWriteProblem({ path: '.git/refs/heads/main', kind: 'write', cwd: null }, '/r/.git/refs/heads/main')).toBeNull();
    expect(refStoreWriteProblem({ path: 'refs/claims.txt', kind: 'write', cwd: null }, '/r/refs/claims.txt')).toBeNull();
  });

  it('the claims table moved as a file is refused, and the claim stays', async () => {
    const w = await world5();
    const c = await w.repo.cli(['claim', 'src/a.ts'], { env: { GIT_HANDOFF_SESSION: ME } });
    expect(c.exitCode, String(c.stderr)).toBe(0);
    // a loose ref file, as claim leaves it
    expect(existsSync(path.join(w.repo.dir, '.git', 'refs', 'claims', 'main'))).toBe(true);
    const attacks = ['rm .git/refs/claims/main', 'rm -rf .git/refs/claims', 'echo 0000000000000000000000000000000000000000 > .git/refs/claims/main', 'mv .git/refs/claims /tmp/gh-claims-away', 'find .git/refs -name main -delete', 'rm .git/refs/handoff-record', 'rm -rf .git/refs/handoff-dropped .git/refs/handoff-kept'];
    await expectShell5(w, attacks, 'deny');
    expect(asClient(w, attacks[0]).verdict).toBe('deny');
    const claims = JSON.parse(String((await w.repo.cli(['claims', '--json'])).stdout));
    expect(claims.map((x: { paths: string[] }) => x.paths)).toEqual([['src/a.ts']]);
    // the safe form: the session releases its own claim
    const safe = asClient(w, 'git handoff release src/a.ts');
    expect(safe.status, safe.out).toBe(0);
    expect(JSON.parse(String((await w.repo.cli(['claims', '--json'])).stdout))).toEqual([]);
  });

  it('a git command moving any refs/handoff… ref (the record, the tracking copies, a staged push) is refused; reading one is not', async () => {
    const w = await world5();
    await expectShell5(w, ['git update-ref -d refs/handoff-record', 'git update-ref -d refs/handoff-remotes/origin/handoffs/main/a-b', 'git update-ref refs/handoff-outgoing/origin/x HEAD', 'git update-ref -d refs/handoff-dropped/main/a-b/1-abc'], 'deny');
    await expectShell5(w, ['git log --oneline refs/handoff-record', 'git for-each-ref refs/handoff-remotes/'], 'allow');
  });
});
