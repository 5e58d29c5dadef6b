// Claims no clock can squat (issue 57): a lifetime over handoff.claimMaxTTL is refused; a claim whose expiry is years
// ahead (a skewed or forged clock) counts as expired claimMaxTTL after this clone first saw it; a renewal keeps the
// claim (its id and since); and a claims table moved outside git-handoff is said at the next read, a deleted one put back.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { makeClones } from './world';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A table commit written by hand, as a client with a clock 975 years ahead would: `session` holds `paths` until 3000. */
function forgedTable(repo: TestRepo, session: string, paths: string[]): string {
  const now = Math.floor(Date.now() / 1000);
  const claim = { id: `${session}@${now}.deadbeef`, session, client: 'cli', paths, note: 'mine for ever', since: now, expires: 32503680000, ttl: 32503680000 - now, pid: null, pidStart: null, host: 'elsewhere', topic: null, worktree: null };
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: JSON.stringify({ version: 1, claims: [claim], conflicts: [] }) }).stdout.trim();
  const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\tclaims.json\n` }).stdout.trim();
  return repo.git(['commit-tree', tree], { input: `claim(main): claim ${paths.join(' ')}\n\nClaude-Session-Id: ${session}\nHandoff-Branch: main\nHandoff-Claim: claim\n` }).stdout.trim();
}

describe('claim lifetimes are bounded', () => {
  it('a --ttl over handoff.claimMaxTTL is exit 2 and claims nothing', async () => {
    const r = makeRepo({ commit: true });
    const long = await r.cli(['claim', '**', '--ttl', '100000d', '--session', 's1', '--json']);
    expect(long.exitCode).toBe(2);
    expect(json(long).error.code).toBe('ttl-too-long');
    expect(json(long).error.message).toMatch(/handoff\.claimMaxTTL \(24h\)/);
    expect(refOf(r, 'refs/claims/main')).toBeNull();
    expect((await r.cli(['claim', 'src/', '--ttl', '20h', '--session', 's1'])).exitCode).toBe(0);
    r.git(['config', 'handoff.claimMaxTTL', '1h']);
    expect((await r.cli(['claim', 'docs/', '--ttl', '2h', '--session', 's1'])).exitCode).toBe(2);
  });

  it('an expiry years ahead counts as expired claimMaxTTL after this clone first saw it', async () => {
    const { bare, clones: [a, b] } = await makeClones('file', 2);
    // another clone's table, its clock far ahead, reaches the remote by a plain push
    b.git(['push', '-q', 'origin', `${forgedTable(b, 'squatter', ['src/'])}:refs/claims/main`]);
    a.git(['config', 'handoff.claimMaxTTL', '4s']);
    expect((await a.cli(['sync'])).exitCode).toBe(0);
    const seen = json(await a.cli(['claims', '--json']));
    expect(seen.map((c: { session: string }) => c.session)).toEqual(['squatter']);
    // shown until when this clone holds it live: at most the bound after it first saw it, not the year 3000
    expect(Date.parse(seen[0].expires)).toBeLessThanOrEqual(Date.now() + 5000);
    const refused = await a.cli(['claim', 'src/app.ts', '--session', 'worker', '--json']);
    expect(refused.exitCode).toBe(3);
    await sleep(4500);
    const won = await a.cli(['claim', 'src/app.ts', '--session', 'worker', '--json']);
    expect(won.exitCode, String(won.stdout)).toBe(0);
    expect(json(won).published).toEqual({ where: 'remote', remote: 'origin' });
    // the squatter's claim is dropped from the table by that change, on the remote too
    const table = JSON.parse(bare.git(['cat-file', 'blob', 'refs/claims/main:claims.json']).stdout);
    expect(table.claims.map((c: { session: string }) => c.session)).toEqual(['worker']);
  }, 120_000);

  it('a renewal keeps the claim: the same id and since, a later expiry (live or just run out)', async () => {
    const r = makeRepo({ commit: true });
    const first = json(await r.cli(['claim', 'src/', '--ttl', '1s', '--session', 's1', '--json']));
    const live = json(await r.cli(['claim', 'src/', '--ttl', '1h', '--session', 's1', '--json']));
    expect(live).toMatchObject({ id: first.id, since: first.since, renewed: true });
    const short = json(await r.cli(['claim', 'src/', '--ttl', '1s', '--session', 's1', '--json']));
    await sleep(1500);
    const after = json(await r.cli(['claim', 'src/', '--ttl', '1h', '--session', 's1', '--json']));
    expect(after).toMatchObject({ id: first.id, since: first.since, renewed: true });
    expect(Date.parse(after.expires)).toBeGreaterThan(Date.parse(short.expires));
  }, 60_000);
});

describe('a claims table moved outside git-handoff', () => {
  it('a deleted table is said and put back at the next read; one moved back is said with the command that undoes it', async () => {
    const r = makeRepo({ commit: true });
    expect((await r.cli(['claim', 'src/', '--session', 's1'])).exitCode).toBe(0);
    const v1 = refOf(r, 'refs/claims/main')!;
    expect((await r.cli(['claim', 'docs/', '--session', 's2'])).exitCode).toBe(0);
    const v2 = refOf(r, 'refs/claims/main')!;
    r.git(['update-ref', '-d', 'refs/claims/main']);
    const read = await r.cli(['claims']);
    expect(String(read.stderr)).toContain(`refs/claims/main was deleted outside git-handoff; put back where git-handoff left it (${v2.slice(0, 12)}, 2 claims)`);
    expect(refOf(r, 'refs/claims/main')).toBe(v2);
    expect(String(read.stdout)).toMatch(/src\//);
    // said once
    expect(String((await r.cli(['claims'])).stderr)).not.toContain('outside git-handoff');
    // rolled back to an older table: the next change says so, with the command that puts it back
    r.git(['update-ref', 'refs/claims/main', v1]);
    const claim = await r.cli(['claim', 'lib/', '--session', 's3']);
    expect(claim.exitCode).toBe(0);
    expect(String(claim.stderr)).toContain(`refs/claims/main was moved outside git-handoff, from ${v2.slice(0, 12)} to ${v1.slice(0, 12)}`);
    expect(String(claim.stderr)).toContain(`git update-ref refs/claims/main ${v2} ${v1}`);
  }, 60_000);

  it('sync says it too', async () => {
    const { clones: [a] } = await makeClones('file', 1);
    expect((await a.cli(['claim', 'src/', '--session', 's1'])).exitCode).toBe(0);
    a.git(['update-ref', '-d', 'refs/claims/main']);
    const s = await a.cli(['sync']);
    expect(s.exitCode).toBe(0);
    expect(String(s.stderr)).toMatch(/warning: refs\/claims\/main was deleted outside git-handoff; put back/);
  }, 60_000);
});
