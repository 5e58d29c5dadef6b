// Receipts between clones (issue 18): fetched into the tracking namespace, merged by union, pushed fast-forward
// only, and a server with `install --server` refuses a notes update that drops a receipt.
import { describe, expect, it } from 'vitest';
import { json, refOf } from '../helpers/repo';
import { makeWorld, ok, receiptLines } from './world';

const NOTES = 'refs/notes/handoff-reads';
const REF = 'refs/handoffs/main/release-plan';
const receipts = receiptLines;

describe('receipts through a bare remote', () => {
  it('two clones reading the same version at once: after sync both have every receipt, nothing lost', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'release-plan', '-m', 'Goal: v1', '--session', 'writer', '--to', 'role:reviewer']);
    await ok(a, ['write', 'second-topic', '-m', 'x', '--session', 'writer']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    const v1 = refOf(a, REF)!.slice(0, 12);
    // concurrent receipts on the same version, one in each clone, before either syncs
    await Promise.all([ok(a, ['show', 'release-plan', '--session', 'reader-a']), ok(b, ['show', 'release-plan', '--session', 'reader-b'])]);
    await ok(b, ['show', 'second-topic', '--session', 'reader-b']);
    await ok(a, ['boot', '--session', 'reader-a2', '--role', 'reviewer']);
    await ok(a, ['sync']);
    // b's notes history diverged from the remote's: sync fetches, merges by union, pushes the merge
    const r = json(await ok(b, ['sync', '--json']));
    expect(JSON.stringify(r)).toContain('"receipts":"merged"');
    await ok(a, ['sync']);
    const all = receipts(bare);
    expect(all).toEqual(
      [`${v1} reader-a read`, `${v1} reader-a2 surfaced`, `${v1} reader-b read`, `${refOf(a, 'refs/handoffs/main/second-topic')!.slice(0, 12)} reader-b read`].sort(),
    );
    expect(receipts(a)).toEqual(all);
    expect(receipts(b)).toEqual(all);
    // the fetch went into the tracking namespace, and plain git fetch does too once install --remote added the refspec
    expect(refOf(a, 'refs/handoff-remotes/origin/notes/handoff-reads')).toBe(refOf(bare, NOTES));
    await ok(b, ['install', '--remote', 'origin']);
    expect(b.git(['config', '--get-all', 'remote.origin.fetch']).stdout).toContain('+refs/notes/handoff-reads*:refs/handoff-remotes/origin/notes/handoff-reads*');
    await ok(a, ['show', 'release-plan', '--session', 'reader-c']);
    await ok(a, ['push']);
    b.git(['fetch', '-q', 'origin']);
    expect(refOf(b, 'refs/handoff-remotes/origin/notes/handoff-reads')).toBe(refOf(a, NOTES));
    // unread is per reader across clones: reader-a's read in clone a counts in clone b
    expect(json(await ok(b, ['fetch', '--json'])).receipts).toBe('fast-forwarded');
    expect(json(await ok(b, ['list', '--unread', '--json', '--session', 'reader-a'])).map((x: any) => x.topic)).toEqual(['second-topic']);
  });

  it('the server refuses a notes update that drops a receipt (forced rewrite, deletion), and keeps its receipts', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'release-plan', '-m', 'Goal', '--session', 'writer']);
    await ok(a, ['show', 'release-plan', '--session', 'reader-a']);
    await ok(a, ['sync']);
    const kept = refOf(bare, NOTES)!;
    await ok(b, ['sync']);
    // b rewrites the note by hand: reader-a's line replaced by a forged one, force-pushed
    const tip = refOf(b, REF)!;
    b.git(['notes', `--ref=${NOTES}`, 'add', '-f', '-m', 'forger 1 read', tip]);
    const forced = b.git(['push', '--force', 'origin', `${NOTES}:${NOTES}`], { allowFail: true });
    expect(forced.status).not.toBe(0);
    expect(forced.stderr).toMatch(/remote: git-handoff: refused refs\/notes\/handoff-reads: the update drops 1 receipt line/);
    expect(refOf(bare, NOTES)).toBe(kept);
    const deleted = b.git(['push', 'origin', `:${NOTES}`], { allowFail: true });
    expect(deleted.stderr).toMatch(/deleting the read receipts is refused/);
    expect(refOf(bare, NOTES)).toBe(kept);
    // adding is accepted: a new receipt on top of the server's notes
    b.git(['update-ref', NOTES, kept]);
    await ok(b, ['show', 'release-plan', '--session', 'reader-b']);
    await ok(b, ['push']);
    expect(receipts(bare).map((l) => l.split(' ').slice(1).join(' '))).toEqual(['reader-a read', 'reader-b read']);
  });
});
