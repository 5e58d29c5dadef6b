// `git handoff status` through two clones and a bare remote, three sessions of two clients (issue 55): every session,
// claim and handoff with its owner, in the text and in --json, from either clone; what needs a person.
import { describe, expect, it } from 'vitest';
import { guard, payload } from '../guard/helpers';
import { json } from '../helpers/repo';
import { CLAIMED, makeTeam, S1, S2, S3, TOPICS } from './world';

describe('status', () => {
  it('shows every session, claim and handoff with its owner, here and as the remote knows them', async () => {
    const t = await makeTeam();
    const sa = json((await t.a.cli(['status', '--json'], { env: t.as[S1] })));
    expect(sa.version).toBe(1);
    expect(sa.branch).toBe('main');
    expect(sa.remote).toBe('origin');
    expect(sa.caller.id).toBe(S1);
    const byId = new Map(sa.sessions.map((s: any) => [s.session, s]));
    expect([...byId.keys()].sort()).toEqual([S1, S2, S3].sort());
    // this clone's two sessions, live, each with its client and worktree; B's session known through the remote
    expect(byId.get(S1)).toMatchObject({ status: 'live', client: 'claude-code', worktree: t.a.dir });
    expect(byId.get(S2)).toMatchObject({ status: 'live', client: 'gemini-cli' });
    expect((byId.get(S2) as any).worktree).toMatch(/docs$/);
    expect(byId.get(S3)).toMatchObject({ status: 'claiming', where: 'remote', client: 'claude-code', worktree: t.b.dir });
    for (const s of [S1, S2, S3]) {
      const e: any = byId.get(s);
      expect(e.handoffs.map((h: any) => h.topic), s).toEqual([TOPICS[s]]);
      expect(e.claims.map((c: any) => [c.paths, c.note]), s).toEqual([[[CLAIMED[s].path], CLAIMED[s].note]]);
      expect(Date.parse(e.claims[0].expires)).toBeGreaterThan(Date.now());
      expect(e.lastActivity).toMatch(/^\d{4}-/);
    }
    // the branch's handoffs with their owners, synced both ways; S1's own is not unread for it, the others are
    const handoffs = new Map(sa.handoffs.map((h: any) => [h.topic, h]));
    for (const s of [S1, S2, S3]) expect(handoffs.get(TOPICS[s]), s).toMatchObject({ session: s, sync: 'synced', to: [] });
    expect((handoffs.get(TOPICS[S1]) as any).unread).toBe(null);
    expect((handoffs.get(TOPICS[S3]) as any).unread).toBe(true);
    expect(sa.claims.map((c: any) => c.session).sort()).toEqual([S1, S2, S3].sort());
    expect(sa.attention).toEqual([]);

    // B sees A's two sessions through the remote, its own live
    const sb = json(await t.b.cli(['status', '--json']));
    const b = new Map(sb.sessions.map((s: any) => [s.session, s]));
    expect(b.get(S3)).toMatchObject({ status: 'live', where: 'here' });
    expect(byId.get(S1)).toMatchObject({ where: 'here' });
    expect(b.get(S1)).toMatchObject({ where: 'remote', status: 'claiming', client: 'claude-code' });
    expect(b.get(S2)).toMatchObject({ where: 'remote', status: 'claiming', client: 'gemini-cli' });
    expect(sb.caller).toBe(null);

    // the screen: each session's short id, client, handoff, claimed path and note; each handoff's owner
    const text = String((await t.a.cli(['status'], { env: t.as[S1] })).stdout);
    for (const s of [S1, S2, S3]) {
      expect(text).toContain(s.slice(0, 8));
      expect(text).toContain(TOPICS[s]);
      expect(text).toContain(CLAIMED[s].path);
      expect(text).toContain(`"${CLAIMED[s].note}"`);
    }
    expect(text).toMatch(/claude-code/);
    expect(text).toMatch(/gemini-cli/);
    const rows = text.split('\n').filter((l) => Object.values(TOPICS).some((topic) => l.includes(topic)) && /synced/.test(l));
    expect(rows).toHaveLength(3);
    for (const s of [S1, S2, S3]) expect(rows.find((l) => l.includes(TOPICS[s]))).toContain(s.slice(0, 8));
    expect(text).toContain('Needs a person (0)');
  });

  it('says what needs a person: a refused call, a takeover, a claim about to expire, a remote not reached, a loss', async () => {
    const t = await makeTeam();
    // the guard refuses S1 a raw move of a handoff ref
    const refused = await guard(t.a, payload(t.a, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: `git update-ref -d refs/handoffs/main/${TOPICS[S3]}` } }, S1));
    expect(refused.stdout).toMatch(/deny/);
    // S1 takes S3's handoff over, and S3 claims a path for five minutes
    expect((await t.a.cli(['write', TOPICS[S3], '-m', 'Goal: mine now', '--take-over', '--reason', 'S3 went quiet', '--from-live'], { env: t.as[S1] })).exitCode).toBe(0);
    expect((await t.b.cli(['claim', 'src/short/', '--ttl', '5m', '--note', 'quick fix'], { env: t.as[S3] })).exitCode).toBe(0);
    // S2 writes to S1's handoff without taking it over: refused (exit 3)
    expect((await t.a.cli(['write', TOPICS[S1], '--branch', 'main', '-m', 'Goal: mine?'], { cwd: t.a2, env: { ...t.as[S2] } })).exitCode).toBe(3);
    // the remote goes away: A's next sync does not reach it
    t.a.git(['remote', 'set-url', 'origin', `file://${t.bare.dir}-gone`]);
    expect((await t.a.cli(['sync'])).exitCode).toBe(7);
    // a handoff deleted outside git-handoff: the loss record notices it
    t.a.git(['update-ref', '-d', `refs/handoffs/main/${TOPICS[S2]}`], { env: { GIT_HANDOFF_BYPASS: '1' } });
    const s = json(await t.a.cli(['status', '--json'], { env: t.as[S1] }));
    const kinds = (k: string) => s.attention.filter((x: any) => x.kind === k);
    const guardRefusal = kinds('refused-call').find((x: any) => x.message.includes('tool call refused'));
    expect(guardRefusal.message).toContain(`git update-ref -d refs/handoffs/main/${TOPICS[S3]}`);
    expect(guardRefusal.session).toBe(S1);
    const owned = kinds('refused-call').find((x: any) => x.message.startsWith(`git handoff write ${TOPICS[S1]}`));
    expect(owned.session).toBe(S2);
    expect(owned.message).toMatch(/owned by session/);
    expect(kinds('takeover')[0]).toMatchObject({ session: S1 });
    expect(kinds('takeover')[0].message).toContain(`from ${S3}`);
    expect(kinds('takeover')[0].message).toContain('S3 went quiet');
    expect(kinds('remote-unreachable')[0]).toMatchObject({ command: 'git handoff fetch origin' });
    expect(kinds('loss')[0].ref).toBe(`refs/handoffs/main/${TOPICS[S2]}`);
    expect(kinds('loss')[0].command).toBe(`git handoff recover refs/handoffs/main/${TOPICS[S2]}`);
    // B: a commit its hooks refused (two sessions' ids in one message), and its own five-minute claim about to expire
    expect((await t.b.cli(['install', '--hooks'])).exitCode).toBe(0);
    const commit = t.b.git(['commit', '--allow-empty', '-q', '-m', `mixed\n\nClaude-Session-Id: ${S3}\nClaude-Session-Id: ${S1}`], { allowFail: true, env: { CLAUDE_CODE_SESSION_ID: S3 } });
    expect(commit.status).not.toBe(0);
    const sb = json(await t.b.cli(['status', '--json']));
    expect(sb.attention.find((x: any) => x.kind === 'claim-expiring').message).toContain('src/short/');
    const hook = sb.attention.find((x: any) => x.kind === 'refused-call');
    expect(hook.message).toMatch(/the git hook prepare-commit-msg refused/);
    expect(hook.session).toBe(S3);
    const text = String((await t.a.cli(['status'])).stdout);
    expect(text).toMatch(/Needs a person \([4-9]\)/);
    expect(text).toContain(`git handoff recover refs/handoffs/main/${TOPICS[S2]}`);
  });
});
