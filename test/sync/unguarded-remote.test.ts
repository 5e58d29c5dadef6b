// A bare remote without `install --server` (GitHub.com, GitLab.com, gitolite without the hook): each clone
// holds what it fetches to the invariant. A receipt dropped by a fast-forward never disappears from a clone,
// and the next sync puts it back on the remote.
import { describe, expect, it } from 'vitest';
import { refOf } from '../helpers/repo';
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
