// A bare remote without `install --server` (GitHub.com, GitLab.com, gitolite without the hook): each clone
// holds what it fetches to the invariant. A receipt dropped by a fast-forward never disappears from a clone,
// and the next sync puts it back on the remote.
import { describe, expect, it } from 'vitest';
import { parse } from 'shell-quote';
import { json, refOf } from '../helpers/repo';
import { makeWorld, ok, receiptLines } from './world';

const NOTES = 'refs/notes/handoff-reads';

describe.each([false, true])('receipts through a remote without the check (git hooks installed: %s)', (hooks) => {
  it('a fast-forward that drops a receipt is merged by union: the clone keeps it, the next sync restores the remote', async () => {
    const { a, b, bare } = await makeWorld('file');
    if (hooks) for (const c of [a, b]) await ok(c, ['install', '--hooks']);
    await ok(a, ['write', 'release-plan', '-m', 'Goal', '--session', 'writer']);
    await ok(a, ['show', 'release-plan', '--session', 'reader-a']);
    await ok(a, ['sync']);
    await ok(b, ['sync']);
    const before = receiptLines(b);
    expect(before.map((l) => l.split(' ').slice(1).join(' '))).toEqual(['reader-a read']);

    // Someone with push access drops reader-a's receipt with a plain fast-forward notes commit (no force needed).
    const tip = refOf(a, 'refs/handoffs/main/release-plan')!;
    const dropper = a.git(['commit-tree', a.git(['mktree'], { input: '' }).stdout.trim(), '-p', refOf(a, NOTES)!], { input: 'drop receipts\n' }).stdout.trim();
    a.git(['push', '-q', '--no-verify', 'origin', `${dropper}:${NOTES}`]);
    expect(receiptLines(bare)).toEqual([]);
    expect(tip).toBeTruthy();

    // b fetches: the receipt stays, the notes are a merge of both (a descendant of the remote's), exit 0.
    const f = await ok(b, ['fetch', '--json']);
    expect(JSON.parse(String(f.stdout)).receipts).toBe('merged');
    expect(receiptLines(b)).toEqual(before);
    expect(b.git(['merge-base', '--is-ancestor', dropper, NOTES], { allowFail: true }).status).toBe(0);
    // a fetch again changes nothing and still keeps it
    await ok(b, ['fetch']);
    expect(receiptLines(b)).toEqual(before);

    // the next sync pushes the union as a fast-forward: the remote has the receipt again
    await ok(b, ['sync']);
    expect(receiptLines(bare)).toEqual(before);
    expect(refOf(bare, NOTES)).toBe(refOf(b, NOTES));
  });
});

const REF = 'refs/handoffs/main/auth-refactor';

