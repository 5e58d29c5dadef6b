// Addressing (issue 18): Handoff-To with every addressee kind, kept across versions, tags and references,
// and list's filters, all through the real CLI on a real repository.
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';

const REF = 'refs/handoffs/main/release-plan';
const KINDS = ['session:sess-b', 'client:codex', 'person:ops@example.com', 'role:reviewer'];

describe('write --to', () => {
  it('round-trips every addressee kind through the trailers, show --json and list --json, and keeps them for later versions', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'release-plan', '-m', 'Goal: ship', '--session', 'sess-a', ...KINDS.flatMap((k) => ['--to', k]), '--tag', 'needs-review']);
    const message = repo.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(message.match(/^Handoff-To: .*$/gm)).toEqual(KINDS.map((k) => `Handoff-To: ${k}`));
    expect(message).toMatch(/^Handoff-Tag: needs-review$/m);
    // git itself reads them as trailers
    const parsed = repo.git(['interpret-trailers', '--parse', '--no-divider'], { input: message }).stdout;
    expect(parsed.match(/^Handoff-To: /gm)).toHaveLength(4);
    expect(json(await ok(repo, ['show', 'release-plan', '--json', '--no-receipt'])).to).toEqual(KINDS);
    expect(json(await ok(repo, ['list', '--json']))[0]).toMatchObject({ to: KINDS, tags: ['needs-review'], refs: [] });

    // a later version without --to keeps them; --to replaces; --to-none clears (for anyone)
    await ok(repo, ['write', 'release-plan', '-m', 'v2', '--session', 'sess-a']);
    expect(json(await ok(repo, ['list', '--json']))[0]).toMatchObject({ to: KINDS, tags: ['needs-review'] });
    await ok(repo, ['write', 'release-plan', '-m', 'v3', '--session', 'sess-a', '--to', 'role:qa']);
    expect(json(await ok(repo, ['list', '--json']))[0].to).toEqual(['role:qa']);
    await ok(repo, ['write', 'release-plan', '-m', 'v4', '--session', 'sess-a', '--to-none']);
    expect(json(await ok(repo, ['list', '--json']))[0].to).toEqual([]);
    expect(repo.git(['log', '-1', '--format=%B', REF]).stdout).not.toMatch(/^Handoff-To:/m);
  });

  it('refuses an addressee that is not one of the four kinds, or that would open another trailer (exit 2, nothing written)', async () => {
    const repo = makeRepo({ commit: true });
    for (const bad of ['sess-b', 'session:a b', 'client:cli', 'client:vim', 'person:nobody', 'role:Reviewer', 'session:x\nClaude-Session-Id: y', 'team:core']) {
      const r = await repo.cli(['write', 'release-plan', '-m', 'x', '--session', 'sess-a', '--to', bad]);
      expect(r.exitCode, bad).toBe(2);
      expect(String(r.stderr)).toMatch(/session:<id>, client:<.*>, person:<email> or role:<slug>/);
    }
    for (const [flag, bad] of [['--tag', 'Not A Slug'], ['--ref', 'a\nClaude-Session-Id: x']]) {
      expect((await repo.cli(['write', 'release-plan', '-m', 'x', '--session', 'sess-a', flag, bad])).exitCode).toBe(2);
    }
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
  });
});

describe('write --ref', () => {
  it('records paths, commits and URLs; show and boot verify the paths and commits now', async () => {
    const repo = makeRepo({ commit: true });
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('add notes', { 'docs/notes.md': 'x\n' });
    await ok(repo, ['write', 'release-plan', '-m', 'Goal', '--session', 'sess-a', '--ref', 'docs/notes.md', '--ref', head.slice(0, 12), '--ref', 'https://example.com/issue/1', '--ref', 'src/gone.ts', '--ref', 'deadbeefdeadbeef']);
    const v = json(await ok(repo, ['show', 'release-plan', '--json', '--no-receipt']));
    expect(v.refs).toEqual(['docs/notes.md', head.slice(0, 12), 'https://example.com/issue/1', 'src/gone.ts', 'deadbeefdeadbeef']);
    expect(v.verify.missingRefs).toEqual(['src/gone.ts', 'deadbeefdeadbeef']);
    // the path disappears from the branch: verification says so
    repo.git(['rm', '-q', 'docs/notes.md']);
    repo.git(['commit', '-q', '-m', 'rm']);
    const boot = json(await ok(repo, ['boot', '--json', '--session', 'sess-z', '--no-receipt']));
    expect(boot.handoffs[0].verify.missingRefs).toEqual(['docs/notes.md', 'src/gone.ts', 'deadbeefdeadbeef']);
    expect(String((await ok(repo, ['show', 'release-plan', '--no-receipt'])).stdout)).toMatch(/missing refs: docs\/notes\.md, src\/gone\.ts, deadbeefdeadbeef/);
  });
});

describe('list --to, --for-me, --tag', () => {
  it('filters by addressee, by the reader (session, client, role, person) and by tag', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'for-sess-b', '-m', 'x', '--session', 'sess-a', '--to', 'session:sess-b', '--tag', 'urgent']);
    await ok(repo, ['write', 'for-codex', '-m', 'x', '--session', 'sess-a', '--to', 'client:codex']);
    await ok(repo, ['write', 'for-reviewer', '-m', 'x', '--session', 'sess-a', '--to', 'role:reviewer', '--tag', 'urgent']);
    await ok(repo, ['write', 'for-tester-person', '-m', 'x', '--session', 'sess-a', '--to', 'person:test@example.com']);
    await ok(repo, ['write', 'for-anyone', '-m', 'x', '--session', 'sess-a']);
    const topics = async (args: string[], env: Record<string, string> = {}) =>
      json(await ok(repo, ['list', '--json', ...args].filter(Boolean), 0, env))
        .map((r: any) => r.topic)
        .sort();
    expect(await topics(['--to', 'client:codex'])).toEqual(['for-codex']);
    expect(await topics(['--tag', 'urgent'])).toEqual(['for-reviewer', 'for-sess-b']);
    expect(await topics(['--for-me', '--session', 'sess-b'])).toEqual(['for-sess-b']);
    expect(await topics(['--for-me'], { CODEX_THREAD_ID: 'thread-1', GIT_HANDOFF_ROLE: 'reviewer' })).toEqual(['for-codex', 'for-reviewer']);
    expect(await topics(['--for-me', '--session', 'sess-q', '--role', 'reviewer'])).toEqual(['for-reviewer']);
    expect(await topics(['--for-me', '--person'])).toEqual(['for-tester-person']);
    const none = await repo.cli(['list', '--for-me']);
    expect(none.exitCode).toBe(5);
  });
});
