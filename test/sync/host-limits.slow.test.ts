// Hosts that impose limits (issue 57), each a real bare remote over file:// whose pre-receive hook refuses as a host
// does, in its words: every handoff arrives (in pushes the host takes, waited out or cut smaller), a push the host still
// refuses is said with its words and continued by the next sync, and no claim the host refused is called published;
// two clones racing for the same paths under a rate limit leave exactly one holder, the other told who.
import { describe, expect, it } from 'vitest';
import { buildMessage } from '../../src/handoff/store/document';
import { json, refOf, type TestRepo } from '../helpers/repo';
import { GITHUB_RATE, GITLAB_RATE, limitPushRate, limitRefsPerPush } from './limits';
import { handoffRefs, makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'sess-bulk' };

/** `n` handoffs by plumbing (one tree, n commit-tree, one update-ref --stdin), as test/sync/scale.slow.test.ts writes them. */
function writeMany(repo: TestRepo, n: number, from = 0): void {
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: 'Goal: bulk\n' }).stdout.trim();
  const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
  const lines = ['start'];
  for (let i = from; i < from + n; i++) {
    const topic = `area-${i}-notes`;
    const msg = buildMessage({ topic, body: 'Goal: bulk', session: 'sess-bulk', branch: 'main', head: null, client: 'cli' });
    lines.push(`create refs/handoffs/main/${topic} ${repo.git(['commit-tree', tree], { input: msg }).stdout.trim()}`);
  }
  repo.git(['update-ref', '--stdin'], { input: [...lines, 'prepare', 'commit', ''].join('\n') });
}

const live = (r: TestRepo) => r.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/']).stdout.split('\n').filter(Boolean);

describe('a host that takes at most N refs a push', () => {
  it.each(['file', 'http', 'git'] as const)('every handoff arrives: a push the host calls too large is halved until it takes it, and the rest go at that size (%s)', async (transport) => {
    const { a, bare } = await makeWorld(transport);
    limitRefsPerPush(bare, 10);
    writeMany(a, 45);
    await ok(a, ['list', '--all'], 0, S);
    const s = await ok(a, ['sync', '--json'], 0, S);
    const out = json(s);
    expect(out.push.stopped).toBeUndefined();
    expect(out.push.updates.filter((u: { status: string }) => u.status === 'pushed')).toHaveLength(45);
    expect(out.push.batches).toBeGreaterThanOrEqual(5);
    expect(live(bare)).toHaveLength(45);
    expect(handoffRefs(bare)).toBe(handoffRefs(a));
    // and list says each is on the remote
    expect(json(await ok(a, ['list', '--json'], 0, S)).every((r: { sync: string }) => r.sync === 'synced')).toBe(true);
  }, 120_000);

  it('a host that refuses a push whole in words of its own: halved down until it takes one, every handoff arrives, and the size is named', async () => {
    const { a, bare } = await makeWorld('file');
    limitRefsPerPush(bare, 7, 'acme-git: quota policy 12b says no\ncontact your administrator');
    writeMany(a, 30);
    await ok(a, ['list', '--all'], 0, S);
    const s = await a.cli(['sync'], { env: S });
    expect(s.exitCode, String(s.stderr)).toBe(0);
    expect(live(bare)).toHaveLength(30);
    expect(handoffRefs(bare)).toBe(handoffRefs(a));
    expect(String(s.stdout)).toMatch(/took [1-7] refs? a push; `git config handoff\.pushBatch [1-7]` starts there/);
    expect(json(await ok(a, ['list', '--json'], 0, S)).every((r: { sync: string }) => r.sync === 'synced')).toBe(true);
  }, 120_000);

  it('handoff.pushBatch keeps each push within the bound, so the host never refuses one', async () => {
    const { a, bare } = await makeWorld('file');
    limitRefsPerPush(bare, 10);
    a.git(['config', 'handoff.pushBatch', '10']);
    writeMany(a, 29);
    await ok(a, ['list', '--all'], 0, S);
    const out = json(await ok(a, ['sync', '--json'], 0, S));
    // 29 handoffs and the loss record, at most 10 refs a push: 10, 10, and 9 with the record
    expect(out.push.batches).toBe(3);
    expect(live(bare)).toHaveLength(29);
  }, 120_000);
});

