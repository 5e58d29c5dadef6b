// Read receipts (issue 18): git notes under refs/notes/handoff-reads, added by compare-and-swap, never removed.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quickIt, slowIt } from '../../helpers/sets';
import { BIN, json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';
import { guard, payload } from '../../guard/helpers';
import { ok } from '../../sync/world';

const NOTES = 'refs/notes/handoff-reads';
const REF = 'refs/handoffs/main/release-plan';
/** The note on a version, as git itself reads it. */
const noteOf = (repo: TestRepo, oid: string) => repo.git(['notes', `--ref=${NOTES}`, 'show', oid], { allowFail: true }).stdout;
const unread = async (repo: TestRepo, session: string, ...more: string[]) =>
  json(await ok(repo, ['list', '--unread', '--json', '--session', session, ...more])).map((r: any) => r.topic);

describe('receipts', () => {
  quickIt('unread, then read after show, then unread again when a new version comes; never for one\'s own version', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'release-plan', '-m', 'Goal: v1', '--session', 'sess-a', '--to', 'session:sess-b']);
    await ok(repo, ['write', 'other-topic', '-m', 'for anyone', '--session', 'sess-a']);
    await ok(repo, ['write', 'not-for-b', '-m', 'x', '--session', 'sess-a', '--to', 'role:qa']);
    expect(await unread(repo, 'sess-b')).toEqual(['other-topic', 'release-plan']);
    // the writer has nothing unread: its own versions
    expect(await unread(repo, 'sess-a')).toEqual([]);
    await ok(repo, ['show', 'release-plan', '--session', 'sess-a']);
    expect(refOf(repo, NOTES)).toBeNull();

    // --no-receipt reads without one
    await ok(repo, ['show', 'release-plan', '--session', 'sess-b', '--no-receipt']);
    expect(await unread(repo, 'sess-b')).toEqual(['other-topic', 'release-plan']);
    const v1 = refOf(repo, REF)!;
    const shown = json(await ok(repo, ['show', 'release-plan', '--json', '--session', 'sess-b']));
    expect(shown.readBy).toEqual([{ reader: 'sess-b', at: expect.stringMatching(/^\d{4}-/), how: 'read' }]);
    expect(noteOf(repo, v1)).toMatch(/^sess-b \d+ read\n$/);
    expect(await unread(repo, 'sess-b')).toEqual(['other-topic']);
    // reading again adds no second line
    await ok(repo, ['show', 'release-plan', '--session', 'sess-b']);
    expect(noteOf(repo, v1).split('\n').filter(Boolean)).toHaveLength(1);

    await ok(repo, ['write', 'release-plan', '-m', 'Goal: v2', '--session', 'sess-a']);
    expect(await unread(repo, 'sess-b')).toEqual(['other-topic', 'release-plan']);
    // a third reader, the log and the text views
    await ok(repo, ['show', 'release-plan', '--session', 'sess-c']);
    const log = json(await ok(repo, ['log', 'release-plan', '--json']));
    expect(log.map((e: any) => e.readBy.map((r: any) => r.reader))).toEqual([['sess-c'], ['sess-b']]);
    expect(String((await ok(repo, ['show', 'release-plan', '--no-receipt'])).stdout)).toMatch(/^read by sess-c$/m);
    expect(String((await ok(repo, ['log', 'release-plan'])).stdout)).toMatch(/read by sess-b$/m);
  });

  quickIt('boot puts handoffs addressed to the reader first, marks them unread/read, and records surfaced receipts', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'for-reviewer', '-m', '# Goal\nreview it', '--session', 'sess-a', '--to', 'role:reviewer']);
    await ok(repo, ['write', 'newer-general', '-m', '# Goal\nanything', '--session', 'sess-a']);
    const boot = json(await ok(repo, ['boot', '--json', '--session', 'sess-r', '--role', 'reviewer']));
    expect(boot.handoffs.map((h: any) => [h.topic, h.addressed, h.unread])).toEqual([
      ['for-reviewer', true, true],
      ['newer-general', false, true],
    ]);
    const tip = refOf(repo, 'refs/handoffs/main/for-reviewer')!;
    expect(noteOf(repo, tip)).toMatch(/^sess-r \d+ surfaced\n$/);
    // surfaced is not read; only the addressed handoff gets a surfaced receipt
    expect(await unread(repo, 'sess-r', '--role', 'reviewer')).toEqual(['for-reviewer', 'newer-general']);
    // without the role, the reviewer's handoff is not for this reader
    expect(await unread(repo, 'sess-r')).toEqual(['newer-general']);
    expect(noteOf(repo, refOf(repo, 'refs/handoffs/main/newer-general')!)).toBe('');
    await ok(repo, ['show', 'for-reviewer', '--session', 'sess-r']);
    const text = String((await ok(repo, ['boot', '--session', 'sess-r', '--role', 'reviewer'])).stdout);
    expect(text).toMatch(/\[1\] for-reviewer · for you \(read\)/);
    expect(noteOf(repo, tip).trim().split('\n').map((l) => l.split(' ')[2])).toEqual(['surfaced', 'read']);
  });

  quickIt('session start (the guard) shows a person-written handoff addressed to this session first, unread, and records surfaced', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'newest-unaddressed', '-m', '# Goal\nnoise', '--session', 'sess-a']);
    const p = payload(repo, 'claude-code/session-start.json');
    await ok(repo, ['write', 'operator-brief', '-m', '# Goal\ndo the release', '--person', '--to', `session:${p.session_id}`]);
    const r = await guard(repo, p);
    const ctx: string = r.answer.hookSpecificOutput.additionalContext;
    expect(ctx).toMatch(/\[1\] operator-brief · for you \(unread\) · owner person:test@example.com/);
    expect(ctx).toContain('1 addressed to you, unread');
    expect(noteOf(repo, refOf(repo, 'refs/handoffs/main/operator-brief')!)).toMatch(new RegExp(`^${p.session_id} \\d+ surfaced\\n$`));
  });

  quickIt('with the git hooks installed, receipts are only ever added in this repository too (notes remove, ref deletion refused)', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['install', '--hooks']);
    await ok(repo, ['write', 'release-plan', '-m', 'x', '--session', 'sess-a']);
    await ok(repo, ['show', 'release-plan', '--session', 'sess-b']);
    const kept = refOf(repo, NOTES)!;
    const tip = refOf(repo, REF)!;
    for (const args of [['notes', `--ref=${NOTES}`, 'remove', tip], ['notes', `--ref=${NOTES}`, 'add', '-f', '-m', 'forged 1 read', tip], ['update-ref', '-d', NOTES]]) {
      const r = repo.git(args, { allowFail: true });
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(refOf(repo, NOTES)).toBe(kept);
    }
    // adding goes through the same hook
    await ok(repo, ['show', 'release-plan', '--session', 'sess-c']);
    expect(noteOf(repo, tip).trim().split('\n').map((l) => l.split(' ')[0])).toEqual(['sess-b', 'sess-c']);
  });

  quickIt('session start of a Codex session with a role puts handoffs for client:codex and its role before newer ones', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'for-codex', '-m', '# Goal\nx', '--session', 'sess-a', '--to', 'client:codex']);
    await ok(repo, ['write', 'for-reviewers', '-m', '# Goal\ny', '--session', 'sess-a', '--to', 'role:reviewer']);
    await ok(repo, ['write', 'for-claude', '-m', '# Goal\nz', '--session', 'sess-a', '--to', 'client:claude-code']);
    await ok(repo, ['write', 'newest-general', '-m', '# Goal\nw', '--session', 'sess-a']);
    const r = await guard(repo, payload(repo, 'codex/session-start.json'), { GIT_HANDOFF_ROLE: 'reviewer' });
    const ctx: string = r.answer.hookSpecificOutput.additionalContext;
    const order = [...ctx.matchAll(/^\[\d+\] ([a-z-]+)( · for you \(unread\))?/gm)].map((m) => `${m[1]}${m[2] ? '*' : ''}`);
    expect(order.slice(0, 2).sort()).toEqual(['for-codex*', 'for-reviewers*']);
    expect(order.slice(2).sort()).toEqual(['for-claude', 'newest-general']);
    // a malformed role costs nothing but the role
    const bad = await guard(repo, payload(repo, 'codex/session-start.json'), { GIT_HANDOFF_ROLE: 'Not A Slug' });
    expect(bad.answer.hookSpecificOutput.additionalContext).toMatch(/\[1\] for-codex · for you/);
  });

  slowIt('two readers racing in one clone (real processes, many rounds) both keep every receipt', async () => {
    const repo = makeRepo({ commit: true });
    const topics = ['race-one', 'race-two', 'race-three', 'race-four'];
    for (const t of topics) await ok(repo, ['write', t, '-m', 'x', '--session', 'sess-a']);
    const run = (args: string[]) =>
      new Promise<number>((resolve) => {
        const c = spawn(BIN, args, { cwd: repo.dir, env: repo.env, stdio: 'ignore' });
        c.on('exit', (code) => resolve(code ?? 1));
      });
    const readers = ['reader-x', 'reader-y', 'reader-z'];
    const codes = await Promise.all(readers.flatMap((s) => topics.map((t) => run(['show', t, '--session', s]))));
    expect(codes.every((c) => c === 0)).toBe(true);
    for (const t of topics) {
      const lines = noteOf(repo, refOf(repo, `refs/handoffs/main/${t}`)!).trim().split('\n');
      expect(lines.map((l) => l.split(' ')[0]).sort()).toEqual(readers);
    }
    // every notes commit won by CAS is reachable: the history is linear, one commit per receipt
    expect(repo.git(['rev-list', '--count', NOTES]).stdout.trim()).toBe(String(readers.length * topics.length));
    expect(repo.git(['rev-list', '--merges', NOTES]).stdout.trim()).toBe('');
  });
});
