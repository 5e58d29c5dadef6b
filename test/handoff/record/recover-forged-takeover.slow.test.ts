// recover judges a replaced history by the ownership rule the store enforces (issue 36): a history that drops the
// recorded version goes back unless it is the recorded owner's own or takes it over on the record; the forger's tip
// is kept aside and named. The loss report's hint does what plain `recover` does.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';
import { guard, payload } from '../../guard/helpers';
import { raw } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';
const versions = (repo: TestRepo, ref: string) => repo.git(['rev-list', ref]).stdout.split('\n').filter(Boolean);

async function seeded() {
  const repo = makeRepo({ commit: true });
  // the git hooks are on: the forger turns them off for its own commands (raw: core.hooksPath=/dev/null)
  await ok(repo, ['install', '--hooks']);
  await ok(repo, ['write', 'auth-refactor', '-m', 'Goal: one', '--session', 'sess-owner']);
  await ok(repo, ['write', 'auth-refactor', '-m', 'Goal: two', '--session', 'sess-owner']);
  await ok(repo, ['list']);
  return { repo, tip: refOf(repo, REF)!, history: versions(repo, REF) };
}

/** A parentless handoff commit for auth-refactor by `session`, with optional extra trailers, written with raw git. */
function parentless(repo: TestRepo, session: string, extra = ''): string {
  const tree = repo.git(['rev-parse', `${REF}^{tree}`]).stdout.trim();
  const msg = `handoff(auth-refactor): mine now\n\nClaude-Session-Id: ${session}\nHandoff-Branch: main\nHandoff-Topic: auth-refactor\nHandoff-Head: none\nHandoff-Client: cli\n${extra}`;
  return repo.git(['commit-tree', tree, '-F', '-'], { input: msg }).stdout.trim();
}

describe('a forged takeover (a parentless history by another session) is undone by recover', () => {
  for (const how of ['plain recover', 'the hinted command']) {
    it(`restored by ${how}: every version back, the forger's commit kept aside and named`, async () => {
      const { repo, tip, history } = await seeded();
      const forged = parentless(repo, 'sess-forger');
      raw(repo, ['update-ref', REF, forged]);
      const listed = await ok(repo, ['list']);
      const hint = /restore it: (git handoff recover \S+)/.exec(String(listed.stderr));
      expect(hint?.[1]).toBe(`git handoff recover ${REF}`);
      const args = how === 'plain recover' ? ['recover', '--json'] : [...hint![1].split(' ').slice(2), '--json'];
      const out = json(await ok(repo, args));
      expect(out.actions).toEqual([expect.objectContaining({ ref: REF, action: 'moved-back', oid: tip, keptAs: expect.stringMatching(/^refs\/handoff-rogue\/main\/auth-refactor\//) })]);
      expect(out.actions[0].message).toContain('sess-forger');
      expect(out.actions[0].message).toContain(out.actions[0].keptAs);
      expect(versions(repo, REF)).toEqual(history);
      expect(refOf(repo, out.actions[0].keptAs)).toBe(forged);
      // nothing reported any more, and the owner writes on
      expect((await ok(repo, ['list'])).stderr).toBe('');
      await ok(repo, ['write', 'auth-refactor', '-m', 'Goal: three', '--session', 'sess-owner']);
    });
  }

  it('restored by the next session start by itself (the SessionStart hook), the forger named, every version back', async () => {
    const { repo, tip, history } = await seeded();
    const forged = parentless(repo, 'sess-forger');
    raw(repo, ['update-ref', REF, forged]);
    const r = await guard(repo, payload(repo, 'claude-code/session-start.json', {}, 'sess-owner'));
    const ctx: string = r.answer.hookSpecificOutput.additionalContext;
    const said = /git-handoff restored at session start \(lost outside git-handoff\): (.*)/.exec(ctx)?.[1] ?? '';
    expect(said).toContain(`${REF} moved back to ${tip.slice(0, 12)}`);
    expect(said).toContain('sess-forger');
    const keptAs = /kept at (refs\/handoff-rogue\/main\/auth-refactor\/\S+)/.exec(said)![1];
    expect(refOf(repo, keptAs)).toBe(forged);
    expect(versions(repo, REF)).toEqual(history);
    expect(ctx).toContain('auth-refactor · owner sess-owner (you)');
    expect((await ok(repo, ['list'])).stderr).toBe('');
  });

  it("the recorded owner's own new history stands; the recorded one is kept beside it", async () => {
    const { repo, tip } = await seeded();
    const own = parentless(repo, 'sess-owner');
    raw(repo, ['update-ref', REF, own]);
    const out = json(await ok(repo, ['recover', '--json']));
    expect(out.actions).toEqual([expect.objectContaining({ action: 'kept-aside', keptAs: expect.stringMatching(/^refs\/handoff-kept\//) })]);
    expect(refOf(repo, REF)).toBe(own);
    expect(refOf(repo, out.actions[0].keptAs)).toBe(tip);
  });

  it('a history that takes the recorded owner over on the record stands; one taking over someone else goes back', async () => {
    const { repo, tip } = await seeded();
    const wrong = parentless(repo, 'sess-newcomer', 'Handoff-Takeover-From: sess-somebody\nHandoff-Reason: x\n');
    raw(repo, ['update-ref', REF, wrong]);
    expect(json(await ok(repo, ['recover', '--json'])).actions[0].action).toBe('moved-back');
    expect(refOf(repo, REF)).toBe(tip);
    const took = parentless(repo, 'sess-newcomer', 'Handoff-Takeover-From: sess-owner\nHandoff-Reason: abandoned\n');
    raw(repo, ['update-ref', REF, took]);
    expect(json(await ok(repo, ['recover', '--json'])).actions[0].action).toBe('kept-aside');
    expect(refOf(repo, REF)).toBe(took);
  });
});
