// Issue 13 item 13: archiving is owner-or-takeover everywhere. An archive entry is a version on top of the tip it
// archives, by the archiving session; a deletion beside an entry at the tip itself (no record of who), or beside an
// entry by a session that neither owns the handoff nor takes it over, is refused by fetch and by the server.
import { describe, expect, it } from 'vitest';
import { json, refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok } from './world';

const REF = 'refs/handoffs/main/auth-refactor';
const ENTRY = 'refs/handoff-archive/main/auth-refactor/1700000000-';

/** An archive commit on `tip` by `session` (with optional takeover trailer), made with plumbing. */
function archiveCommit(repo: TestRepo, tip: string, session: string, takeoverFrom?: string): string {
  const msg = `handoff(auth-refactor): archived\n\nClaude-Session-Id: ${session}\n${takeoverFrom ? `Handoff-Takeover-From: ${takeoverFrom}\nHandoff-Reason: x\n` : ''}`;
  return repo.git(['commit-tree', `${tip}^{tree}`, '-p', tip], { input: msg }).stdout.trim();
}

// What a pusher with write access but no claim would try: [name, archive entry oid from the tip].
const ATTACKS: Array<[string, (b: TestRepo, tip: string) => string]> = [
  ['entry at the tip itself', (_b, tip) => tip],
  ['entry by another session, no takeover', (b, tip) => archiveCommit(b, tip, 'sess-b')],
  ['entry claiming a takeover from someone else', (b, tip) => archiveCommit(b, tip, 'sess-b', 'sess-z')],
];

describe('archiving is owner-or-takeover (issue 13 item 13)', () => {
  it("fetch in the owner's clone refuses each way a pusher archives A's handoff; the handoff stays live", async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'mine', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const tip = refOf(a, REF)!;
    for (const [name, make] of ATTACKS) {
      const entry = make(b, tip);
      const stamp = `${ENTRY}${entry.slice(0, 12)}`;
      b.git(['push', '-q', '--atomic', 'origin', `:${REF}`, `${entry}:${stamp}`]);
      const r = json(await ok(a, ['fetch', '--json']));
      expect(r.handoffs.find((h: any) => h.ref === REF), name).toMatchObject({ action: 'refused' });
      expect(refOf(a, REF), name).toBe(tip);
      // put the remote back for the next spelling
      b.git(['push', '-q', 'origin', `${tip}:${REF}`]);
      await ok(a, ['fetch']);
    }
  });

  it("the owner's or a takeover's archive goes through, and the entry names who archived", async () => {
    const { a, b } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'mine', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    expect((await b.cli(['archive', 'auth-refactor', '--session', 'sess-b'])).exitCode).toBe(3);
    await ok(b, ['archive', 'auth-refactor', '--session', 'sess-b', '--take-over', '--reason', 'A left']);
    await ok(b, ['sync']);
    const r = json(await ok(a, ['fetch', '--json']));
    const h = r.handoffs.find((x: any) => x.ref === REF);
    expect(h).toMatchObject({ action: 'archived' });
    expect(refOf(a, REF)).toBeNull();
    const msg = a.git(['log', '-1', '--format=%B', h.archivedAs]).stdout;
    expect(msg).toContain('Claude-Session-Id: sess-b');
    expect(msg).toContain('Handoff-Takeover-From: sess-a');
    expect(msg).toContain('Handoff-Reason: A left');
  });

  it('a server installed with install --server refuses each way, in one push or split over two', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'mine', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const tip = refOf(bare, REF)!;
    for (const [name, make] of ATTACKS) {
      const entry = make(b, tip);
      const stamp = `${ENTRY}${entry.slice(0, 12)}`;
      const one = b.git(['push', '--atomic', 'origin', `:${REF}`, `${entry}:${stamp}`], { allowFail: true });
      expect(one.status, name).not.toBe(0);
      expect(one.stderr, name).toMatch(/remote: git-handoff: refused refs\/handoffs\/main\/auth-refactor/);
      expect(refOf(bare, REF), name).toBe(tip);
      // the entry first (a bare entry is a kept history, accepted), the deletion after: still refused
      b.git(['push', '-q', 'origin', `${entry}:${stamp}`], { allowFail: true });
      const two = b.git(['push', 'origin', `:${REF}`], { allowFail: true });
      expect(two.status, name).not.toBe(0);
      expect(refOf(bare, REF), name).toBe(tip);
    }
  });
});
