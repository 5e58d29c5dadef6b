// Every removal has an undo (issue 36): a dropped handoff comes back by `restore` (the command drop names), every
// version as it was; `show` reads a dropped one and `recover` names it as dropped with the same undo, not "nothing lost".
// The undo itself is on the record: its kept versions deleted outside git-handoff come back by recover and at session start.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../../helpers/repo';
import { ok } from '../../sync/world';

const REF = 'refs/handoffs/main/scratch-notes';

async function dropped() {
  const repo = makeRepo({ commit: true });
  await ok(repo, ['install', '--hooks']);
  await ok(repo, ['write', 'scratch-notes', '--session', 's1', '-m', 'Goal: one']);
  await ok(repo, ['write', 'scratch-notes', '--session', 's1', '-m', 'Goal: two']);
  const tip = refOf(repo, REF)!;
  const history = repo.git(['rev-list', REF]).stdout;
  const d = await ok(repo, ['drop', 'scratch-notes', '--session', 's1']);
  const keptAs = /undo it: git handoff restore (refs\/handoff-dropped\/\S+)/.exec(String(d.stdout))![1];
  expect(refOf(repo, REF)).toBeNull();
  return { repo, tip, history, keptAs };
}

describe('a drop is undone', () => {
  it('by the command drop prints: live again at the dropped tip, every version, the dropped ref gone, no loss reported', async () => {
    const { repo, tip, history, keptAs } = await dropped();
    expect(String((await ok(repo, ['drop', '--help'])).stdout)).toMatch(/Undo: `git handoff restore/);
    const r = await ok(repo, ['restore', keptAs, '--session', 's1']);
    expect(String(r.stdout)).toMatch(/restored the dropped/);
    expect(refOf(repo, REF)).toBe(tip);
    expect(repo.git(['rev-list', REF]).stdout).toBe(history);
    expect(refOf(repo, keptAs)).toBeNull();
    expect((await ok(repo, ['list'])).stderr).toBe('');
    expect(json(await ok(repo, ['recover', '--json'])).actions).toEqual([]);
    // the owner writes on
    await ok(repo, ['write', 'scratch-notes', '--session', 's1', '-m', 'Goal: three']);
  });

  it('by `restore <topic>`; another session needs a takeover; a live handoff is never restored over', async () => {
    const { repo, tip, keptAs } = await dropped();
    expect((await repo.cli(['restore', 'scratch-notes', '--session', 's2'])).exitCode).toBe(3);
    expect(refOf(repo, REF)).toBeNull();
    await ok(repo, ['restore', 'scratch-notes', '--session', 's1']);
    expect(refOf(repo, REF)).toBe(tip);
    expect(refOf(repo, keptAs)).toBeNull();
    // dropped again, and a new handoff of the same name written meanwhile: the drop stays kept, nothing moves
    const d = await ok(repo, ['drop', 'scratch-notes', '--session', 's1', '--json']);
    await ok(repo, ['write', 'scratch-notes', '--session', 's1', '-m', 'Goal: fresh']);
    const fresh = refOf(repo, REF);
    expect((await repo.cli(['restore', json(d).keptAs, '--session', 's1'])).exitCode).toBe(2);
    expect(refOf(repo, REF)).toBe(fresh);
    expect(refOf(repo, json(d).keptAs)).toBe(tip);
  });

  it('show reads a dropped handoff and says how to bring it back; recover names the drop and its undo', async () => {
    const { repo, keptAs } = await dropped();
    const s = await ok(repo, ['show', 'scratch-notes']);
    expect(String(s.stdout)).toContain('Goal: two');
    expect(String(s.stdout)).toContain(`dropped: \`git handoff restore ${keptAs}\``);
    for (const ref of [REF, keptAs]) {
      const out = json(await ok(repo, ['recover', ref, '--json']));
      expect(out.actions).toEqual([expect.objectContaining({ action: 'dropped', keptAs })]);
      expect(out.actions[0].message).toContain(`git handoff restore ${keptAs}`);
    }
    expect(refOf(repo, REF)).toBeNull();
  });

  it('its kept versions deleted with raw git: recover and the next session start put them back, and restore still undoes the drop', async () => {
    const { repo, tip, history, keptAs } = await dropped();
    const raw = (args: string[]) => repo.git(['-c', 'core.hooksPath=/dev/null', ...args]);
    raw(['update-ref', '-d', keptAs]);
    const out = json(await ok(repo, ['recover', '--json']));
    expect(out.actions).toEqual([expect.objectContaining({ ref: keptAs, action: 'restored', oid: tip })]);
    expect(refOf(repo, keptAs)).toBe(tip);
    // again, and this time the session start (boot's view) notices and restores it by itself, by the same name
    raw(['update-ref', '-d', keptAs]);
    repo.git(['reflog', 'expire', '--expire=now', '--all']);
    repo.git(['gc', '-q', '--prune=now']);
    const boot = await ok(repo, ['boot', '--session', 's1']);
    expect(String(boot.stdout)).toContain(`git-handoff restored at session start (lost outside git-handoff): ${keptAs} restored at ${tip.slice(0, 12)}`);
    expect(json(await ok(repo, ['recover', '--json'])).actions).toEqual([]);
    await ok(repo, ['restore', 'scratch-notes', '--session', 's1']);
    expect(refOf(repo, REF)).toBe(tip);
    expect(repo.git(['rev-list', REF]).stdout).toBe(history);
  });
});
