// Issue 13 item 1: a handoff commit whose trailer block git reads one way and a naive parser another (continuation
// lines, control bytes, two owners, CR) is refused wherever the invariant is checked — the local
// reference-transaction hook, fetch, a server installed with `install --server` — and the CLI meets one with exit 6.
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { hookedRepo } from '../../hooks/helpers';
import { makeWorld, ok } from '../../sync/world';

const REF = 'refs/handoffs/main/auth-refactor';
const A = 'sess-a';

// The attack from the issue, and other spellings of it.
const SPELLINGS: Record<string, string> = {
  'indented continuation': `X-Note: x\n Claude-Session-Id: ${A}\nClaude-Session-Id: sess-b`,
  'tab continuation': `X-Note: x\n\tClaude-Session-Id: ${A}\nClaude-Session-Id: sess-b`,
  '0x1F inside a value': `Claude-Session-Id: ${A}\x1fClaude-Session-Id: sess-b\nHandoff-Topic: auth-refactor`,
  'two owners': `Claude-Session-Id: ${A}\nClaude-Session-Id: sess-b`,
  'two owners, other case': `Claude-Session-Id: ${A}\nclaude-session-id: sess-b`,
  'CR line ends': `Claude-Session-Id: ${A}\r\nHandoff-Topic: auth-refactor\r`,
  'space before the colon': `Claude-Session-Id : ${A}\nHandoff-Topic: auth-refactor`,
};

/** A commit on top of `parent` (or a root) whose trailer block is `block`, made with plumbing. */
function forge(repo: TestRepo, parent: string | null, block: string): string {
  const tree = parent ? repo.git(['rev-parse', `${parent}^{tree}`]).stdout.trim() : repo.git(['mktree'], { input: '' }).stdout.trim();
  return repo.git(['commit-tree', tree, ...(parent ? ['-p', parent] : [])], { input: `handoff(auth-refactor): x\n\n${block}\n` }).stdout.trim();
}

describe('ambiguous trailer blocks (issue 13 item 1)', () => {
  it('the reference-transaction hook refuses each spelling, as an update and as a creation', async () => {
    const repo = await hookedRepo();
    await ok(repo, ['write', 'auth-refactor', '-m', 'mine', '--session', A]);
    const tip = refOf(repo, REF)!;
    for (const [name, block] of Object.entries(SPELLINGS)) {
      const bad = forge(repo, tip, block);
      const r = repo.git(['update-ref', REF, bad, tip], { allowFail: true });
      expect(r.status, name).not.toBe(0);
      expect(r.stderr, name).toMatch(/ambiguous trailer block/);
      expect(refOf(repo, REF), name).toBe(tip);
      const created = repo.git(['update-ref', 'refs/handoffs/main/other-topic', forge(repo, null, block), ''], { allowFail: true });
      expect(created.status, name).not.toBe(0);
      expect(refOf(repo, 'refs/handoffs/main/other-topic'), name).toBeNull();
    }
    // the owner still writes
    await ok(repo, ['write', 'auth-refactor', '-m', 'still mine', '--session', A]);
  });

  it("a code commit whose block is ambiguous still protects every session it could name from another's reset", async () => {
    const repo = await hookedRepo();
    for (const [name, block] of Object.entries(SPELLINGS).filter(([n]) => n !== 'two owners' && n !== 'two owners, other case')) {
      const r = repo.git(['commit', '-q', '--allow-empty', '-F', '-'], { input: `work by A\n\n${block}\n` });
      expect(r.status, name).toBe(0);
      const tip = repo.git(['rev-parse', 'HEAD']).stdout.trim();
      const reset = repo.git(['reset', '-q', '--hard', 'HEAD~1'], { allowFail: true, env: { GIT_HANDOFF_SESSION: 'sess-c' } });
      expect(reset.status, name).not.toBe(0);
      expect(reset.stderr, name).toMatch(/would drop 1 commit of another session/);
      expect(repo.git(['rev-parse', 'HEAD']).stdout.trim(), name).toBe(tip);
    }
  });

  it('where no hook stopped it, write, archive and takeover exit 6 on the tip; list, show and log name no owner', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', 'mine', '--session', A]);
    const tip = refOf(repo, REF)!;
    const bad = forge(repo, tip, SPELLINGS['indented continuation']);
    repo.git(['update-ref', REF, bad, tip]);
    for (const args of [
      ['write', 'auth-refactor', '-m', 'x', '--session', A],
      ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-b'],
      ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-c', '--take-over', '--reason', 'r'],
      ['archive', 'auth-refactor', '--session', A],
    ]) {
      const r = await repo.cli(args);
      expect(r.exitCode, args.join(' ')).toBe(6);
      expect(String(r.stderr)).toMatch(/ambiguous trailer block \(a continuation line\)/);
    }
    expect(refOf(repo, REF)).toBe(bad);
    const [row] = JSON.parse(String((await ok(repo, ['list', '--json'])).stdout));
    expect(row).toMatchObject({ session: null, problem: expect.stringMatching(/ambiguous/) });
    expect(JSON.parse(String((await ok(repo, ['show', 'auth-refactor', '--json'])).stdout))).toMatchObject({ session: null, problem: expect.stringMatching(/ambiguous/) });
    const log = JSON.parse(String((await ok(repo, ['log', 'auth-refactor', '--json'])).stdout));
    expect(log[0]).toMatchObject({ session: null, problem: expect.stringMatching(/ambiguous/) });
    expect(log[1]).toMatchObject({ session: A });
  });

  it('fetch refuses to apply each spelling, on top of a handoff and as a new one', async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'mine', '--session', A]);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const tip = refOf(a, REF)!;
    for (const [name, block] of Object.entries(SPELLINGS)) {
      const bad = forge(b, tip, block);
      b.git(['push', '-q', '--force', 'origin', `${bad}:${REF}`, `${forge(b, null, block)}:refs/handoffs/main/other-topic`]);
      const r = await a.cli(['fetch', '--json']);
      // a refused remote version is a named state, exit 6 until its owner resolves it (SPEC 7)
      expect(r.exitCode, name + String(r.stderr)).toBe(6);
      const res = JSON.parse(String(r.stdout));
      const mine = res.handoffs.find((h: any) => h.ref === REF);
      expect(mine, name).toMatchObject({ action: 'refused', violation: { rule: 'ambiguous-trailers' } });
      expect(res.handoffs.find((h: any) => h.ref === 'refs/handoffs/main/other-topic'), name).toMatchObject({ action: 'refused' });
      expect(refOf(a, REF), name).toBe(tip);
      expect(refOf(a, 'refs/handoffs/main/other-topic'), name).toBeNull();
    }
    await ok(a, ['write', 'auth-refactor', '-m', 'still mine', '--session', A]);
  });

  it('a server installed with install --server refuses each spelling, update or creation', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'mine', '--session', A]);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const tip = refOf(bare, REF)!;
    for (const [name, block] of Object.entries(SPELLINGS)) {
      const pushed = b.git(['push', 'origin', `${forge(b, tip, block)}:${REF}`], { allowFail: true });
      expect(pushed.status, name).not.toBe(0);
      expect(pushed.stderr, name).toMatch(/remote: git-handoff: refused refs\/handoffs\/main\/auth-refactor: .*ambiguous trailer block/);
      const created = b.git(['push', 'origin', `${forge(b, null, block)}:refs/handoffs/main/other-topic`], { allowFail: true });
      expect(created.status, name).not.toBe(0);
      expect(refOf(bare, REF), name).toBe(tip);
      expect(refOf(bare, 'refs/handoffs/main/other-topic'), name).toBeNull();
    }
  });
});
