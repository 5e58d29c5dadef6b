// Archive retention (issue 57): `git handoff gc` prunes archive entries past handoff.archiveRetention (older than the
// age, not their topic's newest), notes each in the loss record so recover reports no loss and --scan brings none
// back, lets git and the witness drop what only they reached; fetch and push never carry such an entry again; `gc
// --remote` prunes the handoff remote too, which a server check allows past its own retention only.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../helpers/repo';
import { makeWorld, ok } from './world';

const S = { GIT_HANDOFF_SESSION: 'sess-ret-1' };
const entries = (r: TestRepo, topic?: string) =>
  r.git(['for-each-ref', '--format=%(refname)', `refs/handoff-archive/${topic ? `main/${topic}/` : ''}`]).stdout.split('\n').filter(Boolean).sort();
const seconds = (ref: string) => Number(ref.split('/').pop()!.split('-')[0]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** alpha-notes archived twice (two archives, a second or more apart), beta-notes once; each archive writes two entries. */
async function archivedTwice(r: TestRepo) {
  await ok(r, ['write', 'alpha-notes', '-m', 'Goal: alpha'], 0, S);
  await ok(r, ['archive', 'alpha-notes'], 0, S);
  await sleep(1100);
  await ok(r, ['restore', 'alpha-notes'], 0, S);
  await ok(r, ['archive', 'alpha-notes'], 0, S);
  await ok(r, ['write', 'beta-notes', '-m', 'Goal: beta'], 0, S);
  await ok(r, ['archive', 'beta-notes'], 0, S);
  const alpha = entries(r, 'alpha-notes');
  expect(alpha).toHaveLength(4);
  const newest = Math.max(...alpha.map(seconds));
  return { old: alpha.filter((e) => seconds(e) < newest), newest: alpha.filter((e) => seconds(e) === newest) };
}

describe('archive retention', () => {
  it("gc prunes what is past retention, keeps each topic's newest, and recover reports no loss nor brings one back", async () => {
    const r = makeRepo({ commit: true });
    const { old, newest } = await archivedTwice(r);
    // the default (90 days) prunes nothing
    expect(json(await ok(r, ['gc', '--json'])).pruned).toEqual([]);
    r.git(['config', 'handoff.archiveRetention', '1s,1']);
    await sleep(2100);
    expect(json(await ok(r, ['gc', '--dry-run', '--json'])).pruned.sort()).toEqual(old);
    expect(entries(r, 'alpha-notes')).toHaveLength(4);
    const pruned = await ok(r, ['gc']);
    expect(String(pruned.stdout)).toContain('pruned 2 archive entries here');
    expect(entries(r, 'alpha-notes')).toEqual(newest);
    expect(entries(r, 'beta-notes')).toHaveLength(2);
    // the newest archive of each topic still lists, shows and restores
    const archived = json(await ok(r, ['list', '--archived', '--json'])).map((x: { topic: string }) => x.topic).sort();
    expect(archived).toEqual(['alpha-notes', 'beta-notes']);
    // no loss anywhere: every command's check, and recover
    const listed = await ok(r, ['list', '--all']);
    expect(String(listed.stderr)).not.toMatch(/lost|recover/);
    const rec = json(await ok(r, ['recover', '--json']));
    expect(rec.left).toEqual([]);
    // --scan, while the pruned versions are still in the object store, brings none of them back
    await ok(r, ['recover', '--scan']);
    expect(entries(r, 'alpha-notes')).toEqual(newest);
    await ok(r, ['restore', 'alpha-notes'], 0, S);
    // what only pruned entries reached (beta's one archive, pruned with a count of 0) neither the record nor the
    // witness outside .git keeps: git's gc lets it go (alpha's older archives stay in the history of its newer ones)
    r.git(['config', 'handoff.archiveRetention', '1s,0']);
    const beta = entries(r, 'beta-notes').map((e) => refOf(r, e)!);
    expect(json(await ok(r, ['gc', '--json'])).pruned).toHaveLength(4);
    expect(entries(r, 'beta-notes')).toEqual([]);
    expect(json(await ok(r, ['recover', '--json'])).left).toEqual([]);
    r.git(['gc', '-q', '--prune=now']);
    for (const oid of beta) expect(r.git(['cat-file', '-e', oid], { allowFail: true }).status, oid).not.toBe(0);
    const witnessRoot = path.join(r.home, '.local', 'state', 'git-handoff', 'witness');
    expect(existsSync(witnessRoot)).toBe(true);
    for (const w of readdirSync(witnessRoot)) for (const oid of beta) expect(r.git(['--git-dir', path.join(witnessRoot, w), 'cat-file', '-e', oid], { allowFail: true }).status).not.toBe(0);
  }, 120_000);

  it('gc --remote prunes the handoff remote (the server check takes what is past its own retention); fetch and push carry none back', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    const { old, newest } = await archivedTwice(a);
    await ok(a, ['sync'], 0, S);
    await ok(b, ['sync'], 0, S);
    expect(entries(b, 'alpha-notes')).toHaveLength(4);
    for (const x of [a, b]) x.git(['config', 'handoff.archiveRetention', '1s,1']);
    await sleep(2100);
    // the server keeps the default retention (90 days): it refuses the pruning, with its words
    const refused = await a.cli(['gc', '--remote']);
    expect(refused.exitCode).toBe(6);
    expect(String(refused.stderr)).toMatch(/archived handoffs are kept/);
    expect(entries(bare, 'alpha-notes')).toHaveLength(4);
    // the same retention on the server: it takes it
    bare.git(['config', 'handoff.archiveRetention', '1s,1']);
    const pruned = json(await ok(a, ['gc', '--remote', '--json']));
    expect(pruned.remote.updates.map((u: { ref: string; status: string }) => [u.ref, u.status]).sort()).toEqual(old.map((e) => [e, 'pushed']));
    expect(entries(bare, 'alpha-notes')).toEqual(newest);
    // b still holds them: its sync sends none back, and its gc prunes them
    await ok(b, ['sync'], 0, S);
    expect(entries(bare, 'alpha-notes')).toEqual(newest);
    await ok(b, ['gc']);
    expect(entries(b, 'alpha-notes')).toEqual(newest);
    // a new clone takes in only what is within its retention (here the default: everything the remote has)
    const c = makeRepo({ commit: true });
    c.git(['remote', 'add', 'origin', bare.dir]);
    c.git(['config', 'handoff.archiveRetention', '1s,0']);
    await ok(c, ['sync'], 0, S);
    expect(entries(c)).toEqual([]);
    c.git(['config', 'handoff.archiveRetention', '90d,1']);
    await ok(c, ['sync'], 0, S);
    expect(entries(c)).toEqual(entries(bare));
  }, 180_000);
});
