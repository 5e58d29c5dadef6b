// `git handoff import`: each file kind, the owner kept, names resolved against local branches, repeats harmless.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';

const OWNER_A = '11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OWNER_B = '22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

function put(repo: TestRepo, file: string, text: string): string {
  const p = path.join(repo.dir, file);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
  return file;
}

const ownerOf = (repo: TestRepo, ref: string) => repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', ref]).stdout.trim();
const versions = (repo: TestRepo, ref: string) => Number(repo.git(['rev-list', '--count', ref]).stdout.trim());
const body = async (repo: TestRepo, topic: string, branch: string) => String((await repo.cli(['show', topic, '--branch', branch, '--raw'])).stdout);

function seeded(): TestRepo {
  const repo = makeRepo({ commit: true });
  repo.git(['branch', 'feature/auth-v2']);
  put(repo, 'memory/handoff-feature-auth-v2-login-flow.md', `<!-- claude-session: ${OWNER_A} -->\n\n# Login flow\n\n## Goal\nFix the redirect.\n`);
  put(repo, 'memory/handoff-main-db-migration.md', `<!-- claude-session: ${OWNER_B} -->\nMigrate users first.\n`);
  put(repo, 'memory/handoff-archive/handoff-main-old-work.md', `<!-- claude-session: ${OWNER_B} -->\narchived\n`);
  put(repo, 'memory/notes.md', 'not a handoff\n');
  return repo;
}

