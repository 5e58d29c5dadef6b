// A takeover of a live owner is a decision, not a side effect (issue 53): session A is live here (`sessions` says so)
// and owns api-work; B's `--take-over --reason` is refused naming A, its client, host and last activity, unless B says
// `--from-live`. The previous owner is told at its next tool call and at session start (who, when, why, `git handoff
// log`), and its next write is refused with that story, never advised to take it back. The same for every command that
// takes over: edit, archive, restore, redact, rename-branch.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { denial, guard, payload } from '../../guard/helpers';

const A = 'a1a1a1a1-0000-4000-8000-00000000000a';
const B = 'b2b2b2b2-0000-4000-8000-00000000000b';
const REF = 'refs/handoffs/main/api-work';

/** A's tool call through the guard, as Claude Code makes it: A is live in this worktree from then on. */
const toolCall = (repo: TestRepo, session: string, command = 'ls') => guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session));
const contextOf = (a: any): string => a?.hookSpecificOutput?.additionalContext ?? '';

async function liveOwner(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  expect((await repo.cli(['write', 'api-work', '--session', A, '-m', 'Goal: the API'])).exitCode).toBe(0);
  await toolCall(repo, A);
  const s = await repo.cli(['sessions', '--json']);
  expect(json(s).find((x: any) => x.session === A)?.status).toBe('live');
  return repo;
}

