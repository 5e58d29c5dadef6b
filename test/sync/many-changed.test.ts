// A sync's git processes do not grow with the number of handoffs that changed (issue 72): versions written on the
// remote by another clone come in, and versions that moved here outside git-handoff (raw git, so the loss record
// checks them at the start) go out, with the same processes for three of each as for one.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../helpers/repo';
import { gitRecorder, handoffRefs, makeWorld, ok } from './world';

const THERE = { GIT_HANDOFF_SESSION: 'sess-many-there' };
const ASIDE = { GIT_HANDOFF_SESSION: 'sess-many-aside' };
const TOPICS = [0, 1, 2];

describe('a sync of many changed handoffs', () => {
  it('starts as many git processes for three changed each way as for one, and moves every one', async () => {
    const { a, b, bare, url } = await makeWorld('file');
    const c = makeRepo({ commit: true });
    c.git(['remote', 'add', 'origin', url]);
    for (const t of TOPICS) await ok(b, ['write', `there-${t}`, '-m', 'Goal: v0'], 0, THERE);
    await ok(b, ['sync'], 0, THERE);
    for (const t of TOPICS) await ok(c, ['write', `aside-${t}`, '-m', 'Goal: v0'], 0, ASIDE);
    await ok(c, ['sync'], 0, ASIDE);
    await ok(a, ['sync']);

    const round = async (k: number) => {
      for (const t of TOPICS.slice(0, k)) await ok(b, ['write', `there-${t}`, '-m', `Goal: for ${k}`], 0, THERE);
      await ok(b, ['sync'], 0, THERE);
      for (const t of TOPICS.slice(0, k)) await ok(c, ['write', `aside-${t}`, '-m', `Goal: for ${k}`], 0, ASIDE);
      // taken in with git alone, no hook: the record learns of these moves at the sync's start
      a.git(['-c', 'core.hooksPath=/dev/null', 'fetch', '-q', c.dir, 'refs/handoffs/main/aside-*:refs/handoffs/main/aside-*']);
      const r = gitRecorder(makeRepo().dir);
      const out = json(await ok(a, ['sync', '--json'], 0, r.env));
      expect(out.fetch.counts['remote-ahead']).toBe(k);
      expect(out.push.updates.filter((u: { status: string; kind: string }) => u.status === 'pushed' && u.kind !== 'record')).toHaveLength(k);
      // after the fetch, one walk of the histories answers the merge, the ownership check and the push plan
      const calls = r.calls();
      const afterFetch = calls.slice(calls.findIndex((call) => call[0] === 'fetch'));
      expect(afterFetch.filter((call) => call[0] === 'rev-list' && call.includes('--parents'))).toHaveLength(1);
      return calls.map((call) => call[0]);
    };
    const one = await round(1);
    const three = await round(3);
    expect(three.sort()).toEqual(one.sort());
    // every version arrived on both sides, and nothing was reported lost
    expect(handoffRefs(a)).toBe(handoffRefs(bare));
    expect(refOf(a, 'refs/handoffs/main/aside-2')).toBe(refOf(c, 'refs/handoffs/main/aside-2'));
    expect(refOf(a, 'refs/handoffs/main/there-2')).toBe(refOf(b, 'refs/handoffs/main/there-2'));
    const status = await a.cli(['status', '--json']);
    expect(String(status.stdout)).not.toMatch(/rogue-advance|rewritten|outside git-handoff/);
  }, 120_000);
});
