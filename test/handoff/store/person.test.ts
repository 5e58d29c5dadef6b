// People as authors (issue 18): write --person owns as person:<email> with a Handoff-Person trailer; ownership
// and takeover work as for sessions; without --person and without a session, exit 5 as ever.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../../helpers/repo';
import { ok } from '../../sync/world';

const REF = 'refs/handoffs/main/release-plan';

describe('write --person', () => {
  it('records Handoff-Person instead of Claude-Session-Id; the owner is person:<email>', async () => {
    const repo = makeRepo({ commit: true });
    const w = json(await ok(repo, ['write', 'release-plan', '-m', 'Goal: ship', '--person', '--json']));
    expect(w.session).toBe('person:test@example.com');
    const message = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(message).toMatch(/^Handoff-Person: Test User <test@example.com>$/m);
    expect(message).not.toMatch(/Claude-Session-Id/);
    expect(json(await ok(repo, ['list', '--json']))[0].session).toBe('person:test@example.com');
    expect(json(await ok(repo, ['list', '--mine', '--person', '--json']))).toHaveLength(1);
    expect(String((await ok(repo, ['show', 'release-plan', '--no-receipt'])).stdout)).toMatch(/owner person:test@example.com/);
  });

  it('a person owns their handoff: a session needs --take-over --reason, and a person takes over a session\'s like anyone', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'release-plan', '-m', 'v1', '--person']);
    const v1 = refOf(repo, REF);
    const refused = await repo.cli(['write', 'release-plan', '-m', 'mine now', '--session', 'sess-b']);
    expect(refused.exitCode).toBe(3);
    expect(String(refused.stderr)).toContain('owned by session person:test@example.com');
    expect(refOf(repo, REF)).toBe(v1);
    // the same person writes again (own), then a session takes over on the record
    await ok(repo, ['write', 'release-plan', '-m', 'v2', '--person']);
    await ok(repo, ['write', 'release-plan', '-m', 'v3', '--session', 'sess-b', '--take-over', '--reason', 'operator is away']);
    expect(repo.git(['log', '-1', '--format=%B', REF]).stdout).toMatch(/^Handoff-Takeover-From: person:test@example.com$/m);
    // another person (a different git identity) is refused, then takes over from the session
    const other = { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'user.email', GIT_CONFIG_VALUE_0: 'ops@example.com', GIT_CONFIG_KEY_1: 'user.name', GIT_CONFIG_VALUE_1: 'Ops' };
    expect((await repo.cli(['write', 'release-plan', '-m', 'x', '--person'], { env: other })).exitCode).toBe(3);
    expect((await repo.cli(['write', 'release-plan', '-m', 'v4', '--person', '--take-over', '--reason', 'back to people'], { env: other })).exitCode).toBe(0);
    const log = json(await ok(repo, ['log', 'release-plan', '--json']));
    expect(log.map((e: any) => [e.session, e.takeoverFrom])).toEqual([
      ['person:ops@example.com', 'sess-b'],
      ['sess-b', 'person:test@example.com'],
      ['person:test@example.com', null],
      ['person:test@example.com', null],
    ]);
    // the history holds to the invariant as git's own hook checks it: a forged append without takeover is refused
    await ok(repo, ['install', '--hooks']);
    const tree = repo.git(['rev-parse', `${REF}^{tree}`]).stdout.trim();
    const forged = repo.git(['commit-tree', tree, '-p', refOf(repo, REF)!], { input: 'handoff(release-plan): forged\n\nHandoff-Person: Test User <test@example.com>\n' }).stdout.trim();
    expect(repo.git(['update-ref', REF, forged], { allowFail: true }).status).not.toBe(0);
  });

  it('archive and restore as a person: owner only, or a takeover on the record', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'release-plan', '-m', 'v1', '--person', '--to', 'role:qa']);
    expect((await repo.cli(['archive', 'release-plan', '--session', 'sess-b'])).exitCode).toBe(3);
    const archived = json(await ok(repo, ['archive', 'release-plan', '--person', '--json']));
    expect(refOf(repo, REF)).toBeNull();
    const restored = json(await ok(repo, ['restore', archived.archivedAs, '--session', 'sess-b', '--take-over', '--reason', 'picking it up', '--json']));
    expect(restored.takeover).toBe(true);
    const message = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(message).toMatch(/^Claude-Session-Id: sess-b$/m);
    expect(message).toMatch(/^Handoff-Takeover-From: person:test@example.com$/m);
    // the takeover keeps who it is for
    expect(message).toMatch(/^Handoff-To: role:qa$/m);
  });

  it('never by accident: no --person and no session exits 5; --person without user.email exits 2', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['write', 'release-plan', '-m', 'x']);
    expect(r.exitCode).toBe(5);
    const bare = makeRepo({ identity: false });
    const p = await bare.cli(['write', 'release-plan', '-m', 'x', '--person']);
    expect(p.exitCode).toBe(2);
    expect(String(p.stderr)).toContain('user.email is not set');
    expect((await repo.cli(['write', 'release-plan', '-m', 'x', '--person', '--session', 's'])).exitCode).toBe(2);
    expect(refOf(repo, REF)).toBeNull();
  });
});