describe('a takeover of a live owner', () => {
  it('is refused (exit 3, owner-live) naming the owner, its client, host and last activity; nothing moves', async () => {
    const repo = await liveOwner();
    const before = refOf(repo, REF);
    const r = await repo.cli(['write', 'api-work', '--session', B, '--take-over', '--reason', 'looks abandoned', '-m', 'mine']);
    expect(r.exitCode).toBe(3);
    const err = String(r.stderr);
    expect(err).toContain(`owned by session ${A.slice(0, 8)}`);
    expect(err).toContain('which is live: claude-code on host ' + hostname());
    expect(err).toMatch(/last active just now in /);
    expect(err).toContain('git handoff write api-work --take-over --reason "<why>" --from-live');
    expect(err).not.toContain('(taken over)');
    expect(refOf(repo, REF)).toBe(before);
    const j = json(await repo.cli(['write', 'api-work', '--session', B, '--take-over', '--reason', 'x', '-m', 'mine', '--json']));
    expect(j.error.code).toBe('owner-live');
    expect(j.error.data.live).toMatchObject({ owner: A, session: A, client: 'claude-code', where: 'here' });
    // --from-live without --take-over is a usage error
    expect((await repo.cli(['write', 'api-work', '--session', B, '--from-live', '-m', 'mine'])).exitCode).toBe(2);
  });

  it('with --from-live it is taken over and says so; A is told once at its next tool call, refused with the story at its next write, and shown it at session start', async () => {
    const repo = await liveOwner();
    const r = await repo.cli(['write', 'api-work', '--session', B, '--take-over', '--reason', 'looks abandoned', '--from-live', '-m', 'mine']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain(`(taken over from live session ${A} (claude-code): it is told at its next tool call and session start)`);
    const wj = json(await repo.cli(['log', 'api-work', '--json']));
    expect(wj[0]).toMatchObject({ session: B, takeoverFrom: A, reason: 'looks abandoned' });

    // A's next tool call: told before the tool, with who, when, why and the command that shows it
    const next = contextOf((await toolCall(repo, A)).answer);
    expect(next).toContain(`your handoff api-work (branch main) was taken over by session ${B.slice(0, 8)}`);
    expect(next).toContain('"looks abandoned"');
    expect(next).toContain('git handoff log api-work');
    expect(next).toMatch(/at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect(contextOf((await toolCall(repo, A)).answer)).not.toContain('taken over');

    // A's next write: refused with the story, not advised to take it back
    const w = await repo.cli(['write', 'api-work', '--session', A, '-m', 'my notes']);
    expect(w.exitCode).toBe(3);
    const err = String(w.stderr);
    expect(err).toContain(`was taken over from you (session ${A})`);
    expect(err).toContain(`session ${B.slice(0, 8)} (cli) took it over`);
    expect(err).toContain('"looks abandoned"');
    expect(err).toContain('git handoff log api-work');
    expect(err).toContain('write your notes under a new topic');
    expect(err).not.toContain('--take-over');
    const wjson = json(await repo.cli(['write', 'api-work', '--session', A, '-m', 'x', '--json']));
    expect(wjson.error.data.takenOver).toMatchObject({ by: B, reason: 'looks abandoned' });

    // A's session start (a resume: the same id): the view leads with what was taken from it
    const start = contextOf((await guard(repo, payload(repo, 'claude-code/session-start.json', { source: 'resume' }, A))).answer);
    expect(start).toContain('your handoff api-work was taken over from you');
    expect(start).toContain('"looks abandoned"');
    expect(start).toContain('git handoff log api-work shows it');
    const boot = json(await repo.cli(['boot', '--session', A, '--json']));
    expect(boot.takenFromYou).toEqual([expect.objectContaining({ topic: 'api-work', from: A, by: B, reason: 'looks abandoned' })]);
    // B's own boot says nothing of it
    expect(json(await repo.cli(['boot', '--session', B, '--json'])).takenFromYou).toBeUndefined();
  });

  it('an owner that ended (SessionEnd) is taken over with --take-over alone, and the answer names it', async () => {
    const repo = await liveOwner();
    await guard(repo, payload(repo, 'claude-code/real-session-end.json', {}, A));
    const r = await repo.cli(['write', 'api-work', '--session', B, '--take-over', '--reason', 'A ended', '-m', 'mine']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain(`(taken over from session ${A})`);
  });

  it('an owner with a live claim is live too (a session the claims tables know of)', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'api-work', '--session', A, '-m', 'Goal: the API'])).exitCode).toBe(0);
    expect((await repo.cli(['claim', 'src/api/', '--session', A, '--note', 'the API'])).exitCode).toBe(0);
    const r = await repo.cli(['write', 'api-work', '--session', B, '--take-over', '--reason', 'x', '-m', 'mine', '--json']);
    expect(r.exitCode).toBe(3);
    expect(json(r).error.code).toBe('owner-live');
  });

  it('archive, restore, rename-branch, redact and edit with --take-over are refused alike, and go with --from-live (A told)', async () => {
    const repo = await liveOwner();
    const ways = 'take it over anyway, on the record (it is told at its next tool call)';
    const arch = await repo.cli(['archive', 'api-work', '--session', B, '--take-over', '--reason', 'done']);
    expect(arch.exitCode).toBe(3);
    expect(String(arch.stderr)).toContain(`${ways}: git handoff archive api-work --take-over --reason "<why>" --from-live`);
    const red = await repo.cli(['redact', 'api-work', '--session', B, '--take-over', '--reason', 'a token']);
    expect(red.exitCode).toBe(3);
    expect(String(red.stderr)).toContain('--from-live');
    const edit = await repo.cli(['edit', 'api-work', '--session', B, '--take-over', '--reason', 'x'], { env: { GIT_EDITOR: 'false' } });
    expect(edit.exitCode).toBe(3);
    expect(String(edit.stderr)).toContain('git handoff edit api-work --take-over --reason "<why>" --from-live');
    repo.git(['branch', '-m', 'main', 'trunk']);
    const ren = await repo.cli(['rename-branch', 'main', 'trunk', '--session', B, '--take-over', '--reason', 'renamed']);
    expect(ren.exitCode).toBe(3);
    expect(String(ren.stderr)).toContain('--from-live');
    expect((await repo.cli(['rename-branch', 'main', 'trunk', '--session', B, '--take-over', '--reason', 'renamed', '--from-live'])).exitCode).toBe(0);
    const told = contextOf((await toolCall(repo, A)).answer);
    expect(told).toContain(`your handoff api-work (branch main) was carried to another branch by session ${B.slice(0, 8)}`);
    expect(told).toContain('"renamed"');
    // A's own archived handoff, brought back by B
    expect((await repo.cli(['write', 'old-notes', '--session', A, '-m', 'Goal: old'])).exitCode).toBe(0);
    expect((await repo.cli(['archive', 'old-notes', '--session', A])).exitCode).toBe(0);
    const rest = await repo.cli(['restore', 'old-notes', '--session', B, '--take-over', '--reason', 'needed']);
    expect(rest.exitCode).toBe(3);
    expect(String(rest.stderr)).toContain('--from-live');
    expect((await repo.cli(['restore', 'old-notes', '--session', B, '--take-over', '--reason', 'needed', '--from-live'])).exitCode).toBe(0);
  });

  it('a person (no session) is never live, and a denial of A’s write leaves A no note', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'api-work', '--person', '-m', 'Goal: the API'])).exitCode).toBe(0);
    const r = await repo.cli(['write', 'api-work', '--session', B, '--take-over', '--reason', 'the person is away', '-m', 'mine']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(denial(await toolCall(repo, B))).toBeNull();
  });
});