describe('a host that takes at most K pushes a minute', () => {
  it('a rate limit is waited out: every handoff arrives (GitHub\'s secondary rate limit)', async () => {
    const { a, bare } = await makeWorld('file');
    limitPushRate(bare, 2, 3);
    a.git(['config', 'handoff.pushBatch', '8']);
    a.git(['config', 'handoff.hostWait', '60s']);
    writeMany(a, 30);
    await ok(a, ['list', '--all'], 0, S);
    const out = json(await ok(a, ['sync', '--json'], 0, S));
    expect(out.push.stopped).toBeUndefined();
    expect(live(bare)).toHaveLength(30);
    expect(handoffRefs(bare)).toBe(handoffRefs(a));
  }, 180_000);

  it('a limit that outlasts handoff.hostWait stops the push with the host\'s words; the next sync continues where it stopped', async () => {
    const { a, bare } = await makeWorld('file');
    limitPushRate(bare, 1, 4);
    a.git(['config', 'handoff.pushBatch', '10']);
    a.git(['config', 'handoff.hostWait', '1s']);
    writeMany(a, 30);
    await ok(a, ['list', '--all'], 0, S);
    const first = await a.cli(['sync'], { env: S });
    expect(first.exitCode).toBe(7);
    expect(String(first.stderr)).toContain(GITHUB_RATE);
    const [, went, left] = /(\d+) refs went, (\d+) did not \(exit 7\); `git handoff sync origin` continues where it stopped/.exec(String(first.stderr))!.map(Number);
    // one push of at most handoff.pushBatch refs (room kept in it for the loss record) went, the rest did not
    expect(went).toBeLessThanOrEqual(10);
    expect(went + left).toBe(30);
    const there = live(bare).length;
    expect(there).toBe(went);
    // what went is synced in list, the rest local: honest either way
    const rows = json(await ok(a, ['list', '--json'], 0, S));
    expect(rows.filter((r: { sync: string }) => r.sync === 'synced')).toHaveLength(there);
    expect(rows.filter((r: { sync: string }) => r.sync === 'local')).toHaveLength(30 - there);
    // each later sync sends what the host takes; in the end all of it is there
    for (let i = 0; i < 8 && live(bare).length < 30; i++) {
      await new Promise((r) => setTimeout(r, 4200));
      const again = await a.cli(['sync'], { env: S });
      expect([0, 7]).toContain(again.exitCode);
    }
    expect(live(bare)).toHaveLength(30);
    expect(handoffRefs(bare)).toBe(handoffRefs(a));
  }, 180_000);
});

describe('claims on a host that limits the rate', () => {
  it('racing claims of the same paths: exactly one holds them, the other is told who; none is called published that the host refused', async () => {
    const { bare, a, b } = await makeWorld('file');
    limitPushRate(bare, 1, 3, GITLAB_RATE);
    for (const c of [a, b]) c.git(['config', 'handoff.hostWait', '30s']);
    for (let round = 0; round < 3; round++) {
      const spec = `mod-${round}/`;
      const [x, y] = await Promise.all([a.cli(['claim', spec, '--session', `a-${round}`, '--json']), b.cli(['claim', spec, '--session', `b-${round}`, '--json'])]);
      const codes = [x.exitCode, y.exitCode].sort();
      expect(codes, `${x.stdout}\n${y.stdout}`).toEqual([0, 3]);
      const [won, lost] = x.exitCode === 0 ? [x, y] : [y, x];
      expect(json(won).published).toEqual({ where: 'remote', remote: 'origin' });
      const winner = json(won).session;
      expect(json(lost).error.data.holders.map((h: { session: string }) => h.session)).toEqual([winner]);
      const table = JSON.parse(bare.git(['cat-file', 'blob', 'refs/claims/main:claims.json']).stdout);
      expect(table.claims.filter((c: { paths: string[] }) => c.paths.includes(spec)).map((c: { session: string }) => c.session)).toEqual([winner]);
    }
  }, 240_000);

  it("a claim the host still refuses after handoff.hostWait exits 7 with the host's words, and nothing is claimed or called published", async () => {
    const { bare, a } = await makeWorld('file');
    limitPushRate(bare, 1, 30, GITLAB_RATE);
    a.git(['config', 'handoff.hostWait', '1s']);
    expect((await a.cli(['claim', 'src/one/', '--session', 'sess-a'])).exitCode).toBe(0);
    const refused = await a.cli(['claim', 'src/two/', '--session', 'sess-a', '--json']);
    expect(refused.exitCode).toBe(7);
    expect(json(refused).error.message).toContain(GITLAB_RATE);
    expect(json(refused).error.message).toContain('nothing was claimed');
    const claims = json(await a.cli(['claims', '--json']));
    expect(claims.map((c: { paths: string[] }) => c.paths[0])).toEqual(['src/one/']);
    expect(refOf(a, 'refs/claims/main')).toBe(refOf(bare, 'refs/claims/main'));
  }, 120_000);
});
