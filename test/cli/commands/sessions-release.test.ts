// `release` names a session that exists (issue 15 bug 7), checked with the real pre-commit hook: a wrong or
// too-short id changes nothing and lists the ids it could mean; the short form `sessions` shows works.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../helpers/repo';
import { A, B, blockedByA, gitAs } from '../../hooks/helpers';

const ledgerFiles = (dir: string) => readdirSync(path.join(dir, '.git', 'handoff', 'ledger')).sort();

describe('release --session', () => {
  it('an unknown or too-short id is an error naming the candidates; the 8 characters `sessions` shows pick the session', async () => {
    const repo = await blockedByA();
    const files = ledgerFiles(repo.dir);
    const shown = String((await repo.cli(['sessions'])).stdout);
    const short = A.slice(0, 8);
    expect(shown).toContain(short);

    for (const [id, says] of [
      ['aaaa1111', 'no session "aaaa1111" in this worktree'],
      ['aaaa', 'too short to pick a session'],
      ['nobody-at-all', 'no session "nobody-at-all"'],
    ]) {
      const r = await repo.cli(['release', '--session', id]);
      expect(r.exitCode, id).toBe(2);
      expect(String(r.stderr)).toContain(says);
      expect(String(r.stderr)).toContain(A);
      // nothing written: no ledger file for a session that never existed, the real session still holds its claims
      expect(ledgerFiles(repo.dir)).toEqual(files);
      expect(gitAs(repo, B, ['commit', '-q', '-m', 'still blocked']).status).toBe(1);
    }
    const rows = JSON.parse(String((await repo.cli(['sessions', '--json'])).stdout));
    expect(rows.map((r: any) => r.session)).toEqual([A]);

    const ok = await repo.cli(['release', '--session', short]);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(String(ok.stdout)).toContain(`released session ${short}`);
    expect(gitAs(repo, B, ['commit', '-q', '-m', 'after release']).status).toBe(0);
  });

  it('a session known here by its claims alone is picked by a unique start of 8 or more characters', async () => {
    const repo = makeRepo({ commit: true });
    const holder = 'sess-1234abcd-bbbb';
    expect((await repo.cli(['claim', 'lib/**'], { env: { GIT_HANDOFF_SESSION: holder } })).exitCode).toBe(0);
    const r = await repo.cli(['release', '--session', 'sess-1234abcd-b', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ session: holder, claims: ['lib/**'] });
    expect(JSON.parse(String((await repo.cli(['claims', '--json'])).stdout))).toEqual([]);
  });
});