describe.each([false, true])('a stolen version on a remote without the check (git hooks installed: %s)', (hooks) => {
  it('is refused, stands `refused` (exit 6, stable), and the owner\'s `sync --resolve <topic>` restores it for everyone', async () => {
    const { a, b, bare } = await makeWorld('file');
    if (hooks) for (const c of [a, b]) await ok(c, ['install', '--hooks']);
    await ok(a, ['write', 'auth-refactor', '-m', 'the owner\'s plan', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const mine = refOf(a, REF)!;
    // b writes on top of a's handoff as itself, no takeover, and pushes it with plain git: the host takes it
    const tree = b.git(['rev-parse', `${mine}^{tree}`]).stdout.trim();
    const steal = b.git(['commit-tree', tree, '-p', mine], { input: 'handoff(auth-refactor): mine now\n\nClaude-Session-Id: sess-b\n' }).stdout.trim();
    b.git(['push', '-q', '--no-verify', 'origin', `${steal}:${REF}`]);
    expect(refOf(bare, REF)).toBe(steal);

    // every command says the same, every time: refused, exit 6, the owner's way on; nothing moves
    for (let i = 0; i < 2; i++) {
      const f = await a.cli(['fetch']);
      expect(f.exitCode, String(f.stderr)).toBe(6);
      expect(String(f.stdout)).toMatch(/refused\s+main\/auth-refactor: not applied: .*session sess-b adds to session sess-a's handoff without a takeover.*git handoff sync origin --resolve auth-refactor/);
      expect(String(f.stderr)).toContain('git handoff sync origin --resolve auth-refactor');
      expect(refOf(a, REF)).toBe(mine);
      const list = await ok(a, ['list', '--json']);
      expect(json(list).map((h: any) => [h.topic, h.sync])).toEqual([['auth-refactor', 'refused']]);
      const p = await a.cli(['push']);
      expect(p.exitCode).toBe(6);
      expect(String(p.stdout)).toMatch(/not pushed\s+main\/auth-refactor: refused: origin's version breaks the ownership invariant/);
      expect(String(p.stdout)).not.toMatch(/brings it in/);
      const s = await a.cli(['sync', '--json']);
      expect(s.exitCode).toBe(6);
      expect(json(s).push.skipped).toMatchObject([{ ref: REF, state: 'refused' }]);
    }
    // b's clone (never moved onto it) sees the same
    expect((await b.cli(['fetch'])).exitCode).toBe(6);
    // --keep remote would keep the stolen side: refused
    expect((await a.cli(['sync', '--resolve', 'auth-refactor', '--keep', 'remote', '--session', 'sess-a'])).exitCode).toBe(2);

    // the owner's way on: a version on top of both, with its own content, naming the refused one
    // status names that way on, as its owner pastes it at a terminal
    const attention = json(await ok(a, ['status', '--json'])).attention.filter((x: { kind: string }) => x.kind === 'refused-handoff');
    expect(attention).toEqual([expect.objectContaining({ ref: REF, session: 'sess-a', message: "auth-refactor on main: origin's copy breaks the ownership rule and is not taken" })]);
    expect(attention[0].command).toBe('git handoff sync origin --resolve auth-refactor --session sess-a');
    const r = await ok(a, parse(attention[0].command).slice(2) as string[]);
    expect(String(r.stdout)).toMatch(/restored on top of origin's .*, which is refused/);
    const restored = refOf(a, REF)!;
    expect(a.git(['rev-list', '--parents', '-n', '1', restored]).stdout.trim().split(' ').slice(1)).toEqual([mine, steal]);
    expect(a.git(['log', '-1', '--format=%(trailers:key=Handoff-Refused,valueonly)', restored]).stdout.trim()).toBe(steal);
    expect(a.git(['rev-parse', `${restored}^{tree}`]).stdout).toBe(a.git(['rev-parse', `${mine}^{tree}`]).stdout);
    await ok(a, ['sync']);
    expect(refOf(bare, REF)).toBe(restored);
    expect(json(await ok(a, ['list', '--json'])).map((h: any) => h.sync)).toEqual(['synced']);
    // every clone takes it as a fast-forward, the owner unchanged
    await ok(b, ['sync']);
    expect(refOf(b, REF)).toBe(restored);
    const shown = json(await ok(b, ['show', 'auth-refactor', '--json', '--no-receipt']));
    expect(shown.session).toBe('sess-a');
    expect(shown.body).toContain("the owner's plan");
  });

  it('a forced rewrite that steals (diverged) is refused the same way and restored by its owner', async () => {
    const { a, b, bare } = await makeWorld('file');
    if (hooks) await ok(a, ['install', '--hooks']);
    await ok(a, ['write', 'auth-refactor', '-m', 'v1', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const v1 = refOf(a, REF)!;
    await ok(a, ['write', 'auth-refactor', '-m', 'v2', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const mine = refOf(a, REF)!;
    // b force-pushes its own version over v2, on top of v1, without a takeover: a rewrite and a steal at once
    const forged = b.git(['commit-tree', b.git(['rev-parse', `${v1}^{tree}`]).stdout.trim(), '-p', v1], { input: 'handoff(auth-refactor): rewritten\n\nClaude-Session-Id: sess-b\n' }).stdout.trim();
    b.git(['push', '-q', '--force', '--no-verify', 'origin', `${forged}:${REF}`]);
    expect(refOf(bare, REF)).toBe(forged);
    const f = await a.cli(['fetch', '--json']);
    expect(f.exitCode).toBe(6);
    expect(json(f).handoffs).toMatchObject([{ ref: REF, case: 'diverged', action: 'refused', violation: { rule: 'foreign-owner' } }]);
    expect(json(await ok(a, ['list', '--json']))[0].sync).toBe('refused');
    const r = json(await ok(a, ['sync', '--resolve', 'auth-refactor', '--session', 'sess-a', '--json']));
    expect(r.parents).toEqual([mine, forged]);
    await ok(a, ['sync']);
    expect(refOf(bare, REF)).toBe(r.oid);
    expect(json(await ok(a, ['list', '--json']))[0].sync).toBe('synced');
  });
});