describe('import', () => {
  it('imports a directory of seed files, keeping each owner and leaving the marker line out of the body', async () => {
    const repo = seeded();
    const r = await repo.cli(['import', 'memory', '--json', '--session', 'importer-9']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const results = json(r);
    expect(results.map((x: any) => [x.branch, x.topic, x.status, x.session, x.ownerFrom])).toEqual([
      ['feature/auth-v2', 'login-flow', 'created', OWNER_A, 'marker'],
      ['main', 'db-migration', 'created', OWNER_B, 'marker'],
    ]);
    const login = 'refs/handoffs/feature%2Fauth-v2/login-flow';
    expect(ownerOf(repo, login)).toBe(OWNER_A);
    expect(ownerOf(repo, 'refs/handoffs/main/db-migration')).toBe(OWNER_B);
    expect(await body(repo, 'login-flow', 'feature/auth-v2')).toBe('# Login flow\n\n## Goal\nFix the redirect.');
    expect(await body(repo, 'db-migration', 'main')).toBe('Migrate users first.');
    expect(refOf(repo, 'refs/handoffs/main/old-work')).toBeNull();
  });

  it('does not duplicate on a second import, nor after the owner wrote a newer version', async () => {
    const repo = seeded();
    await repo.cli(['import', 'memory']);
    const tip = refOf(repo, 'refs/handoffs/main/db-migration');
    const again = await repo.cli(['import', 'memory', '--json']);
    expect(again.exitCode).toBe(0);
    expect(json(again).map((x: any) => x.status)).toEqual(['unchanged', 'unchanged']);
    expect(refOf(repo, 'refs/handoffs/main/db-migration')).toBe(tip);
    await repo.cli(['write', 'db-migration', '-m', 'newer notes', '--session', OWNER_B]);
    const newer = refOf(repo, 'refs/handoffs/main/db-migration');
    const third = await repo.cli(['import', 'memory/handoff-main-db-migration.md']);
    expect(third.exitCode).toBe(0);
    expect(String(third.stdout)).toContain(`unchanged (already version ${tip!.slice(0, 7)})`);
    expect(refOf(repo, 'refs/handoffs/main/db-migration')).toBe(newer);
    expect(versions(repo, 'refs/handoffs/main/db-migration')).toBe(2);
  });

  it('updates the owner’s handoff when the file changed, and refuses another session’s with exit 3', async () => {
    const repo = seeded();
    await repo.cli(['import', 'memory']);
    put(repo, 'memory/handoff-main-db-migration.md', `<!-- claude-session: ${OWNER_B} -->\nMigrate users first, then orders.\n`);
    const upd = await repo.cli(['import', 'memory/handoff-main-db-migration.md', '--json']);
    expect(json(upd)[0]).toMatchObject({ status: 'updated', session: OWNER_B });
    expect(versions(repo, 'refs/handoffs/main/db-migration')).toBe(2);
    const tip = refOf(repo, 'refs/handoffs/main/db-migration');
    put(repo, 'other/handoff-main-db-migration.md', `<!-- claude-session: ${OWNER_A} -->\nA different plan.\n`);
    const refused = await repo.cli(['import', 'other/handoff-main-db-migration.md']);
    expect(refused.exitCode).toBe(3);
    expect(String(refused.stderr)).toContain('owned by session 22222222');
    expect(refOf(repo, 'refs/handoffs/main/db-migration')).toBe(tip);
  });

  it('imports handover.md and .handover/current.md as the --session, and needs one (exit 5)', async () => {
    const repo = makeRepo({ commit: true });
    put(repo, 'handover.md', 'Where I stopped: the parser.\n');
    put(repo, '.handover/current.md', 'Current: the lexer.\n');
    const none = await repo.cli(['import', 'handover.md']);
    expect(none.exitCode).toBe(5);
    expect(String(none.stderr)).toContain('--session');
    expect(refOf(repo, 'refs/handoffs/main/session-handover')).toBeNull();
    const one = await repo.cli(['import', 'handover.md', '--session', 'sess-h-1', '--json']);
    expect(json(one)[0]).toMatchObject({ ref: 'refs/handoffs/main/session-handover', status: 'created', session: 'sess-h-1', ownerFrom: 'session' });
    expect(ownerOf(repo, 'refs/handoffs/main/session-handover')).toBe('sess-h-1');
    const two = await repo.cli(['import', '.handover/current.md', '--topic', 'lexer-work', '--branch', 'side', '--json'], { env: { GIT_HANDOFF_SESSION: 'sess-h-2' } });
    expect(json(two)[0]).toMatchObject({ ref: 'refs/handoffs/side/lexer-work', status: 'created', session: 'sess-h-2' });
    // both into the default topic at once would collide: refused before anything is written
    const both = await repo.cli(['import', 'handover.md', '.handover/current.md', '--session', 'sess-h-1', '--branch', 'third']);
    expect(both.exitCode).toBe(2);
    expect(refOf(repo, 'refs/handoffs/third/session-handover')).toBeNull();
  });

  it('asks for --branch/--topic when a name does not parse or fits several branches', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['branch', 'feature/auth']);
    repo.git(['branch', 'feature-auth']);
    const file = put(repo, 'handoff-feature-auth-login-flow.md', `<!-- claude-session: ${OWNER_A} -->\nbody\n`);
    const amb = await repo.cli(['import', file]);
    expect(amb.exitCode).toBe(2);
    expect(String(amb.stderr)).toMatch(/fits several branches .*--branch <branch> and --topic <topic>/);
    expect((await repo.cli(['import', file, '--branch', 'feature/auth'])).exitCode).toBe(0);
    expect(ownerOf(repo, 'refs/handoffs/feature%2Fauth/login-flow')).toBe(OWNER_A);
    // the current branch settles a tie
    repo.git(['checkout', '-q', 'feature-auth']);
    const here = await repo.cli(['import', file, '--json']);
    expect(json(here)[0]).toMatchObject({ branch: 'feature-auth', topic: 'login-flow', status: 'created' });
    const unknown = put(repo, 'handoff-nosuchbranch-cache-layer.md', `<!-- claude-session: ${OWNER_A} -->\nx\n`);
    const u = await repo.cli(['import', unknown]);
    expect(u.exitCode).toBe(2);
    expect(String(u.stderr)).toContain('--branch');
    const ok = await repo.cli(['import', unknown, '--branch', 'nosuchbranch', '--topic', 'cache-layer', '--json']);
    expect(json(ok)[0]).toMatchObject({ ref: 'refs/handoffs/nosuchbranch/cache-layer', status: 'created', session: OWNER_A });
    const plain = put(repo, 'notes.txt', 'plain notes\n');
    expect((await repo.cli(['import', plain, '--session', 's1'])).exitCode).toBe(2);
    expect((await repo.cli(['import', plain, '--session', 's1', '--topic', 'plain-notes', '--json'])).exitCode).toBe(0);
  });

  it('writes nothing when one argument is bad', async () => {
    const repo = seeded();
    const r = await repo.cli(['import', 'memory', 'missing.md']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('missing.md: no such file');
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    put(repo, 'handoff-main-bad-marker.md', '<!-- claude-session: bad id; rm -rf -->\nx\n');
    const bad = await repo.cli(['import', 'memory', 'handoff-main-bad-marker.md']);
    expect(bad.exitCode).toBe(2);
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    put(repo, 'handoff-main-only-marker.md', `<!-- claude-session: ${OWNER_A} -->\n\n`);
    const empty = await repo.cli(['import', 'memory', 'handoff-main-only-marker.md']);
    expect(empty.exitCode).toBe(2);
    expect(String(empty.stderr)).toContain('handoff-main-only-marker.md: it holds no handoff text');
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
  });
});
